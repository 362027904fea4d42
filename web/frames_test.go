package web

import (
	"bytes"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"bullshit/engine"
	"bullshit/game"
	"bullshit/views"
)

// playedFrames plays a game of n seats to its end, each seat letting plays
// go or calling one in four at random, and calls frame with every seat's
// frame (and the spectator's) after each change, numbered as a table
// numbers them, with the moment it is rendered.
func playedFrames(t testing.TB, n int, seed uint64, frame func(f game.Frame, now time.Time)) {
	t.Helper()
	s, err := engine.New(engine.Standard(n), seed, t0)
	if err != nil {
		t.Fatal(err)
	}
	g := summaryOf(n)
	r := rand.New(rand.NewPCG(seed, 1))
	at := t0
	revision := 0
	publish := func() {
		revision++
		for seat := -1; seat < n; seat++ {
			v := s.View(seat)
			// Rendered a little after the change, as a push is.
			frame(game.Frame{Game: g, Seat: seat, View: &v, Revision: revision, Final: s.Over()},
				at.Add(time.Duration(r.IntN(3000))*time.Microsecond))
		}
	}
	publish()
	for step := 0; !s.Over(); step++ {
		if step > 20000 {
			t.Fatalf("game of %d seats, seed %d, still in play after %d steps", n, seed, step)
		}
		moved := false
		for _, seat := range r.Perm(n) {
			v := s.View(seat)
			a, ok := v.Fallback()
			if slices.Contains(v.Can, engine.ActCall) && r.IntN(4) == 0 {
				a, ok = engine.Action{Kind: engine.ActCall, Seat: seat, No: v.Plays}, true
			}
			if ok && s.Apply(a, at) == nil {
				moved = true
				break
			}
		}
		if !moved {
			at = s.Deadline()
			s.Tick(at)
		}
		at = at.Add(100 * time.Millisecond)
		publish()
	}
}

// TestFrameEventsReuseUnchangedRegions plays whole games and renders every
// seat's frame after every change: each event is the same, byte for byte,
// as the frame rendered afresh, though most regions (the hand above all)
// are copied from the seat's last frame rather than rendered.
func TestFrameEventsReuseUnchangedRegions(t *testing.T) {
	h := New(Config{})
	var frames, regions, kept, hands, handsKept int
	for i, n := range []int{4, 6} {
		playedFrames(t, n, uint64(40+i), func(f game.Frame, now time.Time) {
			_, tb := screen(f, now)
			models := tb.Regions()
			keep := h.renderer.tables.reusable(f, models)
			ev, ok, err := h.FrameEvent(f, now)
			if err != nil || !ok {
				t.Fatalf("FrameEvent: got %v, %v", ok, err)
			}
			fresh, err := h.RenderFrame(f, now)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(ev.Data, fresh) {
				t.Fatalf("seat %d at revision %d: the event differs from the frame rendered afresh:\n%s\nwant\n%s", f.Seat, f.Revision, ev.Data, fresh)
			}
			frames++
			regions += len(models)
			hands++
			for i, k := range keep {
				if k == nil {
					continue
				}
				kept++
				if _, hand := models[i].(views.Hand); hand {
					handsKept++
				}
			}
		})
	}
	t.Logf("%d frames: %d of %d regions copied, the hand in %d of %d", frames, kept, regions, handsKept, hands)
	if kept < regions/3 || handsKept < hands/2 {
		t.Errorf("regions copied from the seat's last frame: got %d of %d, the hand %d of %d times; want a third at least, and the hand half the time",
			kept, regions, handsKept, hands)
	}
}

// TestLastTablesForget: a seat's last table is kept until a later one, not
// replaced by an older frame read late, and forgotten at the game's final
// frame or after a minute with no frame.
func TestLastTablesForget(t *testing.T) {
	models := []any{views.Bar{Plays: 1}}
	parts := [][]byte{[]byte("<header>")}
	frame := func(seat, revision int, final bool) game.Frame {
		return game.Frame{Game: game.Summary{ID: "g"}, Seat: seat, Revision: revision, Final: final}
	}
	tests := []struct {
		name  string
		then  func(c *lastTables)
		reuse bool
	}{
		{"kept", func(c *lastTables) {}, true},
		{"an older frame read late", func(c *lastTables) { c.keep(frame(0, 1, false), t0, []any{views.Bar{Plays: 9}}, parts) }, true},
		{"a later frame", func(c *lastTables) { c.keep(frame(0, 3, false), t0, []any{views.Bar{Plays: 9}}, parts) }, false},
		{"the final frame", func(c *lastTables) { c.keep(frame(0, 3, true), t0, models, parts) }, false},
		{"a minute later", func(c *lastTables) { c.keep(frame(1, 3, false), t0.Add(lastTableFor+time.Second), models, parts) }, false},
		{"another seat's frame soon after", func(c *lastTables) { c.keep(frame(1, 3, false), t0.Add(time.Second), models, parts) }, true},
	}
	for _, tt := range tests {
		var c lastTables
		c.keep(frame(0, 2, false), t0, models, parts)
		tt.then(&c)
		keep := c.reusable(frame(0, 4, false), models)
		if got := keep != nil && keep[0] != nil; got != tt.reuse {
			t.Errorf("%s: got the bar reused %v, want %v", tt.name, got, tt.reuse)
		}
	}
}

// TestFinalEventOnceOver: a game's last frame is the final event, which
// closes the page's stream for good, only once the game is finished or
// ended; the final frames a table sends as the server stops (or breaks) are
// frames like any other, since the game goes on after the restart.
func TestFinalEventOnceOver(t *testing.T) {
	h := New(Config{})
	s, g := dealt(t, 4)
	tests := []struct {
		status game.Status
		final  bool
		want   string
	}{
		{game.StatusFinished, true, "final"},
		{game.StatusEnded, true, "final"},
		{game.StatusLive, true, "frame"},
		{game.StatusBroken, true, "frame"},
		{game.StatusLive, false, "frame"},
	}
	for _, tt := range tests {
		f := frameOf(s, g, 0)
		f.Game.Status, f.Final = tt.status, tt.final
		ev, _, err := h.FrameEvent(f, t0)
		if err != nil {
			t.Fatal(err)
		}
		if ev.Name != tt.want || hasFinal(ev.ID) != (tt.want == "final") {
			t.Errorf("a %s game's frame, final %v: got event %q id %q, want %q", tt.status, tt.final, ev.Name, ev.ID, tt.want)
		}
	}
}
