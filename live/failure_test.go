package live

import (
	"context"
	"errors"
	"reflect"
	"runtime"
	"runtime/pprof"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"bullshit/engine"
	"bullshit/errcode"
	"bullshit/game"
	"bullshit/store"
)

// faulty is a store whose action writes fail while fail is set, or, while
// lost is set, are committed but answered with an error, as when the
// connection drops after the commit. While down is set every call the
// tables make fails, as when the store doesn't answer; cut makes the next
// write commit, answer with an error and take the store down with it, drop
// the same without the commit, and cutFinish cuts the next finish. steal
// stores another action in place of the next one appended, and answers
// with an error.
type faulty struct {
	*store.Store
	fail, lost, seats atomic.Bool // seats: seat saves fail
	down, cut, drop   atomic.Bool
	cutFinish, steal  atomic.Bool
}

var errDown = errors.New("connection refused")

// commit runs a write as the flags say: not at all while down, and, on a
// cut, committed but answered with an error.
func (s *faulty) commit(write func() error) error {
	if s.down.Load() {
		return errDown
	}
	if s.drop.CompareAndSwap(true, false) {
		s.down.Store(true)
		return errors.New("connection reset before the commit")
	}
	err := write()
	if err == nil && s.cut.CompareAndSwap(true, false) {
		s.down.Store(true)
		return errors.New("connection reset after the commit")
	}
	return err
}

func (s *faulty) SaveSeat(ctx context.Context, f store.Fence, seat store.Seat) error {
	if s.seats.Load() {
		return errors.New("disk full")
	}
	return s.commit(func() error { return s.Store.SaveSeat(ctx, f, seat) })
}

func (s *faulty) AppendAction(ctx context.Context, a store.Action) error {
	return s.AppendActions(ctx, []store.Action{a})
}

func (s *faulty) AppendActions(ctx context.Context, actions []store.Action) error {
	if s.fail.Load() {
		return errors.New("disk full")
	}
	if s.steal.CompareAndSwap(true, false) {
		other := slices.Clone(actions)
		other[0].At = other[0].At.Add(time.Millisecond)
		if err := s.Store.AppendActions(ctx, other); err != nil {
			return err
		}
		return errors.New("connection reset after the commit")
	}
	err := s.commit(func() error { return s.Store.AppendActions(ctx, actions) })
	if err == nil && s.lost.Load() {
		return errors.New("connection reset after the commit")
	}
	return err
}

func (s *faulty) StartGame(ctx context.Context, f store.Fence, id string, at time.Time, seats []store.Seat) error {
	return s.commit(func() error { return s.Store.StartGame(ctx, f, id, at, seats) })
}

func (s *faulty) FinishGame(ctx context.Context, f store.Fence, id string, status game.Status, at time.Time, plays int, capped bool, results []store.Result, rater *store.Rater) error {
	if s.cutFinish.CompareAndSwap(true, false) {
		s.cut.Store(true)
	}
	return s.commit(func() error { return s.Store.FinishGame(ctx, f, id, status, at, plays, capped, results, rater) })
}

func (s *faulty) read() error {
	if s.down.Load() {
		return errDown
	}
	return nil
}

func (s *faulty) Settle(ctx context.Context, a store.Action) (store.Outcome, store.Action, error) {
	if err := s.read(); err != nil {
		return 0, store.Action{}, err
	}
	return s.Store.Settle(ctx, a)
}

func (s *faulty) Actions(ctx context.Context, id string) ([]store.Action, error) {
	if err := s.read(); err != nil {
		return nil, err
	}
	return s.Store.Actions(ctx, id)
}

func (s *faulty) Game(ctx context.Context, id string) (*store.Game, []store.Seat, error) {
	if err := s.read(); err != nil {
		return nil, nil, err
	}
	return s.Store.Game(ctx, id)
}

func (s *faulty) GamePlayers(ctx context.Context, id string) ([]store.PlayerGame, error) {
	if err := s.read(); err != nil {
		return nil, err
	}
	return s.Store.GamePlayers(ctx, id)
}

func (s *faulty) MarkAlive(ctx context.Context, at time.Time) error {
	if err := s.read(); err != nil {
		return err
	}
	return s.Store.MarkAlive(ctx, at)
}

// faultyFixture is a fixture whose Manager writes through a faulty store.
func faultyFixture(t *testing.T) (*fixture, *faulty) {
	f := newFixture(t)
	st := &faulty{Store: f.st}
	f.m.Close(f.ctx)
	f.captureLogs()
	f.m = f.open(st)
	return f, st
}

// awaitTurn waits until it is the person's turn (seat 0) in personGame's
// table, after at least one play when played is set.
func (f *fixture) awaitTurn(id string, played bool) {
	f.until(id, 10*time.Minute, func() bool {
		v := f.view(id, 0)
		return v.Phase == engine.PhasePlay && v.Turn == 0 && (!played || v.Plays > 0)
	})
}

