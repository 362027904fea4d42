package server_test

import (
	"sync/atomic"
	"testing"
	"time"

	"go.uber.org/goleak"

	"bullshit/api/client"
	"bullshit/cluster"
	"bullshit/engine"
	"bullshit/internal/clocks"
	"bullshit/server"
	"bullshit/store"
	"bullshit/store/storetest"
)

// threeNodeLease is short, so a frozen node's tables move on soon.
const threeNodeLease = time.Second

// TestThreeNodesFreezeOne assembles three nodes in this process on one
// schema, each with its own embedded NATS server, plays a table run by the
// first through the other two, then freezes the first's lease renewal:
// a peer claims the table with a higher epoch, the players keep playing
// through any node, and a stream followed on the second node sees the game
// only move forward. No goroutine outlives the nodes.
func TestThreeNodesFreezeOne(t *testing.T) {
	if !storetest.HavePostgres() {
		t.Skipf("%s is not set to a PostgreSQL URL: a cluster needs one", storetest.PostgresEnv)
	}
	// Registered first, so it runs after every node's cleanup.
	t.Cleanup(func() { goleak.VerifyNone(t, goleak.IgnoreCurrent()) })
	url := storetest.PostgresURL(t)
	var frozen atomic.Bool
	siteA, a := startFrozenNode(t, url, "a", frozen.Load)
	routes := siteA.Mesh.NATS.ClusterAddr()
	_, b := startFrozenNode(t, url, "b", nil, routes)
	_, c := startFrozenNode(t, url, "c", nil, routes)
	nodes := []*client.Client{a, b, c}
	ctx := t.Context()

	host, err := a.Create(ctx, client.CreateBody{Seats: 3, Name: "Ann"})
	if err != nil {
		t.Fatal(err)
	}
	id := host.Game.ID
	tokens := map[int]string{host.Seat: host.Token}
	for i, name := range []string{"Bob", "Cy"} {
		j, err := nodes[i+1].Join(ctx, id, name)
		if err != nil {
			t.Fatalf("joining through node %d: %v", i+1, err)
		}
		tokens[j.Seat] = j.Token
	}
	if _, err := c.WithToken(host.Token).Start(ctx, id); err != nil {
		t.Fatalf("starting through node c: %v", err)
	}
	st, err := store.Open(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	owner, epoch, _, err := st.Owner(ctx, id)
	if err != nil || owner != "a" {
		t.Fatalf("the table's owner: got %q (%v), want a", owner, err)
	}

	// Seat 0's stream on node b, which never runs the table.
	stream := follow(ctx, b.WithToken(tokens[0]), id)

	move := func(through *client.Client) engine.View {
		t.Helper()
		seat, m := nextMove(t, through, tokens, id)
		v, err := through.WithToken(tokens[seat]).Act(ctx, id, m)
		if err != nil {
			t.Fatalf("%s by seat %d: %v", m.Kind, seat, err)
		}
		return v
	}
	for i := range 4 {
		move(nodes[i%3])
	}

	frozen.Store(true)
	deadline := time.Now().Add(30 * time.Second)
	for {
		owner, next, _, err := st.Owner(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		if owner != "a" {
			if next <= epoch {
				t.Errorf("the epoch after the claim: got %d, want above %d", next, epoch)
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("nobody claimed the frozen node's table")
		}
		time.Sleep(20 * time.Millisecond)
	}
	// The players go on through every node, the frozen one included: it
	// sends their moves to the table's new owner.
	var last engine.View
	for i := range 6 {
		last = move(nodes[i%3])
	}

	stream.reach(t, last.Version)

	actions, err := st.Actions(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	for i, a := range actions {
		if a.Seq != i+1 {
			t.Fatalf("the stored log: action %d has number %d, want %d", i, a.Seq, i+1)
		}
	}
}

// startFrozenNode is a node on the real clock with a short lease and a hook
// that can freeze its lease renewal (nil: never).
func startFrozenNode(t *testing.T, url, name string, freeze func() bool, routes ...string) (*server.Site, *client.Client) {
	t.Helper()
	return serveNode(t, url, clocks.Real{}, server.Cluster{Node: name, Lease: threeNodeLease, FreezeRenewal: freeze,
		NATS: cluster.NATSConfig{Listen: "127.0.0.1:0", Routes: routes, RouteSecret: testRouteSecret}})
}
