package live

import (
	"context"
	"encoding/json"
	"log/slog"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"bullshit/engine"
	"bullshit/errcode"
	"bullshit/game"
	"bullshit/internal/clocks/fakeclock"
	"bullshit/store"
)

var epoch = time.Date(2026, 1, 2, 15, 4, 5, 0, time.UTC)

// openStore opens a fresh SQLite store in the test's temp dir.
func openStore(t testing.TB) *store.Store {
	t.Helper()
	st, err := store.Open(context.Background(), filepath.Join(t.TempDir(), "games.db"))
	if err != nil {
		t.Fatalf("open store: %v", err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

// fixture is a Manager on a fake clock and a real store.
type fixture struct {
	t     testing.TB
	ctx   context.Context
	clock *fakeclock.Clock
	st    *store.Store
	m     *Manager
	pub   *recorder
	// log is the Managers' logger, discarding unless captureLogs keeps
	// it in logs.
	log  *slog.Logger
	logs *logLines
}

func newFixture(t testing.TB) *fixture {
	t.Helper()
	f := &fixture{t: t, ctx: context.Background(), clock: fakeclock.New(epoch), st: openStore(t), pub: newRecorder()}
	f.m = f.open(f.st)
	return f
}

// open starts a Manager on st, closed when the test ends.
func (f *fixture) open(st storage) *Manager {
	f.t.Helper()
	m, err := startManager(f.ctx, Config{Clock: f.clock, Logger: f.log}, st, Hooks{Publisher: f.pub})
	if err != nil {
		f.t.Fatalf("new manager: %v", err)
	}
	f.t.Cleanup(func() { m.Close(context.Background()) })
	return m
}

// create opens a table with bots in seats 1..bots and people joining after.
func (f *fixture) create(seats int, bots int, people ...string) (id string, tokens []string) {
	f.t.Helper()
	req := game.CreateRequest{Options: engine.Standard(seats), HostName: "Ada"}
	for range bots {
		req.Bots = append(req.Bots, game.BotSpec{Level: "medium", Style: "cautious"})
	}
	j, err := f.m.Create(f.ctx, req)
	if err != nil {
		f.t.Fatalf("create: %v", err)
	}
	tokens = append(tokens, j.Token)
	for _, name := range people {
		pj, err := f.m.Join(f.ctx, j.Game.ID, name, 0)
		if err != nil {
			f.t.Fatalf("join %s: %v", name, err)
		}
		tokens = append(tokens, pj.Token)
	}
	return j.Game.ID, tokens
}

// botGame starts a table played by bots alone: the host hands their seat
// over at the start.
func (f *fixture) botGame(seats int) string {
	f.t.Helper()
	id, _ := f.create(seats, seats-1)
	if err := f.m.Start(f.ctx, id, 0); err != nil {
		f.t.Fatalf("start: %v", err)
	}
	if err := f.m.HandToBot(f.ctx, id, 0, 0); err != nil {
		f.t.Fatalf("hand to bot: %v", err)
	}
	return id
}

// sync waits until the table has done everything due by the fake clock's
// time: a request runs only after the table has caught up.
func (f *fixture) sync(id string) {
	f.t.Helper()
	if _, err := f.m.do(f.ctx, id, func(*table) error { return nil }); err != nil {
		f.t.Fatalf("sync: %v", err)
	}
}

// step advances the clock and lets the table catch up.
func (f *fixture) step(id string, d time.Duration) {
	f.clock.Advance(d)
	f.sync(id)
}

func (f *fixture) view(id string, seat int) engine.View {
	f.t.Helper()
	v, err := f.m.View(f.ctx, id, seat)
	if err != nil {
		f.t.Fatalf("view %d: %v", seat, err)
	}
	return v
}

// views is every seat's view and the spectator's, as JSON.
func (f *fixture) views(m *Manager, id string) []string {
	f.t.Helper()
	v := f.view(id, engine.Spectator)
	var out []string
	for seat := -1; seat < len(v.Seats); seat++ {
		sv, err := m.View(f.ctx, id, seat)
		if err != nil {
			f.t.Fatalf("view %d: %v", seat, err)
		}
		b, err := json.Marshal(sv)
		if err != nil {
			f.t.Fatal(err)
		}
		out = append(out, string(b))
	}
	return out
}

func (f *fixture) status(id string) game.Status {
	f.t.Helper()
	s, err := f.m.Get(f.ctx, id)
	if err != nil {
		f.t.Fatalf("get: %v", err)
	}
	return s.Status
}

// playOut advances the clock until the game is over, failing past limit of
// game time.
func (f *fixture) playOut(id string, limit time.Duration) {
	f.t.Helper()
	for spent := time.Duration(0); f.status(id) == game.StatusLive; spent += 250 * time.Millisecond {
		if spent > limit {
			f.t.Fatalf("game %s still live after %v", id, limit)
		}
		f.clock.Advance(250 * time.Millisecond)
		if _, err := f.m.do(f.ctx, id, func(*table) error { return nil }); err != nil {
			f.t.Fatalf("sync: %v", err)
		}
	}
}

// recorder is a Publisher that keeps the latest frame and view of every
// seat, and every view the spectator was shown.
type recorder struct {
	mu     sync.Mutex
	frames map[string]map[int]game.Frame
	views  map[string]map[int]engine.View
	shown  map[string][]engine.View
	calls  map[string]int
	closed map[string]int
}

func newRecorder() *recorder {
	return &recorder{frames: map[string]map[int]game.Frame{}, views: map[string]map[int]engine.View{},
		shown: map[string][]engine.View{}, calls: map[string]int{}, closed: map[string]int{}}
}

func (r *recorder) Publish(id string, f game.Frame) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.frames[id] == nil {
		r.frames[id] = map[int]game.Frame{}
		r.views[id] = map[int]engine.View{}
	}
	r.frames[id][f.Seat] = f
	if f.View != nil {
		r.views[id][f.Seat] = *f.View
		if f.Seat == engine.Spectator {
			r.shown[id] = append(r.shown[id], *f.View)
		}
	}
	r.calls[id]++
}

func (r *recorder) Close(game string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.closed[game]++
}

// closedCount waits a while for the game's streams to be closed (the
// outbox closes them from its own goroutine) and says how often they were.
func (r *recorder) closedCount(game string) int {
	for range 500 {
		r.mu.Lock()
		n := r.closed[game]
		r.mu.Unlock()
		if n > 0 {
			return n
		}
		time.Sleep(2 * time.Millisecond)
	}
	return 0
}

// codeOf is the code of a refusal, whichever package refused it (live, the
// engine, names), as errcode reads it.
func codeOf(err error) string {
	if err == nil {
		return ""
	}
	if code, _, ok := errcode.Of(err); ok {
		return string(code)
	}
	return "other: " + err.Error()
}

// until advances the clock in small steps until ok holds, failing after
// limit of game time.
func (f *fixture) until(id string, limit time.Duration, ok func() bool) {
	f.t.Helper()
	for spent := time.Duration(0); !ok(); spent += 100 * time.Millisecond {
		if spent > limit {
			f.t.Fatalf("game %s: condition not met after %v", id, limit)
		}
		f.step(id, 100*time.Millisecond)
	}
}

func (f *fixture) seat(id string, seat int) game.SeatInfo {
	f.t.Helper()
	seats, err := f.m.Seats(f.ctx, id)
	if err != nil {
		f.t.Fatal(err)
	}
	return seats[seat]
}

func (f *fixture) actions(id string) int {
	f.t.Helper()
	a, err := f.st.Actions(f.ctx, id)
	if err != nil {
		f.t.Fatal(err)
	}
	return len(a)
}

// startManager makes a Manager on st, connects its hooks and starts it, as
// New, Connect and StartTables do.
func startManager(ctx context.Context, cfg Config, st storage, hooks Hooks) (*Manager, error) {
	m, err := newManager(ctx, cfg, st)
	if err != nil {
		return nil, err
	}
	m.Connect(hooks)
	if err := m.StartTables(); err != nil {
		return nil, err
	}
	return m, nil
}

// startNew is New, Connect and StartTables.
func startNew(ctx context.Context, cfg Config, hooks Hooks) (*Manager, error) {
	m, err := New(ctx, cfg)
	if err != nil {
		return nil, err
	}
	m.Connect(hooks)
	if err := m.StartTables(); err != nil {
		return nil, err
	}
	return m, nil
}
