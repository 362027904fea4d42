package server

import (
	"context"
	"testing"
	"time"

	"bullshit/cluster"
	"bullshit/engine"
	"bullshit/game"
	"bullshit/store"
	"bullshit/store/storetest"
)

// TestNodeRestartsUnderItsOwnName: a cluster node stopped without handing
// its tables over (as a crash leaves them, its lease unreleased) and
// assembled again under its name on the same database takes its games back
// as it starts. Under -race this catches anything the tables read of the
// assembly (the cluster's calls, the publisher) before the assembly set it;
// and every game is then answered by the node, not refused as moved.
func TestNodeRestartsUnderItsOwnName(t *testing.T) {
	if !storetest.HavePostgres() {
		t.Skipf("%s is not set to a PostgreSQL URL: a cluster needs one", storetest.PostgresEnv)
	}
	url := storetest.PostgresURL(t)
	ctx := context.Background()
	settings := func() Settings {
		return Settings{Cluster: &Cluster{Node: "r", Lease: DefaultLease,
			NATS: cluster.NATSConfig{Listen: "127.0.0.1:0", RouteSecret: "a-route-secret-for-the-tests"}}}
	}
	st, err := store.Open(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	site, err := Assemble(ctx, st, nil, nil, settings())
	if err != nil {
		t.Fatal(err)
	}
	var games []string
	for range 20 {
		j, err := site.Manager.Create(ctx, game.CreateRequest{Options: engine.Standard(3), HostName: "Ann", FillBots: true})
		if err != nil {
			t.Fatal(err)
		}
		if err := site.Manager.Start(game.WithToken(ctx, j.Token), j.Game.ID, j.Seat); err != nil {
			t.Fatal(err)
		}
		games = append(games, j.Game.ID)
	}
	// Stopped as a crash stops it: no handover, the lease left to run out.
	if err := site.Halt(ctx); err != nil {
		t.Fatal(err)
	}

	again, err := Assemble(ctx, st, nil, nil, settings())
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		if err := again.Close(ctx); err != nil {
			t.Error(err)
		}
	}()
	for _, id := range games {
		deadline := time.Now().Add(20 * time.Second)
		for {
			g, err := again.Mesh.Service.Get(ctx, id)
			if err == nil && (g.Status == game.StatusLive || g.Status == game.StatusFinished) {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("game %s after the restart: got %+v, %v; want it answered by the node", id, g, err)
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
}
