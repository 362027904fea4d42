package live

import (
	"bytes"
	"context"
	"log/slog"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"bullshit/engine"
	"bullshit/errcode"
	"bullshit/game"
	"bullshit/store"
)

// panicky is a store that panics on the action writes or reads of one game,
// once told which. It embeds the storage interface, not *store.Store, so it
// has no batch writes: a table writes its actions on its own goroutine.
type panicky struct {
	storage
	writes, reads atomic.Pointer[string]
}

func (s *panicky) AppendAction(ctx context.Context, a store.Action) error {
	if p := s.writes.Load(); p != nil && *p == a.GameID {
		panic("an injected fault writing an action")
	}
	return s.storage.AppendAction(ctx, a)
}

func (s *panicky) Actions(ctx context.Context, id string) ([]store.Action, error) {
	if p := s.reads.Load(); p != nil && *p == id {
		panic("an injected fault reading the actions")
	}
	return s.storage.Actions(ctx, id)
}

// panickyPub is a Publisher that panics on one game's views, once told which.
type panickyPub struct {
	*recorder
	game atomic.Pointer[string]
}

func (p *panickyPub) Publish(game string, f game.Frame) {
	if g := p.game.Load(); g != nil && *g == game {
		panic("an injected fault publishing a view")
	}
	p.recorder.Publish(game, f)
}

// logBuffer is a log that tests can read while tables write to it.
type logBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *logBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *logBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// openWith starts a Manager on st with pub, logging to log, in place of the
// fixture's.
func (f *fixture) openWith(st storage, pub game.Publisher, log *logBuffer) *Manager {
	f.t.Helper()
	m, err := startManager(f.ctx, Config{Clock: f.clock, Logger: slog.New(slog.NewTextHandler(log, nil))}, st, Hooks{Publisher: pub})
	if err != nil {
		f.t.Fatalf("new manager: %v", err)
	}
	f.t.Cleanup(func() { m.Close(context.Background()) })
	return m
}

// storedStatus is a game's status as the store has it.
func (f *fixture) storedStatus(id string) game.Status {
	f.t.Helper()
	g, _, err := f.st.Game(f.ctx, id)
	if err != nil {
		f.t.Fatal(err)
	}
	return g.Status
}

// checkBroken checks that a broken game says so to every request, and that
// its log and stored status are as they were.
func (f *fixture) checkBroken(id, token string, actions int) {
	f.t.Helper()
	if got := f.status(id); got != game.StatusBroken {
		f.t.Errorf("got status %s, want broken", got)
	}
	ctx := game.WithToken(f.ctx, token)
	refusals := []struct {
		name string
		err  error
	}{
		{"view", func() error { _, err := f.m.View(ctx, id, 0); return err }()},
		{"log", func() error { _, err := f.m.Log(ctx, id, engine.Spectator); return err }()},
		{"move", func() error { _, err := f.m.Act(ctx, id, engine.Action{Kind: engine.ActCall, Seat: 0}); return err }()},
		{"join", func() error { _, err := f.m.Join(ctx, id, "Eve", 0); return err }()},
		{"end", f.m.End(ctx, id, 0)},
	}
	for _, r := range refusals {
		if got := codeOf(r.err); got != string(errcode.Broken) {
			f.t.Errorf("%s: got %q (%v), want broken", r.name, got, r.err)
		}
	}
	if seat, err := f.m.Authenticate(f.ctx, id, token); err != nil || seat != 0 {
		f.t.Errorf("the host's token: got seat %d, %v, want seat 0 still known", seat, err)
	}
	if got := f.actions(id); got != actions {
		f.t.Errorf("got %d stored actions, want the %d there were", got, actions)
	}
	if got := f.storedStatus(id); got != game.StatusLive {
		f.t.Errorf("got stored status %s, want live as it was", got)
	}
}

// await advances the clock in steps, keeping the other table id served,
// until ok holds.
func (f *fixture) await(id string, ok func() bool) {
	f.t.Helper()
	for range 2000 {
		if ok() {
			return
		}
		f.step(id, 100*time.Millisecond)
	}
	f.t.Fatal("condition not met after 200 s of game time")
}