func TestWriteCommittedButAnsweredWithAnErrorStands(t *testing.T) {
	f, st := faultyFixture(t)
	id, _ := personGame(f)
	f.awaitTurn(id, true)
	n := f.actions(id)
	play, _ := f.view(id, 0).Fallback()

	st.lost.Store(true)
	if _, err := f.m.Act(f.ctx, id, play); err != nil {
		t.Fatalf("got %v for a move the store committed, want it accepted", err)
	}
	st.lost.Store(false)
	if got, want := f.actions(id), n+1; got != want {
		t.Errorf("got %d stored actions, want %d", got, want)
	}
	if v := f.view(id, 0); v.Plays != play.No+1 {
		t.Errorf("got the table at play %d, want the committed play %d to stand", v.Plays, play.No+1)
	}
	// The table is not wedged on a taken sequence number: play goes on.
	f.step(id, 5*time.Second)
	if got := f.actions(id); got < n+2 {
		t.Errorf("got %d stored actions, want the bots to move on past %d", got, n+1)
	}
}

func TestStoreFailureLeavesStateUnchanged(t *testing.T) {
	f, st := faultyFixture(t)
	id, _ := personGame(f)
	f.awaitTurn(id, true)
	n := f.actions(id)
	views := f.views(f.m, id)
	play, _ := f.view(id, 0).Fallback()

	st.fail.Store(true)
	_, err := f.m.Act(f.ctx, id, play)
	if got, want := codeOf(err), string(errcode.Unavailable); got != want {
		t.Fatalf("got code %q when the store fails, want %q", got, want)
	}
	if got := f.actions(id); got != n {
		t.Errorf("got %d stored actions, want %d", got, n)
	}
	if got := f.views(f.m, id); !slices.Equal(got, views) {
		t.Errorf("the views changed after a failed write:\ngot  %s\nwant %s", got[0], views[0])
	}

	// The play is accepted once the store works again, and the bots'
	// moves, held back while it failed, follow.
	st.fail.Store(false)
	if _, err := f.m.Act(f.ctx, id, play); err != nil {
		t.Fatalf("act after the store recovered: %v", err)
	}
	f.step(id, 5*time.Second)
	if got := f.actions(id); got < n+2 {
		t.Errorf("got %d stored actions, want at least %d", got, n+2)
	}
}

func TestBotMovesWaitForAFailingStore(t *testing.T) {
	f, st := faultyFixture(t)
	id := f.botGame(4)
	f.step(id, 30*time.Second)
	n := f.actions(id)
	st.fail.Store(true)
	f.step(id, 30*time.Second)
	if got := f.actions(id); got != n {
		t.Errorf("got %d stored actions while the store failed, want %d", got, n)
	}
	st.fail.Store(false)
	f.playOut(id, 3*time.Hour)
}

func TestRecoveryRebuildsTheSameGame(t *testing.T) {
	for _, after := range []time.Duration{0, 20 * time.Second, 95 * time.Second, 4 * time.Minute} {
		f := newFixture(t)
		bots := f.botGame(5)
		person, _ := personGame(f)
		open, _ := f.create(4, 1, "Bob")
		f.step(bots, after)
		f.sync(person)

		want := map[string][]string{bots: f.views(f.m, bots), person: f.views(f.m, person)}
		wantOpen, err := f.m.Get(f.ctx, open)
		if err != nil {
			t.Fatal(err)
		}
		if err := f.m.Close(f.ctx); err != nil {
			t.Fatal(err)
		}
		f.m = f.open(f.st)
		for id, views := range want {
			got := f.views(f.m, id)
			for i := range views {
				if got[i] != views[i] {
					t.Errorf("after %v: game %s seat %d rebuilt as\n%s\nwant\n%s", after, id, i-1, got[i], views[i])
				}
			}
		}
		gotOpen, err := f.m.Get(f.ctx, open)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(gotOpen, wantOpen) {
			t.Errorf("after %v: open game rebuilt with seats %+v, want %+v", after, gotOpen.Seats, wantOpen.Seats)
		}
		f.playOut(bots, 3*time.Hour)
		f.playOut(person, 3*time.Hour)
	}
}

