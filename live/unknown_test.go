package live

import (
	"slices"
	"strings"
	"testing"
	"time"

	"bullshit/engine"
	"bullshit/errcode"
	"bullshit/game"
)

// advance moves the clock on by d in small steps, letting the table catch
// up at each, whatever it answers (a broken table refuses).
func (f *fixture) advance(id string, d time.Duration) {
	for spent := time.Duration(0); spent < d; spent += 100 * time.Millisecond {
		f.clock.Advance(100 * time.Millisecond)
		f.m.do(f.ctx, id, func(*table) error { return nil })
	}
}

// checkFrozen checks that the table changes nothing for d while its store
// is down: it can't know whether its last write stands.
func (f *fixture) checkFrozen(id string, d time.Duration) {
	f.t.Helper()
	before := f.view(id, engine.Spectator)
	stored := f.actions(id)
	f.advance(id, d)
	if got := f.view(id, engine.Spectator); got.Version != before.Version {
		f.t.Errorf("got the table at version %d after %v with its last write unsettled, want it still at %d", got.Version, d, before.Version)
	}
	if got := f.actions(id); got != stored {
		f.t.Errorf("got %d stored actions while the store was down, want %d", got, stored)
	}
}

// checkRestartShowsTheSame restarts the server on the plain store and checks
// that every seat's view of game id is what it was before.
func (f *fixture) checkRestartShowsTheSame(id string) {
	f.t.Helper()
	want := f.views(f.m, id)
	if err := f.m.Close(f.ctx); err != nil {
		f.t.Fatal(err)
	}
	f.m = f.open(f.st)
	if got := f.views(f.m, id); !slices.Equal(got, want) {
		f.t.Errorf("after a restart the game shows\n%s\nwhere the table showed\n%s", got, want)
	}
}

func TestBotMoveWhoseAnswerIsLostIsSettled(t *testing.T) {
	for _, committed := range []bool{true, false} {
		name := map[bool]string{true: "committed", false: "not committed"}[committed]
		t.Run(name, func(t *testing.T) {
			f, st := faultyFixture(t)
			id := f.botGame(4)
			f.step(id, 20*time.Second)
			n := f.actions(id)
			if committed {
				st.cut.Store(true)
			} else {
				st.drop.Store(true)
			}
			f.until(id, time.Minute, st.down.Load)
			if got, want := f.actions(id)-n, map[bool]int{true: 1, false: 0}[committed]; got != want {
				t.Fatalf("got %d actions stored by the write cut, want %d", got, want)
			}
			f.checkFrozen(id, 30*time.Second)

			st.down.Store(false)
			stored := f.actions(id)
			f.advance(id, 10*time.Second)
			if got := f.actions(id); got <= stored {
				t.Errorf("got %d stored actions once the store answered, want the table to carry on past %d", got, stored)
			}
			f.checkShownIsStored(id)
			f.checkTrouble(id, 1)
			f.checkRestartShowsTheSame(id)
		})
	}
}

func TestPersonMoveWhoseAnswerIsLostIsSettled(t *testing.T) {
	for _, committed := range []bool{true, false} {
		name := map[bool]string{true: "committed", false: "not committed"}[committed]
		t.Run(name, func(t *testing.T) {
			f, st := faultyFixture(t)
			id, _ := personGame(f)
			f.awaitTurn(id, false)
			n := f.actions(id)
			play, _ := f.view(id, 0).Fallback()
			if committed {
				st.cut.Store(true)
			} else {
				st.drop.Store(true)
			}
			first := f.clock.Now()
			// The store can't be asked whether the write committed, so
			// the answer must not say it was not saved.
			if _, err := f.m.Act(f.ctx, id, play); codeOf(err) != string(errcode.Unknown) {
				t.Fatalf("got %v for a move whose answer was lost, want its outcome unknown", err)
			}
			f.checkFrozen(id, 10*time.Second)

			st.down.Store(false)
			f.step(id, time.Second)
			_, err := f.m.Act(f.ctx, id, play)
			if committed && codeOf(err) != string(engine.CodeStale) {
				t.Errorf("got %v for the move again, want it refused as stale: the stored move stands", err)
			}
			if !committed && err != nil {
				t.Errorf("got %v for the move again, want it accepted: it was never stored", err)
			}
			// The person's move is in the log once, made when it was stored.
			stored, err := f.st.Actions(f.ctx, id)
			if err != nil {
				t.Fatal(err)
			}
			if len(stored) <= n || stored[n].Action.Seat != 0 || stored[n].Action.No != play.No {
				t.Fatalf("got %+v after the log's %d actions, want the person's move", stored[n:], n)
			}
			if got := stored[n].At.Equal(first); got != committed {
				t.Errorf("got the move stored at %v, the first try's time %v: %v, want %v", stored[n].At, first, got, committed)
			}
			f.step(id, 10*time.Second)
			f.checkShownIsStored(id)
			f.checkTrouble(id, 1)
			f.checkRestartShowsTheSame(id)
		})
	}
}

