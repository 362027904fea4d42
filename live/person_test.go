package live

import (
	"slices"
	"testing"
	"time"

	"bullshit/engine"
	"bullshit/errcode"
	"bullshit/game"
)

// personGame starts a table of the host (a person, seat 0) and two bots.
func personGame(f *fixture) (id, token string) {
	f.t.Helper()
	id, tokens := f.create(3, 2)
	if err := f.m.Start(f.ctx, id, 0); err != nil {
		f.t.Fatalf("start: %v", err)
	}
	return id, tokens[0]
}

func TestPersonTurnWaitsWhileWindowsCloseOnTime(t *testing.T) {
	f := newFixture(t)
	id, _ := personGame(f)
	myTurn := func() bool {
		v := f.view(id, 0)
		return v.Phase == engine.PhasePlay && v.Turn == 0
	}
	f.until(id, time.Minute, myTurn)

	// The person's own turn waits for them, short of the away time.
	before := f.view(id, 0)
	f.step(id, DefaultAwayAfter-time.Second)
	if after := f.view(id, 0); after.Version != before.Version || !myTurn() {
		t.Errorf("the table moved on while waiting for the person: version %d, want %d", after.Version, before.Version)
	}
	if f.seat(id, 0).Away {
		t.Errorf("the person was marked away before the away time")
	}
	play, _ := f.view(id, 0).Fallback()
	if _, err := f.m.Act(f.ctx, id, play); err != nil {
		t.Fatalf("act: %v", err)
	}

	// The windows of the bots' plays, which the person never answers,
	// close exactly on time unless a bot calls.
	f.until(id, 10*time.Minute, myTurn)
	log, err := f.m.Log(f.ctx, id, 0)
	if err != nil {
		t.Fatal(err)
	}
	played := map[int]engine.Event{}
	for _, e := range log {
		switch e.Kind {
		case engine.EventPlay:
			played[e.No] = e
		case engine.EventStood:
			p := played[e.No]
			if p.Seat == 0 {
				continue // the bots may let the person's play go early
			}
			if got, want := e.At.Sub(p.At), engine.StandardWindow; got != want {
				t.Errorf("play %d stood %v after it was made, want %v", e.No, got, want)
			}
		}
	}
}

