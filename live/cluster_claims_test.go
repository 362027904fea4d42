package live

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"go.uber.org/goleak"

	"bullshit/engine"
	"bullshit/errcode"
	"bullshit/game"
	"bullshit/internal/clocks"
	"bullshit/internal/clocks/fakeclock"
	"bullshit/store"
	"bullshit/store/storetest"
)

// TestClusterNeedsPostgres: a node's settings are checked, and a cluster
// on SQLite, which has one writer, is refused at the start.
func TestClusterNeedsPostgres(t *testing.T) {
	st := openStore(t)
	tests := []struct {
		name    string
		cluster Node
		want    string
	}{
		{"no name", Node{Lease: time.Second}, "needs a name"},
		{"no lease", Node{Name: "a"}, "needs a lease time"},
		{"sqlite", Node{Name: "a", Lease: time.Second}, store.ErrSingleNode.Error()},
	}
	for _, tt := range tests {
		m, err := startNew(context.Background(), Config{Store: st, Node: &tt.cluster}, Hooks{})
		if err == nil {
			m.Close(context.Background())
			t.Errorf("%s: got no error, want %q", tt.name, tt.want)
			continue
		}
		if !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: got %v, want %q", tt.name, err, tt.want)
		}
	}
}

// TestClusterLapseTakesBack: a node alone whose renewals stall stops its
// tables; nobody else claims them, so once it renews again it takes its own
// games back, at a higher epoch, and they finish.
func TestClusterLapseTakesBack(t *testing.T) {
	url := needPostgres(t)
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
	c := newCluster(t, url, 1, nil)
	defer c.close()
	nd := c.nodes[0]
	games := c.botGames(nd, 2)
	runs := func(want bool) func() bool {
		return func() bool {
			for _, id := range games {
				if nd.m.Runs(id) != want {
					return false
				}
			}
			return (nd.m.Ready() == nil) == want
		}
	}
	nd.frozen.Store(true)
	c.await("the tables stopping", 20*time.Second, runs(false))
	nd.frozen.Store(false)
	c.await("the tables taken back", 20*time.Second, runs(true))
	for _, id := range games {
		if owner, epoch, _ := c.owner(id); owner != nd.name || epoch < 2 {
			t.Errorf("game %s: got owner %s epoch %d, want %s at 2 or more", id, owner, epoch, nd.name)
		}
	}
	c.await("every game finished", 3*time.Minute, func() bool {
		for _, id := range games {
			if _, _, status := c.owner(id); status != "finished" {
				return false
			}
		}
		return true
	})
	for _, id := range games {
		c.checkStored(nd.m, id)
	}
}

// TestClusterRestartTakesBack: a node restarted under its own name before
// its lease ran out takes its games back as it starts, rather than leaving
// them to wait for the lease.
func TestClusterRestartTakesBack(t *testing.T) {
	url := needPostgres(t)
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
	c := newCluster(t, url, 1, func(_ int, cfg *Node, hooks *Hooks) { cfg.Lease = time.Minute })
	defer c.close()
	nd := c.nodes[0]
	games := c.botGames(nd, 2)
	if err := nd.m.Close(c.ctx); err != nil {
		t.Fatal(err)
	}
	m, err := startNew(c.ctx, Config{Store: nd.st, Clock: clocks.Scaled{Speed: clusterSpeed},
		Node: &Node{Name: nd.name, Lease: time.Minute}}, Hooks{})
	if err != nil {
		t.Fatal(err)
	}
	nd.m = m
	for _, id := range games {
		if !m.Runs(id) {
			t.Errorf("game %s: not run by the restarted node", id)
		}
		if owner, epoch, _ := c.owner(id); owner != nd.name || epoch != 2 {
			t.Errorf("game %s: got owner %s epoch %d, want %s at 2", id, owner, epoch, nd.name)
		}
	}
	c.await("every game finished", 3*time.Minute, func() bool {
		for _, id := range games {
			if _, _, status := c.owner(id); status != "finished" {
				return false
			}
		}
		return true
	})
	for _, id := range games {
		c.checkStored(m, id)
	}
}