func TestAFaultStopsOnlyItsTable(t *testing.T) {
	tests := []struct {
		name string
		// fault makes game id fail; it returns once the fault is raised
		// or armed.
		fault func(f *fixture, st *panicky, pub *panickyPub, id string)
	}{
		{"a request", func(f *fixture, _ *panicky, _ *panickyPub, id string) {
			_, err := f.m.do(f.ctx, id, func(*table) error { panic("an injected fault serving a request") })
			if got := codeOf(err); got != string(errcode.Broken) {
				f.t.Errorf("the request that panicked: got %q (%v), want broken", got, err)
			}
		}},
		{"a bot's move", func(_ *fixture, st *panicky, _ *panickyPub, id string) { st.writes.Store(&id) }},
		{"the publisher", func(_ *fixture, _ *panicky, pub *panickyPub, id string) { pub.game.Store(&id) }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t)
			f.m.Close(f.ctx)
			st, pub, log := &panicky{storage: f.st}, &panickyPub{recorder: f.pub}, &logBuffer{}
			f.m = f.openWith(st, pub, log)

			good := f.botGame(4)
			// The game to break: a person plays in it, to ask with a token.
			host, err := f.m.Create(f.ctx, game.CreateRequest{Options: engine.Standard(3), HostName: "Ann", FillBots: true})
			if err != nil {
				t.Fatal(err)
			}
			bad := host.Game.ID
			if err := f.m.Start(f.ctx, bad, 0); err != nil {
				t.Fatal(err)
			}
			f.step(good, 20*time.Second)
			f.sync(bad)

			tt.fault(f, st, pub, bad)
			f.await(good, func() bool { return f.status(bad) == game.StatusBroken })
			n := f.actions(bad)
			f.step(good, time.Minute)
			f.checkBroken(bad, host.Token, n)

			logged := log.String()
			if !strings.Contains(logged, "game="+bad) || !strings.Contains(logged, "injected fault") || !strings.Contains(logged, "guard_test.go") {
				t.Errorf("the log doesn't name the game, the panic and its stack:\n%s", logged)
			}
			pub.mu.Lock()
			closed := pub.closed[bad]
			pub.mu.Unlock()
			if closed != 1 {
				t.Errorf("the broken game's streams were closed %d times, want once", closed)
			}
			// Every other table plays on.
			f.playOut(good, 3*time.Hour)
			if got := f.status(good); got != game.StatusFinished {
				t.Errorf("the other game: got %s, want finished", got)
			}
		})
	}
}

func TestAGameWhoseReplayPanicsIsStoppedAtTheStart(t *testing.T) {
	f := newFixture(t)
	good := f.botGame(4)
	j, err := f.m.Create(f.ctx, game.CreateRequest{Options: engine.Standard(3), HostName: "Ann", FillBots: true})
	if err != nil {
		t.Fatal(err)
	}
	bad := j.Game.ID
	if err := f.m.Start(f.ctx, bad, 0); err != nil {
		t.Fatal(err)
	}
	f.step(good, 30*time.Second)
	f.sync(bad)
	if err := f.m.Close(f.ctx); err != nil {
		t.Fatal(err)
	}
	n := f.actions(bad)

	st, log := &panicky{storage: f.st}, &logBuffer{}
	st.reads.Store(&bad)
	f.m = f.openWith(st, f.pub, log)
	f.checkBroken(bad, j.Token, n)
	if logged := log.String(); !strings.Contains(logged, "game="+bad) || !strings.Contains(logged, "guard_test.go") {
		t.Errorf("the log doesn't name the game and the panic's stack:\n%s", logged)
	}
	f.playOut(good, 3*time.Hour)

	// Without the fault the game comes back as it was and plays on.
	f.m.Close(f.ctx)
	f.m = f.open(f.st)
	if got := f.status(bad); got != game.StatusLive {
		t.Fatalf("after a start without the fault: got %s, want live", got)
	}
	f.playOut(bad, 3*time.Hour)
}

// batchPanicky is a store whose writes of one game's actions panic, in a
// batch or alone.
type batchPanicky struct {
	*store.Store
	game atomic.Pointer[string]
}

func (s *batchPanicky) bad(actions []store.Action) bool {
	g := s.game.Load()
	for _, a := range actions {
		if g != nil && *g == a.GameID {
			return true
		}
	}
	return false
}

func (s *batchPanicky) AppendAction(ctx context.Context, a store.Action) error {
	return s.AppendActions(ctx, []store.Action{a})
}

func (s *batchPanicky) AppendActions(ctx context.Context, actions []store.Action) error {
	if s.bad(actions) {
		panic("an injected fault in the store")
	}
	return s.Store.AppendActions(ctx, actions)
}

// TestAStorePanicFailsOnlyThatWrite checks the group commit turns a panic of
// the store into a failed write of that action alone: its table tries again
// later, and the others' actions are stored.
func TestAStorePanicFailsOnlyThatWrite(t *testing.T) {
	f := newFixture(t)
	f.m.Close(f.ctx)
	st := &batchPanicky{Store: f.st}
	f.m = f.open(st)
	good, bad := f.botGame(4), f.botGame(4)
	st.game.Store(&bad)
	n := f.actions(bad)
	f.playOut(good, 3*time.Hour)
	f.sync(bad)
	if got := f.actions(bad); got != n {
		t.Errorf("got %d stored actions of the failing game, want %d", got, n)
	}
	st.game.Store(nil)
	f.playOut(bad, 3*time.Hour)
}
