package live

import (
	"context"
	"fmt"
	neturl "net/url"
	"sync"
	"testing"
	"time"

	"go.uber.org/goleak"

	"bullshit/engine"
	"bullshit/errcode"
	"bullshit/game"
	"bullshit/internal/clocks"
	"bullshit/store/storetest"
)

// TestClusterFailover: three nodes play bot tables. n0 stops renewing its
// lease and, like a paused process, doesn't notice: peers claim its games
// at a higher epoch once its lease runs out, and every write it then tries
// is refused by the fence. n1 stops renewing too but notices: it stops its
// tables before its lease can run out, and the last node takes them. Every
// game finishes, its log without a gap and replayed to its stored results,
// and no stored epoch ever goes back.
func TestClusterFailover(t *testing.T) {
	url := needPostgres(t)
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
	c := newCluster(t, url, 3, func(i int, cfg *Node, hooks *Hooks) { cfg.IgnoreDeadline = i == 0 })
	defer c.close()
	var games []string
	mine := make([][]string, 3)
	for i, nd := range c.nodes {
		mine[i] = c.botGames(nd, 3)
		games = append(games, mine[i]...)
	}
	stop := make(chan struct{})
	watching := c.watchEpochs(games, stop)
	defer func() {
		close(stop)
		watching.Wait()
	}()
	played := func(ids []string) func() bool {
		return func() bool {
			for _, id := range ids {
				if a, err := c.check.Actions(c.ctx, id); err != nil || len(a) < 5 {
					return false
				}
			}
			return true
		}
	}
	c.await("a few moves on every table", 30*time.Second, played(games))

	// n0 freezes, not noticing: the fence alone stops it.
	n0 := c.nodes[0]
	n0.frozen.Store(true)
	frozeAt := time.Now()
	movedFrom := func(nd *node, ids []string) func() bool {
		return func() bool {
			for _, id := range ids {
				if owner, _, status := c.owner(id); status == "live" && owner == nd.name {
					return false
				}
			}
			return true
		}
	}
	c.await("n0's games claimed by its peers", 20*time.Second, movedFrom(n0, mine[0]))
	t.Logf("n0's games claimed %v after it froze (lease %v)", time.Since(frozeAt).Round(time.Millisecond), clusterLease)
	for _, id := range mine[0] {
		if owner, epoch, status := c.owner(id); status == "live" && epoch < 2 {
			t.Errorf("game %s: claimed by %s at epoch %d, want 2 or more", id, owner, epoch)
		}
	}
	c.await("n0's tables fenced", 20*time.Second, func() bool {
		for _, id := range mine[0] {
			if n0.m.Runs(id) {
				return false
			}
		}
		return true
	})
	if got := n0.m.Stats().Fenced; got == 0 {
		t.Errorf("n0's writes refused by the fence: got %d, want some", got)
	}

	// n1 freezes and notices: it stops its tables before its lease ends.
	n1 := c.nodes[1]
	n1.frozen.Store(true)
	frozeAt = time.Now()
	c.await("n1 stopping its tables", 20*time.Second, func() bool {
		for _, id := range games {
			if n1.m.Runs(id) {
				return false
			}
		}
		return n1.m.Ready() != nil
	})
	if got := n1.m.Stats().LateRenewals; got == 0 {
		t.Errorf("n1's late renewals: got %d, want some", got)
	}
	c.await("every game on n2", 20*time.Second, movedFrom(n1, games))
	t.Logf("n1's games claimed %v after it froze", time.Since(frozeAt).Round(time.Millisecond))

	n2 := c.nodes[2]
	c.await("every game finished", 3*time.Minute, func() bool {
		for _, id := range games {
			if _, _, status := c.owner(id); status != "finished" {
				return false
			}
		}
		return true
	})
	for _, id := range games {
		c.checkStored(n2.m, id)
	}
	for _, nd := range c.nodes {
		s := nd.m.Stats()
		t.Logf("node %s: %d actions, %d claims, %d fenced, %d late renewals", nd.name, s.Actions, s.Claims, s.Fenced, s.LateRenewals)
	}
	if got := n2.m.Stats().Claims; got == 0 {
		t.Errorf("n2's claims: got %d, want some", got)
	}
	if n2.m.Ready() != nil {
		t.Errorf("n2 Ready: got %v, want nil", n2.m.Ready())
	}
}