// TestClusterFencedRequestMoved: a request whose write the fence refuses
// (another node took the game meanwhile) is answered "moved", changes
// nothing, and stops the table; claimed back, the game takes the request.
func TestClusterFencedRequestMoved(t *testing.T) {
	url := needPostgres(t)
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
	c := newCluster(t, url, 1, func(_ int, cfg *Node, hooks *Hooks) { cfg.Lease, cfg.ClaimEvery = time.Minute, time.Minute })
	defer c.close()
	nd := c.nodes[0]
	j, err := nd.m.Create(c.ctx, game.CreateRequest{Options: engine.Standard(4), HostName: "Ada"})
	if err != nil {
		t.Fatal(err)
	}
	id := j.Game.ID
	// Another node, with no lease of its own, takes the game.
	if _, err := c.check.DB().ExecContext(c.ctx, "UPDATE games SET owner = 'elsewhere', epoch = epoch + 1 WHERE id = ?", id); err != nil {
		t.Fatal(err)
	}
	if _, err := nd.m.Join(c.ctx, id, "Bo", 0); codeOf(err) != string(errcode.Moved) {
		t.Fatalf("join after the game moved: got %v, want %s", err, errcode.Moved)
	}
	if nd.m.Runs(id) {
		t.Errorf("the node still runs the table after its write was fenced")
	}
	if got := nd.m.Stats().Fenced; got != 1 {
		t.Errorf("writes refused by the fence: got %d, want 1", got)
	}
	_, seats, err := c.check.Game(c.ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if seats[1].Kind != game.SeatEmpty {
		t.Errorf("seat 1 after the refused join: got %s, want empty", seats[1].Kind)
	}
	// The other node has no lease: its game is an orphan, claimed back.
	nd.m.ClaimNow()
	c.await("the game claimed back", 15*time.Second, func() bool { return nd.m.Runs(id) })
	if owner, epoch, _ := c.owner(id); owner != nd.name || epoch != 3 {
		t.Errorf("the game claimed back: got owner %s epoch %d, want %s at 3", owner, epoch, nd.name)
	}
	if _, err := nd.m.Join(c.ctx, id, "Bo", 0); err != nil {
		t.Errorf("join once claimed back: %v", err)
	}
}

// BenchmarkClaim is a node taking over n games being played whose owner's
// lease ran out: claimed a batch at a time, each read and rebuilt from its
// actions as it starts (the tables started, not yet played). Compare
// BenchmarkRestart, which reads every game in a few streaming queries.
func BenchmarkClaim(b *testing.B) {
	if !storetest.HavePostgres() {
		b.Skipf("%s is not set to a PostgreSQL URL", storetest.PostgresEnv)
	}
	const n = 1000
	ctx := context.Background()
	st, err := store.Open(ctx, storetest.PostgresURL(b))
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	storeRunning(b, st, n, epoch)
	clock := fakeclock.New(epoch)
	i := 0
	for b.Loop() {
		node := fmt.Sprint("n", i)
		i++
		m, err := startNew(ctx, Config{Store: st, Clock: clock, Node: &Node{Name: node, Lease: time.Minute, ClaimEvery: time.Minute}}, Hooks{})
		if err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		if got := m.Stats().Claims; got != n {
			b.Fatalf("got %d claims, want %d", got, n)
		}
		m.Close(ctx)
		if err := st.ReleaseLease(ctx, node); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
	}
	b.ReportMetric(float64(b.Elapsed().Milliseconds())/float64(b.N), "ms/takeover")
}

// TestDrainSingleServer: a single server has no peers, so Drain leaves its
// tables running, and Ready stays nil.
func TestDrainSingleServer(t *testing.T) {
	f := newFixture(t)
	id, _ := f.create(4, 0)
	if err := f.m.Drain(f.ctx); err != nil {
		t.Fatal(err)
	}
	if !f.m.Runs(id) || f.m.Ready() != nil {
		t.Errorf("after Drain on a single server: got Runs %v, Ready %v, want true and nil", f.m.Runs(id), f.m.Ready())
	}
}

// TestClusterOutOfMeshClaimsNothing: a node that says it is out of the mesh
// claims none of a lapsed node's games, and claims them once it is back in.
func TestClusterOutOfMeshClaimsNothing(t *testing.T) {
	url := needPostgres(t)
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
	var in atomic.Bool
	c := newCluster(t, url, 2, func(i int, cfg *Node, hooks *Hooks) {
		if i == 1 {
			hooks.InMesh = in.Load
		}
	})
	defer c.close()
	games := c.botGames(c.nodes[0], 2)
	c.nodes[0].frozen.Store(true)
	c.await("the first node's lease lapsing", 20*time.Second, func() bool {
		live, err := c.check.LiveNodes(c.ctx)
		if err != nil {
			t.Fatal(err)
		}
		return !slices.ContainsFunc(live, func(n store.LiveNode) bool { return n.ID == "n0" })
	})
	out := c.nodes[1]
	if err := out.m.claimOrphans(c.ctx); err != nil {
		t.Fatal(err)
	}
	for _, id := range games {
		if owner, _, _ := c.owner(id); owner != "n0" {
			t.Errorf("game %s out of the mesh: got owner %s, want n0 still", id, owner)
		}
	}
	in.Store(true)
	out.m.ClaimNow()
	c.await("the games claimed back in the mesh", 20*time.Second, func() bool {
		for _, id := range games {
			if owner, _, _ := c.owner(id); owner != out.name {
				return false
			}
		}
		return true
	})
}
