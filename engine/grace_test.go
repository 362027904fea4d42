package engine

import (
	"slices"
	"strings"
	"testing"
	"time"
)

// graceTable is rulesTable (seat 0 plays, seats 1 to 3 listen) with a grace
// of 150 ms for calls made together.
func graceTable(tb testing.TB) *State {
	tb.Helper()
	o := firstCome(4)
	o.Grace = 150 * time.Millisecond
	return rulesTable(tb, o)
}

func callBy(seat, ms int) step { return step{a: Action{Kind: ActCall, Seat: seat, No: 1}, ms: ms} }

// TestCallsTogetherGoNearestTheLeft: calls within the grace compete, and the
// seat nearest the player's left (going round from the player) wins,
// whatever order they came in; a call after the grace is not one of them.
func TestCallsTogetherGoNearestTheLeft(t *testing.T) {
	tests := []struct {
		name     string
		calls    []step
		want     int
		together []int
	}{
		{"alone", []step{callBy(3, 2000)}, 3, nil},
		{"the farther seat first", []step{callBy(3, 2000), callBy(1, 2100)}, 1, []int{3}},
		{"all three, reversed", []step{callBy(3, 2000), callBy(2, 2050), callBy(1, 2149)}, 1, []int{3, 2}},
		{"the nearer seat first", []step{callBy(2, 2000), callBy(3, 2100)}, 2, []int{3}},
		{"the same moment", []step{callBy(2, 2000), callBy(1, 2000)}, 1, []int{2}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := graceTable(t)
			run(t, s, append([]step{playSneak}, tt.calls...))
			if s.Phase() != PhaseShout {
				t.Fatalf("got phase %v, want shout while the grace runs", s.Phase())
			}
			v := s.View(0)
			if v.Last.Caller != -1 || v.Last.Shown || v.Reveal != nil || !v.Closes.Equal(at(2150)) {
				t.Errorf("in the grace: got caller %d shown %v reveal %v closes %v, want no caller yet, face down, closing at 2150",
					v.Last.Caller, v.Last.Shown, v.Reveal, v.Closes)
			}
			for _, seat := range []int{1, 2, 3} {
				if got := s.View(seat).Last.Cards; got != nil {
					t.Errorf("seat %d sees the cards in the grace: %v", seat, got)
				}
			}
			s.Tick(at(2150))
			if s.Phase() != PhaseReveal {
				t.Fatalf("after the grace: got phase %v, want reveal", s.Phase())
			}
			r := s.View(2).Reveal
			if r.Caller != tt.want || !slices.Equal(r.Together, tt.together) {
				t.Errorf("got caller %d together %v, want %d together %v", r.Caller, r.Together, tt.want, tt.together)
			}
			// The grace is held inside the first beat: the reveal ends when
			// it would have without one.
			if !r.Beats[0].At.Equal(at(2000)) || !s.Deadline().Equal(at(revealEnd)) {
				t.Errorf("got beats from %v ending %v, want from 2000 ending %v", r.Beats[0].At, s.Deadline(), at(revealEnd))
			}
			if len(tt.together) > 0 && !strings.Contains(r.Beats[0].Say, SeatName(tt.want)+" called together") {
				t.Errorf("got the shout beat %q, want it to name %s as the winner", r.Beats[0].Say, SeatName(tt.want))
			}
		})
	}
}

