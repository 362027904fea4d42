package live

import (
	"context"
	"testing"
	"time"

	"bullshit/engine"
	"bullshit/errcode"
	"bullshit/game"
)

// TestCapacityJudgesEachWindow feeds the judge windows of lateness and
// asks, after each, whether the node is full.
func TestCapacityJudgesEachWindow(t *testing.T) {
	const limit = 100 * time.Millisecond
	// A window's samples: how many, and how late each is.
	type window struct {
		n    int
		late func(i int) time.Duration
	}
	onTime := func(int) time.Duration { return 5 * time.Millisecond }
	// lateEvery makes one sample in every k over the limit.
	lateEvery := func(k int, by time.Duration) func(int) time.Duration {
		return func(i int) time.Duration {
			if i%k == 0 {
				return by
			}
			return time.Millisecond
		}
	}
	tests := []struct {
		name    string
		windows []window
		want    []bool // full after each window
	}{
		{"on time stays open", []window{{1000, onTime}, {1000, onTime}}, []bool{false, false}},
		{"one in a hundred late is still open", []window{{1000, lateEvery(100, time.Second)}}, []bool{false}},
		{"one in fifty late is full", []window{{1000, lateEvery(50, time.Second)}}, []bool{true}},
		{"two late samples on a quiet node are a pause, not full",
			[]window{{10, lateEvery(5, time.Second)}}, []bool{false}},
		{"late by less than the limit is open", []window{{1000, lateEvery(2, limit)}}, []bool{false}},
		{"full stays full while over half the limit",
			[]window{{1000, lateEvery(2, time.Second)}, {1000, lateEvery(10, limit*3/4)}, {1000, onTime}},
			[]bool{true, true, false}},
		{"an empty window is on time", []window{{1000, lateEvery(2, time.Second)}, {0, nil}}, []bool{true, false}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := newCapacity(limit)
			now := epoch
			c.isFull(now)
			for w, win := range tt.windows {
				for i := range win.n {
					c.record(now.Add(CapacityWindow*time.Duration(i)/time.Duration(win.n+1)), win.late(i))
				}
				now = now.Add(CapacityWindow)
				if got := c.isFull(now); got != tt.want[w] {
					t.Errorf("after window %d: got full %v, want %v", w+1, got, tt.want[w])
				}
			}
		})
	}
}

func TestANegativeLimitNeverFills(t *testing.T) {
	c := newCapacity(-1)
	for i := range 1000 {
		c.record(epoch.Add(time.Duration(i)*time.Millisecond*20), time.Hour)
	}
	if c.isFull(epoch.Add(time.Hour)) {
		t.Errorf("got full, want never full")
	}
}

// TestAFullNodeRefusesNewTablesAndKeepsItsOwn runs bot tables whose clock
// jumps by more than the node's limit, so every table wakes late, as at a
// node with more tables than it can serve: the node says it is full,
// refuses a new table and a join with a wait, counts them, and its tables
// play on; once its tables keep time for a whole window it takes new ones.
func TestAFullNodeRefusesNewTablesAndKeepsItsOwn(t *testing.T) {
	const limit = 100 * time.Millisecond
	f := newFixture(t)
	f.m.Close(f.ctx)
	m, err := startManager(f.ctx, Config{Clock: f.clock, MaxLateness: limit}, f.st, Hooks{Publisher: f.pub})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { m.Close(context.Background()) })
	f.m = m
	tables := []string{f.botGame(4), f.botGame(5), f.botGame(6)}
	waiting, _ := f.create(4, 0)
	stepAll := func(d time.Duration, n int) {
		for range n {
			f.clock.Advance(d)
			for _, id := range tables {
				f.sync(id)
			}
		}
	}
	actions := func() (n int) {
		for _, id := range tables {
			n += f.actions(id)
		}
		return n
	}

	stepAll(2*time.Second, 5)
	if err := m.Capacity(); err == nil {
		t.Fatalf("after a clock that jumps 20 times the limit: got ready, want full")
	}
	before := actions()
	_, createErr := m.Create(f.ctx, game.CreateRequest{Options: engine.Standard(4), HostName: "Bea", FillBots: true})
	_, joinErr := m.Join(f.ctx, waiting, "Cal", 0)
	for what, err := range map[string]error{"a new table": createErr, "a join": joinErr} {
		if got := codeOf(err); got != string(errcode.Busy) {
			t.Errorf("%s at a full node: got %q (%v), want busy", what, got, err)
		}
		if got, want := errcode.RetryAfter(err), int(CapacityWindow/time.Second); got != want {
			t.Errorf("%s at a full node: got Retry-After %d s, want %d s", what, got, want)
		}
	}
	if s := m.Stats(); !s.Full || s.RefusedFull != 2 {
		t.Errorf("stats: got full %v and %d refused, want full and 2 refused", s.Full, s.RefusedFull)
	}
	stepAll(2*time.Second, 2)
	if after := actions(); after <= before {
		t.Errorf("the running tables while full: got %d actions, then %d, want more", before, after)
	}

	// On time, a step well inside half the limit, for two whole windows.
	stepAll(10*time.Millisecond, int(2*CapacityWindow/(10*time.Millisecond)))
	if err := m.Capacity(); err != nil {
		t.Fatalf("after two windows on time: got %v, want ready", err)
	}
	if _, err := m.Create(f.ctx, game.CreateRequest{Options: engine.Standard(4), HostName: "Bea", FillBots: true}); err != nil {
		t.Errorf("a new table once on time: got %v, want it opened", err)
	}
	if _, err := m.Join(f.ctx, waiting, "Cal", 0); err != nil {
		t.Errorf("a join once on time: got %v, want a seat", err)
	}
	if got := m.Stats().RefusedFull; got != 2 {
		t.Errorf("refusals counted: got %d, want 2", got)
	}
}
