package live

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"bullshit/engine"
	"bullshit/game"
	"bullshit/internal/clocks"
	"bullshit/store"
	"bullshit/store/storetest"
)

// The in-process cluster: nodes on one PostgreSQL schema, each with its own
// store (its own connections, as separate processes have), a short lease and
// one scaled clock, so that bot games take seconds.

const (
	clusterLease = 600 * time.Millisecond
	clusterSpeed = 40
)

// node is one Manager of an in-process cluster.
type node struct {
	name   string
	st     *store.Store
	m      *Manager
	frozen atomic.Bool
	closed bool
}

// cluster is the nodes of one test and the schema they share.
type cluster struct {
	t     *testing.T
	ctx   context.Context
	url   string
	nodes []*node
	// check reads the store directly, as the test's own connection.
	check *store.Store
}

// newCluster starts n nodes; configure may change each node's Cluster and
// hooks.
func newCluster(t *testing.T, url string, n int, configure func(i int, c *Node, h *Hooks)) *cluster {
	t.Helper()
	c := &cluster{t: t, ctx: context.Background(), url: url}
	c.check = c.openStore()
	for i := range n {
		nd := &node{name: fmt.Sprint("n", i)}
		nd.st = c.openStore()
		cfg := Node{Name: nd.name, Lease: clusterLease, ClaimEvery: clusterLease / 4, FreezeRenewal: nd.frozen.Load}
		var hooks Hooks
		if configure != nil {
			configure(i, &cfg, &hooks)
		}
		m, err := startNew(c.ctx, Config{Store: nd.st, Clock: clocks.Scaled{Speed: clusterSpeed}, Node: &cfg}, hooks)
		if err != nil {
			t.Fatalf("node %s: %v", nd.name, err)
		}
		nd.m = m
		c.nodes = append(c.nodes, nd)
	}
	return c
}

func (c *cluster) openStore() *store.Store {
	c.t.Helper()
	st, err := store.Open(c.ctx, c.url)
	if err != nil {
		c.t.Fatal(err)
	}
	return st
}

// close stops every node and closes the stores, so the test can check no
// goroutine is left.
func (c *cluster) close() {
	for _, nd := range c.nodes {
		if !nd.closed {
			if err := nd.m.Close(c.ctx); err != nil {
				c.t.Error(err)
			}
		}
		nd.st.Close()
	}
	c.check.Close()
}

// botGames opens n bot tables on nd and starts them.
func (c *cluster) botGames(nd *node, n int) []string {
	c.t.Helper()
	var ids []string
	for range n {
		j, err := nd.m.Create(c.ctx, game.CreateRequest{Options: engine.Standard(4), HostName: "Ada",
			Bots: []game.BotSpec{{Level: "medium", Style: "cautious"}, {Level: "easy", Style: "bold"}, {Level: "medium", Style: "bold"}}})
		if err != nil {
			c.t.Fatalf("create on %s: %v", nd.name, err)
		}
		id := j.Game.ID
		if err := nd.m.Start(c.ctx, id, 0); err != nil {
			c.t.Fatalf("start: %v", err)
		}
		if err := nd.m.HandToBot(c.ctx, id, 0, 0); err != nil {
			c.t.Fatalf("hand to bot: %v", err)
		}
		ids = append(ids, id)
	}
	return ids
}

// await waits for ok, failing after limit of wall time.
func (c *cluster) await(what string, limit time.Duration, ok func() bool) {
	c.t.Helper()
	for deadline := time.Now().Add(limit); !ok(); time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			c.t.Fatalf("%s: not after %v", what, limit)
		}
	}
}

// owner is game id's owner, epoch and status as stored.
func (c *cluster) owner(id string) (string, int64, game.Status) {
	c.t.Helper()
	owner, epoch, status, err := c.check.Owner(c.ctx, id)
	if err != nil {
		c.t.Fatal(err)
	}
	return owner, epoch, status
}

// watchEpochs samples every game's stored epoch until stop is closed and
// reports any that went back.
func (c *cluster) watchEpochs(games []string, stop <-chan struct{}) *sync.WaitGroup {
	var wg sync.WaitGroup
	wg.Go(func() {
		last := map[string]int64{}
		for {
			for _, g := range games {
				_, epoch, _, err := c.check.Owner(c.ctx, g)
				if err != nil {
					c.t.Error(err)
					return
				}
				if epoch < last[g] {
					c.t.Errorf("game %s: epoch went back from %d to %d", g, last[g], epoch)
				}
				last[g] = epoch
			}
			select {
			case <-stop:
				return
			case <-time.After(20 * time.Millisecond):
			}
		}
	})
	return &wg
}

// checkStored checks a finished game's log: numbered 1, 2, 3... without a
// gap, and replayed through the engine to the stored results.
func (c *cluster) checkStored(m *Manager, game string) {
	c.t.Helper()
	actions, err := c.check.Actions(c.ctx, game)
	if err != nil {
		c.t.Fatal(err)
	}
	for i, a := range actions {
		if a.Seq != i+1 {
			c.t.Fatalf("game %s: action %d has number %d", game, i+1, a.Seq)
		}
	}
	s, err := m.replayed(c.ctx, game)
	if err != nil {
		c.t.Fatalf("game %s: replay: %v", game, err)
	}
	stored, err := c.check.Results(c.ctx, game)
	if err != nil {
		c.t.Fatal(err)
	}
	var got, want []engine.Place
	for _, r := range stored {
		got = append(got, engine.Place{Seat: r.Seat, Place: r.Place, Left: r.Left})
	}
	want = append(want, s.Result()...)
	order := func(a, b engine.Place) int { return a.Seat - b.Seat }
	slices.SortFunc(got, order)
	slices.SortFunc(want, order)
	if !slices.Equal(got, want) {
		c.t.Errorf("game %s: stored results %v, replayed %v", game, got, want)
	}
}

func needPostgres(t *testing.T) string {
	t.Helper()
	if !storetest.HavePostgres() {
		t.Skipf("%s is not set to a PostgreSQL URL", storetest.PostgresEnv)
	}
	return storetest.PostgresURL(t)
}
