package engine

import (
	"slices"
	"testing"
	"time"
)

// down is how long the server is down in the resume tests: far longer than
// any clock in the game.
const down = 10 * time.Minute

func resumeAction(since time.Time) Action { return Action{Kind: ActResume, Seat: -1, Since: since} }

func TestResumeMovesEveryClockOn(t *testing.T) {
	tests := []struct {
		name  string
		steps []step
		// since is when the server was last known running (ms), and
		// wantPhase and wantDeadline (ms, before the shift; 0 for none)
		// what the resume finds.
		since        int
		wantPhase    Phase
		wantDeadline int
	}{
		{"call window", []step{playTrue}, 3000, PhaseCall, windowEnd},
		{"reveal", []step{playSneak, call1}, 2500, PhaseReveal, revealEnd},
		{"hand-over", []step{playSneak, call1, revealOver}, inGive, PhaseGive, giveEnd},
		{"a turn", []step{playTrue, pass1, pass2, pass3}, 5000, PhasePlay, 0},
		{"a window that closed before the stop", []step{playTrue}, windowEnd + 500, PhasePlay, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := rulesTable(t, Options{})
			run(t, s, tt.steps)
			s.Tick(at(tt.since))
			before := s.View(1)
			beats := slices.Clone(s.beats)
			back := at(tt.since).Add(down)
			mustApply(t, s, resumeAction(at(tt.since)), back)

			if s.Phase() != tt.wantPhase {
				t.Fatalf("got phase %v after the resume, want %v", s.Phase(), tt.wantPhase)
			}
			want := time.Time{}
			if tt.wantDeadline != 0 {
				want = at(tt.wantDeadline).Add(down)
			}
			if got := s.Deadline(); !got.Equal(want) {
				t.Errorf("got deadline %v, want %v", got, want)
			}
			after := s.View(1)
			if !after.Closes.Equal(want) {
				t.Errorf("got the view closing at %v, want %v", after.Closes, want)
			}
			if after.Version != before.Version+1 {
				t.Errorf("got version %d, want %d: the new deadline is news", after.Version, before.Version+1)
			}
			if !slices.Equal(after.Deciding, before.Deciding) || !slices.Equal(after.Can, before.Can) {
				t.Errorf("got deciding %v can %v, want %v and %v as before", after.Deciding, after.Can, before.Deciding, before.Can)
			}
			for i, b := range s.beats {
				if !b.At.Equal(beats[i].At.Add(down)) {
					t.Errorf("beat %s at %v, want %v", b.Cue, b.At, beats[i].At.Add(down))
				}
			}
			last := s.Log(Spectator)[len(s.Log(Spectator))-1]
			if last.Kind != EventResumed || !last.At.Equal(back) || !last.Since.Equal(at(tt.since)) {
				t.Errorf("got the last line %+v, want resumed at %v since %v", last, back, at(tt.since))
			}
			if want.IsZero() {
				return
			}
			// The clock runs on from the resume with the time it had left.
			if s.Tick(want.Add(-time.Millisecond)) {
				t.Errorf("the %s ended before its shifted deadline", tt.wantPhase)
			}
			if !s.Tick(want) {
				t.Errorf("the %s did not end at its shifted deadline", tt.wantPhase)
			}
		})
	}
}

func TestResumeSettlesWhatFellDueBeforeTheStopAtItsTime(t *testing.T) {
	s := rulesTable(t, Options{})
	run(t, s, []step{playTrue})
	mustApply(t, s, resumeAction(at(windowEnd+500)), at(windowEnd+500).Add(down))
	log := s.Log(Spectator)
	stood := slices.IndexFunc(log, func(e Event) bool { return e.Kind == EventStood })
	if stood < 0 || !log[stood].At.Equal(at(windowEnd)) {
		t.Fatalf("got log %+v, want the play to stand at %v, before the stop", log, at(windowEnd))
	}
	if log[len(log)-1].Kind != EventResumed {
		t.Errorf("got the last line %+v, want the resume after the window closed", log[len(log)-1])
	}
}

func TestAShoutAfterAResumeIsInTime(t *testing.T) {
	s := rulesTable(t, Options{})
	run(t, s, []step{playTrue})
	// Down two seconds before the window closes, for far longer than it
	// lasts; seat 1 shouts a second after the server is back.
	since := at(windowEnd - 2000)
	mustApply(t, s, resumeAction(since), since.Add(down))
	mustApply(t, s, Action{Kind: ActCall, Seat: 1, No: 1}, since.Add(down+time.Second))
	if s.Phase() != PhaseReveal || s.last.Caller != 1 {
		t.Errorf("got phase %v with caller %d, want seat 1's call turning the play up", s.Phase(), s.last.Caller)
	}
}

func TestResumeRefusals(t *testing.T) {
	over := rulesTable(t, Options{})
	over.End(at(500))
	tests := []struct {
		name      string
		s         *State
		since, at time.Time
		want      Code
	}{
		{"from before the last change", rulesTable(t, Options{}), t0.Add(-time.Second), at(1000), CodeIllegal},
		{"with no time down", rulesTable(t, Options{}), at(1000), at(1000), CodeIllegal},
		{"back before it went down", rulesTable(t, Options{}), at(2000), at(1000), CodeIllegal},
		{"a game over", over, at(1000), at(2000), CodeOver},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before, lines := tt.s.View(0), tt.s.LogLen()
			if got := codeOf(t, tt.s.Apply(resumeAction(tt.since), tt.at)); got != tt.want {
				t.Errorf("got code %q, want %q", got, tt.want)
			}
			if after := tt.s.View(0); after.Version != before.Version || tt.s.LogLen() != lines {
				t.Errorf("a refused resume changed the state: version %d, %d lines, want %d and %d", after.Version, tt.s.LogLen(), before.Version, lines)
			}
		})
	}
}