func TestGoroutinesReturnToBaseline(t *testing.T) {
	f := newFixture(t)
	f.m.Close(f.ctx)
	base := runtime.NumGoroutine()
	f.m = f.open(f.st)
	var ids []string
	for i := range 16 {
		ids = append(ids, f.botGame(3+i%8))
	}
	f.create(5, 2) // an open table, never started
	for spent := time.Duration(0); ; spent += time.Second {
		if spent > 3*time.Hour {
			t.Fatal("the games did not end")
		}
		live := 0
		for _, id := range ids {
			if f.status(id) == game.StatusLive {
				live++
			}
		}
		if live == 0 {
			break
		}
		f.clock.Advance(time.Second)
		for _, id := range ids {
			if _, err := f.m.do(f.ctx, id, func(*table) error { return nil }); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := f.m.Close(f.ctx); err != nil {
		t.Fatal(err)
	}
	// A goroutine that has signalled its end may take a moment to exit
	// (its thread may be off the CPU), so look again for a while.
	got := runtime.NumGoroutine()
	for i := 0; i < 10000 && got > base; i++ {
		time.Sleep(time.Millisecond)
		got = runtime.NumGoroutine()
	}
	if got > base {
		var stacks strings.Builder
		pprof.Lookup("goroutine").WriteTo(&stacks, 1)
		t.Errorf("got %d goroutines after closing, want %d as before:\n%s", got, base, stacks.String())
	}
}

// stuck is a Publisher that blocks until released.
type stuck struct {
	release chan struct{}
	calls   atomic.Int64
}

func (s *stuck) Publish(string, game.Frame) {
	s.calls.Add(1)
	<-s.release
}

func (s *stuck) Close(string) {}

func TestBlockingPublisherDoesNotStallTheTable(t *testing.T) {
	f := newFixture(t)
	f.m.Close(f.ctx)
	pub := &stuck{release: make(chan struct{})}
	m, err := startManager(f.ctx, Config{Clock: f.clock}, f.st, Hooks{Publisher: pub})
	if err != nil {
		t.Fatal(err)
	}
	f.m = m
	id := f.botGame(4)
	f.playOut(id, 3*time.Hour)
	if got := pub.calls.Load(); got != 1 {
		t.Errorf("got %d calls of the stuck publisher, want 1", got)
	}

	// Close gives up while a Publisher call is stuck, and finishes once it
	// returns.
	cancelled, cancel := context.WithCancel(f.ctx)
	cancel()
	if err := m.Close(cancelled); err == nil {
		t.Errorf("got no error closing with a stuck publisher, want one")
	}
	close(pub.release)
	if err := m.Close(f.ctx); err != nil {
		t.Errorf("close after the publisher returned: %v", err)
	}
}

func TestEndsWithItsContext(t *testing.T) {
	f := newFixture(t)
	f.m.Close(f.ctx)
	base := runtime.NumGoroutine()
	ctx, cancel := context.WithCancel(f.ctx)
	m, err := startManager(ctx, Config{Clock: f.clock}, f.st, Hooks{Publisher: f.pub})
	if err != nil {
		t.Fatal(err)
	}
	f.m = m
	id := f.botGame(4)
	f.step(id, time.Minute)
	cancel()
	if _, err := m.View(f.ctx, id, 0); codeOf(err) != string(errcode.Unavailable) {
		t.Errorf("a view once the context ended: got %v, want unavailable", err)
	}
	if _, err := m.Create(f.ctx, game.CreateRequest{Options: engine.Standard(3), HostName: "Ada"}); codeOf(err) != string(errcode.Unavailable) {
		t.Errorf("a new table once the context ended: got %v, want unavailable", err)
	}
	// Close only waits now: everything ends with the context.
	if err := m.Close(f.ctx); err != nil {
		t.Fatal(err)
	}
	got := runtime.NumGoroutine()
	for i := 0; i < 10000 && got > base; i++ {
		time.Sleep(time.Millisecond)
		got = runtime.NumGoroutine()
	}
	if got > base {
		t.Errorf("got %d goroutines after the context ended, want %d as before", got, base)
	}
	if got := f.pub.closed[id]; got != 1 {
		t.Errorf("the publisher was told %d times the game closed, want once", got)
	}
}

// A seat a bot covered must reach the store even if saving it failed at the
// time, or a restart would bring it back as one to rate.
func TestCoveredSeatIsSavedAgainAfterAFailure(t *testing.T) {
	f, st := faultyFixture(t)
	id, _ := personGame(f)
	f.awaitTurn(id, false)
	st.seats.Store(true)
	f.until(id, DefaultAwayAfter+time.Second, func() bool { return f.seat(id, 0).Away })
	_, seats, err := f.st.Game(f.ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if seats[0].Covered {
		t.Fatalf("got the seat stored as covered while saves fail, want the failure to be real")
	}
	st.seats.Store(false)
	f.step(id, 10*time.Second) // the bots' next moves are stored, and the seat with them
	if _, seats, err = f.st.Game(f.ctx, id); err != nil || !seats[0].Covered || !seats[0].Away {
		t.Errorf("got stored seat %+v (%v), want it saved away and covered once the store works", seats[0], err)
	}
}