// TestCallAfterTheGraceIsRefused: a call at the grace's end or later is
// refused harmlessly, naming who won; a loser told it lost; a repeat told it
// was done; a pass in the grace is harmless.
func TestCallAfterTheGraceIsRefused(t *testing.T) {
	s := graceTable(t)
	run(t, s, []step{playSneak, callBy(3, 2000), callBy(2, 2100)})
	err := refusedUnchanged(t, s, callBy(3, 2120).a, at(2120))
	if got, want := err.Error(), "You've called it."; got != want {
		t.Errorf("a repeat in the grace: got %q, want %q", got, want)
	}
	run(t, s, []step{{a: Action{Kind: ActPass, Seat: 1, No: 1}, ms: 2140}})
	if s.Phase() != PhaseShout {
		t.Fatalf("a pass in the grace: got phase %v, want shout", s.Phase())
	}
	err = refusedUnchanged(t, s, callBy(1, 2145).a, at(2145))
	if got, want := err.Error(), "You let that one go."; got != want {
		t.Errorf("a call after a pass: got %q, want %q", got, want)
	}
	tests := []struct {
		seat, ms int
		want     string
	}{
		{1, 2150, "Seat 2 beat you to it."},
		{3, 2151, "You called together with Seat 2, who was nearer the player's left and has it."},
		{2, 2200, "You've called it."},
		{0, 2200, "There's nothing to call right now."},
	}
	for _, tt := range tests {
		err := refusedUnchanged(t, s, callBy(tt.seat, tt.ms).a, at(tt.ms))
		if got := err.Error(); got != tt.want || codeOf(t, err) == CodeIllegal {
			t.Errorf("seat %d at %d: got %q (%s), want %q", tt.seat, tt.ms, got, codeOf(t, err), tt.want)
		}
	}
	e, ok := refusedUnchanged(t, s, callBy(1, 2200).a, at(2200)).(*Error)
	if !ok {
		t.Fatal("not an *Error")
	}
	named, ok := e.Named(func(seat int) string { return map[int]string{2: "Bo"}[seat] })
	if !ok || named != "Bo beat you to it." {
		t.Errorf("named by the server: got %q (%v), want %q", named, ok, "Bo beat you to it.")
	}
}

// TestGraceOffIsFirstCome: without a grace a call is turned up at once and
// a second, even at the same moment, is refused.
func TestGraceOffIsFirstCome(t *testing.T) {
	s := rulesTable(t, Options{})
	run(t, s, []step{playSneak, callBy(3, 2000)})
	if s.Phase() != PhaseReveal || s.last.Caller != 3 {
		t.Fatalf("got phase %v caller %d, want a reveal called by 3", s.Phase(), s.last.Caller)
	}
	refusedUnchanged(t, s, callBy(1, 2000).a, at(2000))
}

// TestGraceResumes: a server down during the grace gives it back whole.
func TestGraceResumes(t *testing.T) {
	s := graceTable(t)
	run(t, s, []step{playSneak, callBy(3, 2000)})
	mustApply(t, s, Action{Kind: ActResume, Seat: -1, Since: at(2100)}, at(60_000))
	if got, want := s.Deadline(), at(60_050); !got.Equal(want) {
		t.Fatalf("got the grace closing at %v, want %v", got, want)
	}
	run(t, s, []step{callBy(1, 60_040), {ms: 60_050, tick: true}})
	if r := s.View(1).Reveal; r == nil || r.Caller != 1 || !r.Beats[0].At.Equal(at(59_900)) {
		t.Errorf("got reveal %+v, want seat 1's, its first beat at the shifted first call", r)
	}
}

func TestGraceLimits(t *testing.T) {
	for _, tt := range []struct {
		grace time.Duration
		ok    bool
	}{
		{0, true}, {time.Millisecond, true}, {StandardGrace, true}, {MaxGrace, true},
		{-time.Millisecond, false}, {MaxGrace + time.Millisecond, false}, {150*time.Millisecond + 1, false},
	} {
		o := Standard(4)
		o.Grace = tt.grace
		if err := o.Validate(); (err == nil) != tt.ok {
			t.Errorf("grace %v: got %v, want ok %v", tt.grace, err, tt.ok)
		}
	}
	for v := 1; v <= CurrentRules; v++ {
		r, err := RulesOf(v)
		if err != nil {
			t.Fatal(err)
		}
		if MaxGrace >= r.Beats[CueShout] {
			t.Errorf("rules %d: the longest grace %v does not fit in the shout beat %v", v, MaxGrace, r.Beats[CueShout])
		}
	}
	if got := GraceOf(0.15); got != 150*time.Millisecond {
		t.Errorf("GraceOf(0.15): got %v, want 150ms", got)
	}
}
