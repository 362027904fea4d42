package live

import (
	"context"
	"fmt"
	"sync/atomic"
	"testing"
	"time"

	"go.uber.org/goleak"

	"bullshit/engine"
	"bullshit/errcode"
	"bullshit/game"
	"bullshit/internal/clocks"
	"bullshit/store"
)

// lapsingStore holds the next append of a person's move (seat 0) until its
// node's lease has lapsed, then commits it: the owner loses the table while
// the move's commit is in flight, yet the move is stored under an epoch
// still the game's.
type lapsingStore struct {
	*store.Store
	hold   atomic.Bool
	frozen *atomic.Bool
	lapsed func() bool
}

func (s *lapsingStore) AppendAction(ctx context.Context, a store.Action) error {
	return s.AppendActions(ctx, []store.Action{a})
}

func (s *lapsingStore) AppendActions(ctx context.Context, actions []store.Action) error {
	for _, a := range actions {
		if a.Action.Seat == 0 && a.Action.Kind != engine.ActResume && s.hold.CompareAndSwap(true, false) {
			s.frozen.Store(true)
			for !s.lapsed() {
				time.Sleep(5 * time.Millisecond)
			}
		}
	}
	return s.Store.AppendActions(ctx, actions)
}

// TestClusterMoveStoredAsTheLeaseLapsesIsNotAnsweredMoved: a move whose
// commit lands as its node's lease lapses is stored, so the answer must not
// be moved (which promises nothing was stored, and so that the same move may
// be made again): it says the outcome is unknown, and once the node takes
// its game back the view shows the move standing.
func TestClusterMoveStoredAsTheLeaseLapsesIsNotAnsweredMoved(t *testing.T) {
	url := needPostgres(t)
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
	c := &cluster{t: t, ctx: context.Background(), url: url}
	c.check = c.openStore()
	nd := &node{name: "n0", st: c.openStore()}
	c.nodes = []*node{nd}
	defer c.close()
	st := &lapsingStore{Store: nd.st, frozen: &nd.frozen}
	m, err := startManager(c.ctx, Config{Clock: clocks.Scaled{Speed: clusterSpeed},
		Node: &Node{Name: nd.name, Lease: clusterLease, ClaimEvery: clusterLease / 4, FreezeRenewal: nd.frozen.Load}}, st, Hooks{})
	if err != nil {
		t.Fatal(err)
	}
	nd.m = m
	st.lapsed = m.cl.lapsed

	j, err := m.Create(c.ctx, game.CreateRequest{Options: engine.Standard(4), HostName: "Ada", AwayAfter: 600 * time.Second,
		Bots: []game.BotSpec{{Level: "medium", Style: "cautious"}, {Level: "easy", Style: "bold"}, {Level: "medium", Style: "bold"}}})
	if err != nil {
		t.Fatal(err)
	}
	id := j.Game.ID
	if err := m.Start(c.ctx, id, 0); err != nil {
		t.Fatal(err)
	}
	var v engine.View
	c.await("the person's turn", 30*time.Second, func() bool {
		v, err = m.View(c.ctx, id, 0)
		return err == nil && v.Phase == engine.PhasePlay && v.Turn == 0
	})
	play, ok := v.Fallback()
	if !ok {
		t.Fatalf("no move for seat 0 in %+v", v)
	}
	n := len(c.actions(id))

	st.hold.Store(true)
	_, err = m.Act(c.ctx, id, play)
	stored := c.actions(id)
	if len(stored) <= n || stored[n].Action.Seat != 0 || stored[n].Action.No != play.No {
		t.Fatalf("got %+v after the log's %d actions, want the person's move the lapsing write committed", stored[n:], n)
	}
	if got, want := codeOf(err), string(errcode.Unknown); got != want {
		t.Fatalf("got %v (code %q) for a move stored as the lease lapsed, want code %q", err, got, want)
	}

	// Renewing again, the node takes its game back: the move stands.
	nd.frozen.Store(false)
	c.await("the game taken back", 20*time.Second, func() bool { return m.Runs(id) })
	after, err := m.View(c.ctx, id, 0)
	if err != nil {
		t.Fatal(err)
	}
	if after.Plays < play.No+1 {
		t.Errorf("got the view at play %d, want the stored play %d to stand", after.Plays, play.No+1)
	}
	if _, err := m.Act(c.ctx, id, play); codeOf(err) != string(engine.CodeStale) {
		t.Errorf("got %v for the move made again, want it refused as stale", err)
	}
}

// actions is game's stored log, read by the test's own connection.
func (c *cluster) actions(game string) []store.Action {
	c.t.Helper()
	a, err := c.check.Actions(c.ctx, game)
	if err != nil {
		c.t.Fatal(fmt.Errorf("reading the log of %s: %w", game, err))
	}
	return a
}
