package live

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"bullshit/engine"
	"bullshit/errcode"
	"bullshit/game"
	"bullshit/store"
)

// outage is how long the server is down in these tests: far longer than a
// table's away time.
const outage = 5 * time.Minute

// crashing is a store that stops taking the server's alive mark once the
// server has "crashed", so the mark left is the last one written while it
// ran, not the one a clean stop writes.
type crashing struct {
	*store.Store
	crashed atomic.Bool
}

func (s *crashing) MarkAlive(ctx context.Context, at time.Time) error {
	if s.crashed.Load() {
		return errors.New("the server has crashed")
	}
	return s.Store.MarkAlive(ctx, at)
}

// crashingFixture is a fixture whose Manager marks itself alive through a
// crashing store.
func crashingFixture(t *testing.T) (*fixture, *crashing) {
	f := newFixture(t)
	st := &crashing{Store: f.st}
	f.m.Close(f.ctx)
	f.m = f.open(st)
	return f, st
}

// restart stops the server (cleanly, or as a crash when st is given), lets
// down pass, starts it again on the same store, and waits for table id to
// have done what is due.
func (f *fixture) restart(id string, st *crashing, down time.Duration) {
	f.t.Helper()
	if st != nil {
		st.crashed.Store(true)
	}
	if err := f.m.Close(f.ctx); err != nil {
		f.t.Fatal(err)
	}
	f.clock.Advance(down)
	f.m = f.open(f.st)
	f.sync(id)
}

// markedAlive waits, stepping the clock, until the server's alive mark is
// within aliveEvery of the clock: the mark is written on a goroutine of its
// own, which a fake clock running far faster than real time leaves behind.
func (f *fixture) markedAlive(id string) {
	f.t.Helper()
	for range 1000 {
		mark, err := f.st.Alive(f.ctx)
		if err != nil {
			f.t.Fatal(err)
		}
		if !mark.Before(f.clock.Now().Add(-aliveEvery)) {
			return
		}
		f.step(id, 100*time.Millisecond)
		time.Sleep(5 * time.Millisecond)
	}
	f.t.Fatal("the server never marked itself alive")
}

// resumed is the game's last resumed line.
func (f *fixture) resumed(id string) engine.Event {
	f.t.Helper()
	log, err := f.m.Log(f.ctx, id, engine.Spectator)
	if err != nil {
		f.t.Fatal(err)
	}
	for _, e := range slices.Backward(log) {
		if e.Kind == engine.EventResumed {
			return e
		}
	}
	f.t.Fatalf("no resumed line in the log %+v", log)
	return engine.Event{}
}

// decidingSince is when seat's current decision started, by the table.
func (f *fixture) decidingSince(id string, seat int) time.Time {
	f.t.Helper()
	var since time.Time
	if _, err := f.m.do(f.ctx, id, func(t *table) error {
		_, since, _ = t.clock.Deciding(seat)
		return nil
	}); err != nil {
		f.t.Fatal(err)
	}
	return since
}

// publishedViews waits for the Publisher to have every seat's view of version
// want or later, and returns them.
func (f *fixture) publishedViews(id string, seats, want int) map[int]engine.View {
	f.t.Helper()
	for range 1000 {
		f.pub.mu.Lock()
		views := make(map[int]engine.View)
		ok := true
		for seat := engine.Spectator; seat < seats; seat++ {
			v, has := f.pub.views[id][seat]
			ok = ok && has && v.Version >= want
			views[seat] = v
		}
		f.pub.mu.Unlock()
		if ok {
			return views
		}
		time.Sleep(10 * time.Millisecond)
	}
	f.t.Fatalf("the views of version %d were never published", want)
	return nil
}

// playToTheEnd has the person in seat 0 make every move of theirs until the
// game is over.
func (f *fixture) playToTheEnd(id string) {
	f.t.Helper()
	for spent := time.Duration(0); f.status(id) == game.StatusLive; spent += 100 * time.Millisecond {
		if spent > 3*time.Hour {
			f.t.Fatal("the game did not end")
		}
		if v := f.view(id, 0); len(v.Can) > 0 {
			a, _ := v.Fallback()
			if _, err := f.m.Act(f.ctx, id, a); err != nil {
				f.t.Fatalf("act %+v: %v", a, err)
			}
		}
		f.step(id, 100*time.Millisecond)
	}
}