// TestClusterDrain: a node draining hands its tables to a peer at once,
// long before its lease would have run out, and they play on there.
func TestClusterDrain(t *testing.T) {
	url := needPostgres(t)
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
	var mu sync.Mutex
	watched := []map[string]bool{{}, {}}
	c := newCluster(t, url, 2, func(i int, cfg *Node, hooks *Hooks) {
		cfg.Lease, cfg.ClaimEvery = time.Minute, time.Minute
		hooks.Watch = func(game string, running bool) {
			mu.Lock()
			defer mu.Unlock()
			watched[i][game] = running
		}
	})
	defer c.close()
	from, to := c.nodes[0], c.nodes[1]
	games := c.botGames(from, 3)
	drained := time.Now()
	if err := from.m.Drain(c.ctx); err != nil {
		t.Fatal(err)
	}
	for _, id := range games {
		if from.m.Runs(id) {
			t.Errorf("game %s: still run by the drained node", id)
		}
		mu.Lock()
		if running, ok := watched[0][id]; !ok || running {
			t.Errorf("game %s: the drained node's Watch last said running %v (told %v), want false", id, running, ok)
		}
		mu.Unlock()
	}
	if err := from.m.Ready(); err == nil {
		t.Errorf("Ready of the drained node: got nil, want an error")
	}
	if _, err := from.m.Create(c.ctx, game.CreateRequest{Options: engine.Standard(3), HostName: "Bo"}); codeOf(err) != string(errcode.Unavailable) {
		t.Errorf("create on the drained node: got %v, want %s", err, errcode.Unavailable)
	}
	to.m.ClaimNow()
	c.await("the peer running every table", 15*time.Second, func() bool {
		for _, id := range games {
			if !to.m.Runs(id) {
				return false
			}
		}
		return true
	})
	t.Logf("the peer ran every table %v after the drain began (lease %v)", time.Since(drained).Round(time.Millisecond), time.Minute)
	before := make(map[string]int)
	for _, id := range games {
		mu.Lock()
		if !watched[1][id] {
			t.Errorf("game %s: the peer's Watch was not told it runs", id)
		}
		mu.Unlock()
		a, _ := c.check.Actions(c.ctx, id)
		before[id] = len(a)
		if owner, epoch, _ := c.owner(id); owner != to.name || epoch != 2 {
			t.Errorf("game %s: got owner %s epoch %d, want %s at 2", id, owner, epoch, to.name)
		}
	}
	c.await("the tables playing on at the peer", 30*time.Second, func() bool {
		for _, id := range games {
			if a, _ := c.check.Actions(c.ctx, id); len(a) <= before[id]+1 {
				return false
			}
		}
		return true
	})
	// A move asked of the drained node is answered "moved".
	if _, err := from.m.Act(c.ctx, games[0], engine.Action{Kind: engine.ActPass, Seat: 1}); codeOf(err) != string(errcode.Moved) {
		t.Errorf("a move asked of the drained node: got %v, want %s", err, errcode.Moved)
	}
	if node, status, err := from.m.Owner(c.ctx, games[0]); err != nil || node != to.name || status != game.StatusLive {
		t.Errorf("Owner asked of the drained node: got %q %q %v, want %s live", node, status, err, to.name)
	}
	if _, _, err := from.m.Owner(c.ctx, "nope"); codeOf(err) != string(errcode.NotFound) {
		t.Errorf("Owner of no game: got %v, want %s", err, errcode.NotFound)
	}
	f, err := to.m.Frame(c.ctx, games[0], engine.Spectator)
	if err != nil || f.Epoch != 2 {
		t.Errorf("the peer's frame: got epoch %d (%v), want 2", f.Epoch, err)
	}
	if got := to.m.Stats().Claims; got != int64(len(games)) {
		t.Errorf("the peer's claims: got %d, want %d", got, len(games))
	}
}

// TestClusterCutOff: a node whose database connection is cut stops its
// tables before its lease can run out (it can't renew), and a peer takes
// them once it has; they finish there.
func TestClusterCutOff(t *testing.T) {
	direct := needPostgres(t)
	u, err := neturl.Parse(direct)
	if err != nil {
		t.Fatal(err)
	}
	proxy := storetest.NewProxy(t, u.Host)
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
	c := &cluster{t: t, ctx: context.Background(), url: direct}
	c.check = c.openStore()
	for i, url := range []string{proxy.URL(direct), direct} {
		nd := &node{name: fmt.Sprint("n", i)}
		c.url = url
		nd.st = c.openStore()
		m, err := startNew(c.ctx, Config{Store: nd.st, Clock: clocks.Scaled{Speed: clusterSpeed},
			Node: &Node{Name: nd.name, Lease: clusterLease, ClaimEvery: clusterLease / 4}}, Hooks{})
		if err != nil {
			t.Fatal(err)
		}
		nd.m = m
		c.nodes = append(c.nodes, nd)
	}
	defer c.close()
	cut, peer := c.nodes[0], c.nodes[1]
	games := c.botGames(cut, 3)
	c.await("a few moves on every table", 30*time.Second, func() bool {
		for _, id := range games {
			if a, err := c.check.Actions(c.ctx, id); err != nil || len(a) < 5 {
				return false
			}
		}
		return true
	})
	proxy.Cut()
	c.await("the cut node stopping its tables", 20*time.Second, func() bool {
		for _, id := range games {
			if cut.m.Runs(id) {
				return false
			}
		}
		return cut.m.Ready() != nil
	})
	c.await("the peer running every table", 20*time.Second, func() bool {
		for _, id := range games {
			if owner, _, status := c.owner(id); status == "live" && owner != peer.name {
				return false
			}
		}
		return true
	})
	proxy.Restore()
	c.await("every game finished", 3*time.Minute, func() bool {
		for _, id := range games {
			if _, _, status := c.owner(id); status != "finished" {
				return false
			}
		}
		return true
	})
	for _, id := range games {
		c.checkStored(peer.m, id)
	}
	if got := cut.m.Stats().Fenced; got != 0 {
		t.Errorf("the cut node's writes refused by the fence: got %d, want none (it stopped first)", got)
	}
}
