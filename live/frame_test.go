package live

import (
	"context"
	"errors"
	"testing"
	"time"

	"bullshit/engine"
	"bullshit/errcode"
	"bullshit/game"
)

// published waits for the recorder to hold a frame for seat of game id that
// satisfies ok, failing after a while of real time (the outbox publishes
// from a goroutine of its own).
func (f *fixture) published(id string, seat int, ok func(game.Frame) bool) game.Frame {
	f.t.Helper()
	for range 2000 {
		f.pub.mu.Lock()
		fr, found := f.pub.frames[id][seat]
		f.pub.mu.Unlock()
		if found && ok(fr) {
			return fr
		}
		time.Sleep(time.Millisecond)
	}
	f.pub.mu.Lock()
	defer f.pub.mu.Unlock()
	f.t.Fatalf("game %s seat %d: no frame as wanted; last %+v", id, seat, f.pub.frames[id][seat])
	return game.Frame{}
}

func TestTheWaitingRoomIsPublished(t *testing.T) {
	f := newFixture(t)
	id, _ := f.create(4, 1)
	first := f.published(id, engine.Spectator, func(game.Frame) bool { return true })
	if first.View != nil || first.Game.Status != game.StatusOpen {
		t.Errorf("got a first frame with view %v and status %s, want no view and open", first.View, first.Game.Status)
	}

	steps := []struct {
		name   string
		change func()
		seen   func(game.Frame) bool
	}{
		{"a join", func() {
			if _, err := f.m.Join(f.ctx, id, "Bea", 0); err != nil {
				t.Fatal(err)
			}
		}, func(fr game.Frame) bool { return fr.Game.Seats[2].Name == "Bea" }},
		{"a leave", func() {
			if err := f.m.Leave(f.ctx, id, 2); err != nil {
				t.Fatal(err)
			}
		}, func(fr game.Frame) bool { return fr.Game.Seats[2].Kind == game.SeatEmpty }},
		{"the start", func() {
			if _, err := f.m.Join(f.ctx, id, "Cy", 0); err != nil {
				t.Fatal(err)
			}
			if err := f.m.Start(f.ctx, id, 0); err != nil {
				t.Fatal(err)
			}
		}, func(fr game.Frame) bool { return fr.Game.Status == game.StatusLive && fr.View != nil }},
	}
	last := first.Revision
	for _, s := range steps {
		s.change()
		fr := f.published(id, engine.Spectator, s.seen)
		if fr.Revision <= last {
			t.Errorf("%s: got revision %d, want more than %d", s.name, fr.Revision, last)
		}
		last = fr.Revision
	}

	// Each seat's frame carries its own view; the spectator's has no hand.
	for seat := range 3 {
		fr := f.published(id, seat, func(fr game.Frame) bool { return fr.View != nil })
		if fr.Seat != seat || fr.View.Seat != seat || len(fr.View.Hand) == 0 {
			t.Errorf("seat %d: got a frame for seat %d with view seat %d and %d cards, want its own hand",
				seat, fr.Seat, fr.View.Seat, len(fr.View.Hand))
		}
	}
	if fr := f.published(id, engine.Spectator, func(game.Frame) bool { return true }); fr.View.Hand != nil {
		t.Errorf("got a spectator frame with hand %v, want none", fr.View.Hand)
	}
}

func TestAnAwayMarkMovesTheRevisionOnly(t *testing.T) {
	f := newFixture(t)
	id, _ := f.create(3, 2)
	if err := f.m.Start(f.ctx, id, 0); err != nil {
		t.Fatal(err)
	}
	f.sync(id)
	// Play until it is the person's own turn, so that waiting marks them away.
	f.until(id, time.Hour, func() bool {
		v := f.view(id, 0)
		return v.Phase == engine.PhasePlay && v.Turn == 0
	})
	before := f.published(id, 0, func(fr game.Frame) bool {
		return fr.View != nil && fr.View.Turn == 0 && fr.View.Phase == engine.PhasePlay
	})
	f.step(id, DefaultAwayAfter)
	after := f.published(id, 0, func(fr game.Frame) bool { return fr.Game.Seats[0].Away })
	if after.Revision <= before.Revision {
		t.Errorf("got revision %d after the away mark, want more than %d", after.Revision, before.Revision)
	}
}

func TestManagerFrame(t *testing.T) {
	f := newFixture(t)
	id, tokens := f.create(3, 1, "Bea")
	open, err := f.m.Frame(f.ctx, id, 1)
	if err != nil || open.View != nil || open.Seat != 1 || len(open.Game.Seats) != 3 {
		t.Fatalf("open table: got %+v, %v, want seat 1's frame with three seats and no view", open, err)
	}
	if err := f.m.Start(f.ctx, id, 0); err != nil {
		t.Fatal(err)
	}
	seat, err := f.m.Authenticate(f.ctx, id, tokens[1])
	if err != nil {
		t.Fatal(err)
	}
	fr, err := f.m.Frame(game.WithToken(f.ctx, tokens[1]), id, seat)
	if err != nil || fr.View == nil || fr.View.Seat != seat || len(fr.View.Hand) == 0 {
		t.Fatalf("live table: got %+v, %v, want Bea's view with her hand", fr, err)
	}
	// A token checked against another seat is refused, never answered
	// with that seat's cards.
	if _, err := f.m.Frame(game.WithToken(f.ctx, tokens[1]), id, (seat+1)%3); codeOf(err) != string(errcode.Conflict) {
		t.Errorf("another seat's frame: got %v, want a conflict", err)
	}
	if err := f.m.End(f.ctx, id, 0); err != nil {
		t.Fatal(err)
	}
	f.sync(id)
	final, err := f.m.Frame(f.ctx, id, engine.Spectator)
	if err != nil || !final.Final || final.View == nil || final.View.Phase != engine.PhaseOver || final.Game.Status != game.StatusEnded {
		t.Fatalf("ended game: got %+v, %v, want the final, ended frame", final, err)
	}
}

// TestACallGivenUpLeavesTheTableItsOwn: a caller whose context ends while
// its call waits for the table either gets its answer whole or the
// context's error, and the table never writes into a caller gone (the race
// detector reads the frame's fields as the table would write them).
func TestACallGivenUpLeavesTheTableItsOwn(t *testing.T) {
	f := newFixture(t)
	id, _ := f.create(3, 2)
	if err := f.m.Start(f.ctx, id, 0); err != nil {
		t.Fatal(err)
	}
	answered, gaveUp := 0, 0
	for range 300 {
		ctx, cancel := context.WithCancel(f.ctx)
		go cancel()
		fr, err := f.m.Frame(ctx, id, engine.Spectator)
		switch {
		case err == nil && fr.Game.ID == id && fr.View != nil:
			answered++
		case errors.Is(err, context.Canceled):
			gaveUp++
		default:
			t.Fatalf("a frame asked as its caller gives up: got %+v, %v, want the frame or context.Canceled", fr, err)
		}
		cancel()
	}
	t.Logf("%d answered, %d given up", answered, gaveUp)
}
