package server_test

import (
	"sync/atomic"
	"testing"
	"time"

	"bullshit/api/client"
	"bullshit/server"
	"bullshit/store"
	"bullshit/store/storetest"
)

// TestIslandNodeClaimsNothing: a third node whose routes reach nobody
// reports not ready for the mesh, and when the node running the tables
// stops renewing its lease, the node its peer can reach claims them all and
// the island none.
func TestIslandNodeClaimsNothing(t *testing.T) {
	if !storetest.HavePostgres() {
		t.Skipf("%s is not set to a PostgreSQL URL: a cluster needs one", storetest.PostgresEnv)
	}
	url := storetest.PostgresURL(t)
	ctx := t.Context()
	var frozen atomic.Bool
	siteA, a := startFrozenNode(t, url, "a", frozen.Load)
	siteB, _ := startFrozenNode(t, url, "b", nil, siteA.Mesh.NATS.ClusterAddr())
	awaitReady(t, siteA)
	awaitReady(t, siteB)
	island, _ := startFrozenNode(t, url, "island", nil, "127.0.0.1:1")
	awaitFailing(t, island, "mesh")
	for _, site := range []*server.Site{siteA, siteB} {
		if failing, why := site.Ready.Check(ctx); failing != "" {
			t.Errorf("readiness beside an island: got %q failing (%s), want none", failing, why)
		}
	}

	var games []string
	for range 4 {
		host, err := a.Create(ctx, client.CreateBody{Seats: 3, Name: "Ann", FillBots: true})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := a.WithToken(host.Token).Start(ctx, host.Game.ID); err != nil {
			t.Fatal(err)
		}
		games = append(games, host.Game.ID)
	}
	st, err := store.Open(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	frozen.Store(true)
	for _, id := range games {
		deadline := time.Now().Add(30 * time.Second)
		for {
			owner, _, _, err := st.Owner(ctx, id)
			if err != nil {
				t.Fatal(err)
			}
			if owner != "a" {
				if owner != "b" {
					t.Errorf("game %s's new owner: got %q, want b (the island claims nothing)", id, owner)
				}
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("nobody claimed game %s from the frozen node", id)
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
	if failing, _ := island.Ready.Check(ctx); failing != "mesh" {
		t.Errorf("the island's readiness after the claims: got %q failing, want mesh", failing)
	}
}

// awaitReady waits until site reports ready (bounded: a hang's guard).
func awaitReady(t *testing.T, site *server.Site) {
	t.Helper()
	awaitFailing(t, site, "")
}

// awaitFailing waits until the first failing check of site's readiness is
// want ("" for ready).
func awaitFailing(t *testing.T, site *server.Site, want string) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		failing, why := site.Ready.Check(t.Context())
		if failing == want {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("readiness: got %q failing (%s), want %q", failing, why, want)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