func TestResumeWhoseAnswerIsLostIsSettled(t *testing.T) {
	f, st := faultyFixture(t)
	id := f.botGame(4)
	f.step(id, 20*time.Second)
	if err := f.m.Close(f.ctx); err != nil {
		t.Fatal(err)
	}
	f.clock.Advance(time.Minute)
	st.cut.Store(true)
	f.m = f.open(st)
	f.sync(id)
	actions, err := f.st.Actions(f.ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if last := actions[len(actions)-1]; last.Action.Kind != engine.ActResume {
		t.Fatalf("got %+v last in the log, want the resume the cut write stored", last.Action)
	}
	f.checkFrozen(id, 10*time.Second)

	st.down.Store(false)
	f.advance(id, 10*time.Second)
	if got := f.actions(id); got <= len(actions) {
		t.Errorf("got %d stored actions once the store answered, want the table to carry on past the resume", got)
	}
	f.checkShownIsStored(id)
	f.checkTrouble(id, 1)
	f.checkRestartShowsTheSame(id)
}

func TestStartAndEndWhoseAnswersAreLostAreSettled(t *testing.T) {
	f, st := faultyFixture(t)
	id, _ := f.create(5, 3)
	st.cut.Store(true)
	if err := f.m.Start(f.ctx, id, 0); codeOf(err) != string(errcode.Unknown) {
		t.Fatalf("got %v for a start whose answer was lost, want its outcome unknown", err)
	}
	if _, err := f.m.Join(f.ctx, id, "Bo", 0); codeOf(err) != string(errcode.Unavailable) {
		t.Errorf("got %v for a join while the start is unsettled, want it unavailable", err)
	}
	st.down.Store(false)
	f.step(id, time.Second)
	if got := f.status(id); got != game.StatusLive {
		t.Fatalf("got the table %s once the store answered, want the stored start adopted", got)
	}

	f.step(id, 20*time.Second)
	st.cut.Store(true)
	if err := f.m.End(f.ctx, id, 0); codeOf(err) != string(errcode.Unknown) {
		t.Fatalf("got %v for an end whose answer was lost, want its outcome unknown", err)
	}
	f.checkFrozen(id, 10*time.Second)
	st.down.Store(false)
	f.step(id, time.Second)
	if got := f.status(id); got != game.StatusEnded {
		t.Errorf("got the table %s once the store answered, want the stored end adopted", got)
	}
	f.checkShownIsStored(id)
	f.checkTrouble(id, 2)
}

func TestSeatWhoseAnswerIsLostIsStoredAsShown(t *testing.T) {
	f, st := faultyFixture(t)
	id, _ := f.create(5, 2)
	st.cut.Store(true)
	// Until the table stores the seat again as it shows it, the join
	// stands in the store: its outcome is unknown.
	if _, err := f.m.Join(f.ctx, id, "Bo", 0); codeOf(err) != string(errcode.Unknown) {
		t.Fatalf("got %v for a join whose answer was lost, want its outcome unknown", err)
	}
	if _, seats, err := f.st.Game(f.ctx, id); err != nil || seats[3].Kind != game.SeatPerson {
		t.Fatalf("got seat %+v stored (%v), want the join the cut write committed", seats[3], err)
	}
	st.down.Store(false)
	f.step(id, 2*time.Second)
	if _, seats, err := f.st.Game(f.ctx, id); err != nil || seats[3].Kind != game.SeatEmpty {
		t.Errorf("got seat %+v stored (%v), want it empty as the table shows it", seats[3], err)
	}
	if j, err := f.m.Join(f.ctx, id, "Bo", 0); err != nil || j.Seat != 3 {
		t.Errorf("got seat %d (%v) joining again, want seat 3", j.Seat, err)
	}
	f.checkTrouble(id, 1)
}

func TestUnsettledWriteStopsTheTableAtItsBound(t *testing.T) {
	f, st := faultyFixture(t)
	id := f.botGame(4)
	f.step(id, 20*time.Second)
	st.cut.Store(true)
	f.until(id, time.Minute, st.down.Load)
	n := f.actions(id)
	f.advance(id, settleWithin+2*retryAfter)
	if got := f.status(id); got != game.StatusBroken {
		t.Fatalf("got the table %s after the store was down for %v, want it broken", got, settleWithin)
	}
	st.down.Store(false)
	f.advance(id, 10*time.Second)
	if got := f.actions(id); got != n {
		t.Errorf("got %d stored actions, want the broken table's log untouched at %d", got, n)
	}
	if got := f.logs.matching("ERROR", "a fault stopped a table", map[string]any{"game": id}); len(got) != 1 {
		t.Errorf("got %d lines for the stop, want 1:\n%s", len(got), f.logs)
	}
}

func TestNumberTakenByAnotherActionStopsTheTable(t *testing.T) {
	f, st := faultyFixture(t)
	id := f.botGame(4)
	f.step(id, 20*time.Second)
	n := f.actions(id)
	st.steal.Store(true)
	f.advance(id, 10*time.Second)
	if got := f.status(id); got != game.StatusBroken {
		t.Fatalf("got the table %s with another action at its number, want it broken", got)
	}
	if got := f.actions(id); got != n+1 {
		t.Errorf("got %d stored actions, want the log untouched at %d", got, n+1)
	}
	stops := f.logs.matching("ERROR", "a fault stopped a table", map[string]any{"game": id})
	if len(stops) != 1 || !strings.Contains(stops[0]["err"].(string), "not the") {
		t.Errorf("got %v, want one stop saying the stored action is not the table's:\n%s", stops, f.logs)
	}
}

func TestFinishWhoseAnswerIsLostShowsTheStoredRatings(t *testing.T) {
	f, st := faultyFixture(t)
	id, _ := f.create(4, 3)
	f.seatAccount(id, 0, "ann")
	if err := f.m.Start(f.ctx, id, 0); err != nil {
		t.Fatal(err)
	}
	st.cutFinish.Store(true)
	for spent := time.Duration(0); !st.down.Load(); spent += 250 * time.Millisecond {
		if spent > 3*time.Hour {
			t.Fatal("the game did not finish")
		}
		v := f.view(id, 0)
		if a, ok := v.Fallback(); ok && v.Phase != engine.PhaseCall {
			if _, err := f.m.Act(f.ctx, id, a); err != nil && codeOf(err) != string(engine.CodeStale) {
				t.Fatalf("act %+v: %v", a, err)
			}
			continue
		}
		f.step(id, 250*time.Millisecond)
	}
	f.advance(id, 5*time.Second)
	st.down.Store(false)
	f.advance(id, 2*time.Second)
	if got := f.status(id); got != game.StatusFinished {
		t.Fatalf("got the game %s, want it finished", got)
	}
	rows, err := f.st.GamePlayers(f.ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	f.pub.closedCount(id)
	f.pub.mu.Lock()
	shown := f.pub.frames[id][0].Ratings
	f.pub.mu.Unlock()
	if want := ratingChanges(rows); len(want) == 0 || !slices.Equal(shown, want) {
		t.Errorf("got the result sheet's ratings %+v, want the stored %+v", shown, want)
	}
	f.checkTrouble(id, 1)
}