func TestRestartAfterALongStopKeepsThePersonsTurn(t *testing.T) {
	f := newFixture(t)
	id, _ := personGame(f)
	f.awaitTurn(id, false)
	f.step(id, 10*time.Second)
	before := f.view(id, 0)

	f.restart(id, nil, outage)
	if s := f.seat(id, 0); s.Away || s.Covered {
		t.Fatalf("got seat %+v after a restart %v later, want the person neither away nor covered", s, outage)
	}
	if v := f.view(id, 0); v.Phase != engine.PhasePlay || v.Turn != 0 || v.Plays != before.Plays {
		t.Fatalf("got phase %v turn %d play %d after the restart, want the person's turn at play %d still", v.Phase, v.Turn, v.Plays, before.Plays)
	}
	if r := f.resumed(id); r.At.Sub(r.Since) != outage {
		t.Errorf("got a resume after %v down, want %v", r.At.Sub(r.Since), outage)
	}
	// Rebuilt from its log once more, the game makes the same shift.
	f.restart(id, nil, 0)
	// The away clock had 50 s left, and has them still.
	f.step(id, DefaultAwayAfter-10*time.Second-time.Second)
	if s := f.seat(id, 0); s.Away {
		t.Fatalf("the person was marked away %v after the restart, with %v of their away time left at the stop", DefaultAwayAfter-11*time.Second, DefaultAwayAfter-10*time.Second)
	}

	f.playToTheEnd(id)
	results, err := f.st.Results(f.ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range results {
		if r.Seat == 0 && !r.Rated {
			t.Errorf("got seat 0 unrated, want the person who played throughout rated")
		}
	}
}

func TestRestartAfterACrashKeepsTheAwayTimeLeft(t *testing.T) {
	f, st := crashingFixture(t)
	id, _ := personGame(f)
	f.awaitTurn(id, false)
	turn := f.decidingSince(id, 0)
	// The server runs idle 40 s of the person's 60, then crashes.
	for range 40 {
		f.step(id, time.Second)
	}
	f.markedAlive(id)
	crash := f.clock.Now()
	f.restart(id, st, outage)

	mark, err := f.st.Alive(f.ctx)
	if err != nil {
		t.Fatal(err)
	}
	if mark.Before(turn.Add(40 * time.Second)) {
		t.Fatalf("got the last alive mark %v into the turn, want it after the 40 s the server ran idle", mark.Sub(turn))
	}
	r := f.resumed(id)
	if !r.Since.Equal(mark) || !r.At.Equal(crash.Add(outage)) {
		t.Errorf("got a resume from %v at %v, want from the alive mark %v at the restart %v", r.Since, r.At, mark, crash.Add(outage))
	}
	if s := f.seat(id, 0); s.Away {
		t.Fatalf("the person was marked away at the restart")
	}
	// The time the server ran idle counted; the time it was down did not.
	away := turn.Add(DefaultAwayAfter + r.At.Sub(r.Since))
	f.step(id, away.Add(-100*time.Millisecond).Sub(f.clock.Now()))
	if s := f.seat(id, 0); s.Away {
		t.Fatalf("the person was marked away before %v of their own time", DefaultAwayAfter)
	}
	f.step(id, 200*time.Millisecond)
	if s := f.seat(id, 0); !s.Away {
		t.Errorf("the person was not marked away after %v of their own time", DefaultAwayAfter)
	}
}

func TestCallWindowOpenAtAStopKeepsItsTime(t *testing.T) {
	for _, crash := range []bool{false, true} {
		name := map[bool]string{false: "stop", true: "crash"}[crash]
		t.Run(name, func(t *testing.T) {
			f, st := crashingFixture(t)
			if !crash {
				st = nil
			}
			id, _ := personGame(f)
			// A bot's play, which the person may still call.
			f.until(id, 10*time.Minute, func() bool {
				v := f.view(id, 0)
				return v.Phase == engine.PhaseCall && v.Last.Seat != 0 && slices.Contains(v.Can, engine.ActCall)
			})
			before := f.view(id, 0)
			left := before.Closes.Sub(f.clock.Now())

			f.restart(id, st, outage)
			back := f.clock.Now()
			v := f.view(id, 0)
			if v.Phase != engine.PhaseCall || v.Plays != before.Plays || !slices.Contains(v.Can, engine.ActCall) {
				t.Fatalf("got phase %v at play %d, can %v after the restart; want the window of play %d open to the person", v.Phase, v.Plays, v.Can, before.Plays)
			}
			// Only the resume is new: a bot still listening at the stop
			// has the rest of its moment to think, and hasn't moved.
			if v.Version != before.Version+1 {
				t.Errorf("got version %d after the restart, want %d: only the resume", v.Version, before.Version+1)
			}
			r := f.resumed(id)
			if got, want := v.Closes, before.Closes.Add(r.At.Sub(r.Since)); !got.Equal(want) {
				t.Errorf("got the window closing at %v, want %v: moved on by the time down", got, want)
			}
			switch got := v.Closes.Sub(back); {
			case !crash && got != left:
				t.Errorf("got %v left in the window, want the %v it had at the stop", got, left)
			case got < left:
				t.Errorf("got %v left in the window, want at least the %v it had at the crash", got, left)
			}
			// Every screen is told the new deadline.
			for seat, pv := range f.publishedViews(id, 3, v.Version) {
				if !pv.Closes.Equal(v.Closes) {
					t.Errorf("seat %d was shown the window closing at %v, want %v", seat, pv.Closes, v.Closes)
				}
			}

			if _, err := f.m.Act(f.ctx, id, engine.Action{Kind: engine.ActCall, Seat: 0, No: v.Plays}); err != nil {
				t.Fatalf("the person's shout after the restart: got %v, want it accepted", err)
			}
			// The log replays to the table as it is.
			live := f.views(f.m, id)
			replayed, err := f.m.replayed(f.ctx, id)
			if err != nil {
				t.Fatal(err)
			}
			for i, want := range live {
				b, err := json.Marshal(replayed.View(i - 1))
				if err != nil {
					t.Fatal(err)
				}
				if string(b) != want {
					t.Errorf("seat %d replayed as\n%s\nwant as played\n%s", i-1, b, want)
				}
			}
		})
	}
}

func TestAPersonCannotResumeAGame(t *testing.T) {
	f := newFixture(t)
	id, _ := personGame(f)
	f.awaitTurn(id, false)
	n := f.actions(id)
	_, err := f.m.Act(f.ctx, id, engine.Action{Kind: engine.ActResume, Seat: 0, Since: f.clock.Now().Add(-time.Minute)})
	if got, want := codeOf(err), string(errcode.Invalid); got != want {
		t.Errorf("got code %q for a resume sent as a move, want %q", got, want)
	}
	if got := f.actions(id); got != n {
		t.Errorf("got %d stored actions, want %d", got, n)
	}
}

// A resume the store refuses is not made at all: the log must replay to the
// game the table plays, so the outage then counts, as it did before resumes.
func TestAResumeTheStoreRefusesShiftsNothing(t *testing.T) {
	f := newFixture(t)
	id, _ := personGame(f)
	f.awaitTurn(id, false)
	if err := f.m.Close(f.ctx); err != nil {
		t.Fatal(err)
	}
	f.clock.Advance(outage)
	st := &faulty{Store: f.st}
	st.fail.Store(true)
	f.m = f.open(st)
	f.sync(id)
	st.fail.Store(false)

	actions, err := f.st.Actions(f.ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if slices.ContainsFunc(actions, func(a store.Action) bool { return a.Action.Kind == engine.ActResume }) {
		t.Fatalf("got a resume stored while the store refused writes")
	}
	if s := f.seat(id, 0); !s.Away {
		t.Errorf("got seat %+v, want the person marked away: without a stored resume the outage counts", s)
	}
}