func TestAwayTakesOverAndClears(t *testing.T) {
	f := newFixture(t)
	id, _ := personGame(f)
	myTurn := func() bool {
		v := f.view(id, 0)
		return v.Phase == engine.PhasePlay && v.Turn == 0
	}
	f.until(id, 10*time.Minute, myTurn)
	plays := f.view(id, 0).Plays

	f.until(id, DefaultAwayAfter+time.Second, func() bool { return f.seat(id, 0).Away })
	if s := f.seat(id, 0); !s.Covered {
		t.Errorf("got seat %+v, want it covered once a bot played it", s)
	}
	f.step(id, 100*time.Millisecond)
	if got := f.view(id, 0).Plays; got != plays+1 {
		t.Errorf("got %d plays once away, want %d: the bot plays the person's turn at once", got, plays+1)
	}

	// The person comes back: their next accepted move clears away.
	f.until(id, 10*time.Minute, func() bool { return len(f.view(id, 0).Can) > 0 })
	a, _ := f.view(id, 0).Fallback()
	if _, err := f.m.Act(f.ctx, id, a); err != nil {
		t.Fatalf("act %+v: %v", a, err)
	}
	if s := f.seat(id, 0); s.Away || !s.Covered {
		t.Errorf("got seat %+v after acting, want not away, still covered", s)
	}

	f.playOut(id, 3*time.Hour)
	results, err := f.st.Results(f.ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range results {
		if r.Rated {
			t.Errorf("seat %d rated, want a covered seat and bots unrated", r.Seat)
		}
	}
}

func TestPersonPlaysToEndAndIsRated(t *testing.T) {
	f := newFixture(t)
	id, _ := personGame(f)
	for spent := time.Duration(0); f.status(id) == game.StatusLive; spent += 100 * time.Millisecond {
		if spent > 3*time.Hour {
			t.Fatal("the game did not end")
		}
		if v := f.view(id, 0); len(v.Can) > 0 {
			a, _ := v.Fallback()
			if _, err := f.m.Act(f.ctx, id, a); err != nil {
				t.Fatalf("act %+v: %v", a, err)
			}
		}
		f.step(id, 100*time.Millisecond)
	}
	results, err := f.st.Results(f.ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range results {
		if want := r.Seat == 0; r.Rated != want {
			t.Errorf("seat %d: got rated %v, want %v", r.Seat, r.Rated, want)
		}
	}
	if s := f.seat(id, 0); s.Covered {
		t.Errorf("got seat 0 covered, want a person who always acted uncovered")
	}
}

func TestStaleActionRefusedAndNotStored(t *testing.T) {
	f := newFixture(t)
	id, _ := personGame(f)
	f.until(id, 10*time.Minute, func() bool {
		v := f.view(id, 0)
		return v.Phase == engine.PhasePlay && v.Turn == 0 && v.Plays > 0
	})
	v := f.view(id, 0)
	play, _ := v.Fallback()
	stale := play
	stale.No = v.Plays - 1
	n := f.actions(id)
	views := f.views(f.m, id)

	_, err := f.m.Act(f.ctx, id, stale)
	if got, want := codeOf(err), string(engine.CodeStale); got != want {
		t.Fatalf("got code %q for a stale play, want %q", got, want)
	}
	if got := f.actions(id); got != n {
		t.Errorf("got %d stored actions after a refused one, want %d", got, n)
	}
	if got := f.views(f.m, id); !slices.Equal(got, views) {
		t.Errorf("the views changed after a refused action")
	}

	// The same play, accepted once, is refused when repeated.
	if _, err := f.m.Act(f.ctx, id, play); err != nil {
		t.Fatalf("act: %v", err)
	}
	_, err = f.m.Act(f.ctx, id, play)
	if got, want := codeOf(err), string(engine.CodeStale); got != want {
		t.Errorf("got code %q for a repeated play, want %q", got, want)
	}
	if got := f.actions(id); got != n+1 {
		t.Errorf("got %d stored actions, want %d", got, n+1)
	}
}

func TestHostHandsAnAwaySeatToABot(t *testing.T) {
	f := newFixture(t)
	id, _ := f.create(3, 1, "Bob")
	if err := f.m.Start(f.ctx, id, 0); err != nil {
		t.Fatal(err)
	}
	// The host plays whenever it is their turn; Bob never does.
	f.until(id, 10*time.Minute, func() bool {
		if v := f.view(id, 0); slices.Contains(v.Can, engine.ActPlay) {
			a, _ := v.Fallback()
			if _, err := f.m.Act(f.ctx, id, a); err != nil {
				t.Fatalf("act: %v", err)
			}
		}
		return f.seat(id, 2).Away
	})
	if err := f.m.HandToBot(f.ctx, id, 1, 2); codeOf(err) != string(errcode.Forbidden) {
		t.Errorf("a bot's seat handing over Bob's: got %v, want forbidden", err)
	}
	if err := f.m.HandToBot(f.ctx, id, 0, 2); err != nil {
		t.Fatalf("the host handing over an away seat: %v", err)
	}
	if s := f.seat(id, 2); s.Kind != game.SeatBot || !s.Covered || s.Away {
		t.Errorf("got seat %+v, want a covered bot seat", s)
	}
}

func TestMoveIsMadeAtItsArrival(t *testing.T) {
	f := newFixture(t)
	id, _ := personGame(f)
	f.until(id, 10*time.Minute, func() bool { return slices.Contains(f.view(id, 0).Can, engine.ActCall) })
	v := f.view(id, 0)
	call := engine.Action{Kind: engine.ActCall, Seat: 0, No: v.Plays}
	// Sent now, within 100ms of the play: before the bots' quickest shout.
	sent := f.clock.Now()

	// The table is busy past the window's close (as behind a slow write)
	// while the call waits to be served.
	entered, release := make(chan struct{}), make(chan struct{})
	var busy *table
	done := make(chan error, 1)
	go func() {
		_, err := f.m.do(f.ctx, id, func(t *table) error {
			busy = t
			close(entered)
			<-release
			return nil
		})
		done <- err
	}()
	<-entered
	f.clock.Advance(v.Closes.Sub(f.clock.Now()) + time.Second)
	reply := make(chan error, 1)
	busy.serve(request{at: sent, reply: reply, fn: func(t *table) error {
		_, err := t.act(call)
		return err
	}})
	close(release)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if err := <-reply; err != nil {
		t.Fatalf("a call that arrived before the window closed: got %v, want it accepted", err)
	}
	log, err := f.m.Log(f.ctx, id, 0)
	if err != nil {
		t.Fatal(err)
	}
	// The standard table holds a call open for the grace, from its arrival.
	i := slices.IndexFunc(log, func(e engine.Event) bool { return e.Kind == engine.EventShouted && e.No == call.No })
	if i < 0 || log[i].Seat != 0 || !log[i].At.Equal(sent) {
		t.Errorf("got no call of play %d by seat 0 at %v in the log", call.No, sent)
	}
}
