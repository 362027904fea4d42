package server_test

import (
	"context"
	"errors"
	"net/http/httptest"
	"reflect"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus/testutil"

	"bullshit/api/client"
	"bullshit/cluster"
	"bullshit/engine"
	"bullshit/internal/clocks"
	"bullshit/internal/clocks/fakeclock"
	"bullshit/server"
	"bullshit/store"
	"bullshit/store/storetest"
)

// testRouteSecret is the route secret the tests' nodes share.
const testRouteSecret = "a-route-secret-for-the-tests"

// startNode assembles a site as one node of a cluster on the database at
// url, its embedded NATS server routed to routes, and serves it.
func startNode(t *testing.T, url, name string, clock clocks.Clock, routes ...string) (*server.Site, *client.Client) {
	t.Helper()
	return serveNode(t, url, clock, server.Cluster{Node: name, Lease: server.DefaultLease,
		NATS: cluster.NATSConfig{Listen: "127.0.0.1:0", Routes: routes, RouteSecret: testRouteSecret}})
}

// serveNode assembles a site as the cluster node c on the database at url,
// and serves it until the test ends.
func serveNode(t *testing.T, url string, clock clocks.Clock, c server.Cluster) (*server.Site, *client.Client) {
	t.Helper()
	ctx := context.Background()
	st, err := store.Open(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	site, err := server.Assemble(ctx, st, clock, nil, server.Settings{Cluster: &c})
	if err != nil {
		st.Close()
		t.Fatal(err)
	}
	srv := httptest.NewServer(site.Handler)
	t.Cleanup(func() {
		site.StopStreams()
		srv.Close()
		if err := site.Close(context.Background()); err != nil {
			t.Error(err)
		}
		st.Close()
	})
	return site, client.New(srv.URL, nil)
}

// TestTwoNodesServeOneSite plays through the node that doesn't run the
// table, over HTTP, and follows a seat's stream there: the answers, the
// refusals and the stream are those of the node that runs it.
func TestTwoNodesServeOneSite(t *testing.T) {
	if !storetest.HavePostgres() {
		t.Skipf("%s is not set to a PostgreSQL URL: a cluster needs one", storetest.PostgresEnv)
	}
	url := storetest.PostgresURL(t)
	clock := fakeclock.New(time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC))
	siteA, a := startNode(t, url, "a", clock)
	siteB, b := startNode(t, url, "b", clock, siteA.Mesh.NATS.ClusterAddr())
	ctx := t.Context()
	for _, site := range []*server.Site{siteA, siteB} {
		awaitReady(t, site) // b is in the mesh once its route to a is up
	}

	host, err := a.Create(ctx, client.CreateBody{Seats: 3, Name: "Ann"})
	if err != nil {
		t.Fatal(err)
	}
	id := host.Game.ID
	tokens := map[int]string{host.Seat: host.Token}
	for _, name := range []string{"Bob", "Cy"} {
		j, err := b.Join(ctx, id, name)
		if err != nil {
			t.Fatalf("joining through the node that doesn't run the table: %v", err)
		}
		tokens[j.Seat] = j.Token
	}
	if _, err := b.WithToken(host.Token).Start(ctx, id); err != nil {
		t.Fatalf("starting through the other node: %v", err)
	}

	// Seat 0's stream on node b.
	stream := follow(ctx, b.WithToken(tokens[0]), id)

	for range 4 {
		v, err := a.View(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		seat, move := nextMove(t, a, tokens, id)
		before, err := a.WithToken(tokens[seat]).View(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		after, err := b.WithToken(tokens[seat]).Act(ctx, id, move)
		if err != nil {
			t.Fatalf("%s through the other node: %v", move.Kind, err)
		}
		if after.Version <= before.Version || after.Version <= v.Version {
			t.Errorf("the view after a move: got version %d, want above %d", after.Version, before.Version)
		}
		onOwner, err := a.WithToken(tokens[seat]).View(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(onOwner, after) {
			t.Errorf("the view after a move through the other node: got %+v, want the owner's %+v", after, onOwner)
		}
		// The same move again is refused alike on both nodes.
		_, errB := b.WithToken(tokens[seat]).Act(ctx, id, move)
		_, errA := a.WithToken(tokens[seat]).Act(ctx, id, move)
		var eA, eB *client.Error
		if !errors.As(errA, &eA) || !errors.As(errB, &eB) || *eA != *eB {
			t.Errorf("a move made twice: got %v through the other node, want the owner's %v", errB, errA)
		}
	}
	want, err := a.WithToken(tokens[0]).View(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	stream.reach(t, want.Version)

	problems, err := testutil.GatherAndLint(siteB.Metrics.Registry())
	if err != nil || len(problems) > 0 {
		t.Errorf("the metrics' lint: got %v %v, want none", problems, err)
	}
	families, err := siteB.Metrics.Registry().Gather()
	if err != nil {
		t.Fatal(err)
	}
	sent := 0.0
	for _, f := range families {
		if f.GetName() == "bullshit_nats_requests_total" {
			sent = f.GetMetric()[0].GetCounter().GetValue()
		}
	}
	if sent == 0 {
		t.Errorf("bullshit_nats_requests_total on the other node: got %v, want some", sent)
	}
}

// nextMove is a move someone may make now: the player to play plays one
// card, or else the first who may let the last play go does.
func nextMove(t *testing.T, c *client.Client, tokens map[int]string, id string) (int, engine.Action) {
	t.Helper()
	for seat := range 3 {
		v, err := c.WithToken(tokens[seat]).View(t.Context(), id)
		if err != nil {
			t.Fatal(err)
		}
		switch {
		case slices.Contains(v.Can, engine.ActPlay) && len(v.Hand) > 0:
			return seat, engine.Action{Kind: engine.ActPlay, No: v.Plays, Cards: v.Hand[:1]}
		case slices.Contains(v.Can, engine.ActPass):
			return seat, engine.Action{Kind: engine.ActPass, No: v.Plays}
		}
	}
	t.Fatal("nobody may move")
	return 0, engine.Action{}
}

// followed is a seat's event stream on one node, the versions of the views
// it brings noted as they come.
type followed struct {
	mu       sync.Mutex
	versions []int
	stop     context.CancelFunc
	done     chan error
}

// follow follows the stream of c's seat (its token) in game id.
func follow(ctx context.Context, c *client.Client, id string) *followed {
	ctx, stop := context.WithCancel(ctx)
	f := &followed{stop: stop, done: make(chan error, 1)}
	go func() {
		f.done <- c.Events(ctx, id, func(v engine.View) error {
			f.mu.Lock()
			defer f.mu.Unlock()
			f.versions = append(f.versions, v.Version)
			return nil
		})
	}()
	return f
}

// reach waits until the stream has brought version want, fails the test if
// a version ever came that was not above the one before, and stops it.
func (f *followed) reach(t *testing.T, want int) {
	t.Helper()
	defer func() { f.stop(); <-f.done }()
	deadline := time.Now().Add(20 * time.Second)
	for {
		f.mu.Lock()
		got := slices.Clone(f.versions)
		f.mu.Unlock()
		if len(got) > 0 && got[len(got)-1] >= want {
			for i := 1; i < len(got); i++ {
				if got[i] <= got[i-1] {
					t.Errorf("versions on the other node's stream: got %v, want each above the last", got)
					break
				}
			}
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the other node's stream: got versions %v, want them to reach %d", got, want)
		}
		time.Sleep(10 * time.Millisecond)
	}
}
