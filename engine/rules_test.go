package engine

import (
	"errors"
	"maps"
	"slices"
	"testing"
	"time"
)

// TestRulesVersionsAreFrozen writes out every version's values: games were
// played under them, so a change here means a new version instead.
func TestRulesVersionsAreFrozen(t *testing.T) {
	tests := []struct {
		version  int
		giveTime time.Duration
		beats    map[Cue]time.Duration
		playCap  int
	}{
		{1, 12 * time.Second, map[Cue]time.Duration{
			CueShout: 700 * time.Millisecond, CueFlip: 1500 * time.Millisecond,
			CueVerdict: 1000 * time.Millisecond, CueTake: 1000 * time.Millisecond,
		}, 500},
	}
	if len(tests) != len(rulebook) {
		t.Errorf("got %d rules versions, want %d written out here", len(rulebook), len(tests))
	}
	for _, tt := range tests {
		r, err := RulesOf(tt.version)
		if err != nil {
			t.Fatalf("RulesOf(%d): %v", tt.version, err)
		}
		if r.Version != tt.version || r.GiveTime != tt.giveTime || r.PlayCap != tt.playCap || !maps.Equal(r.Beats, tt.beats) {
			t.Errorf("version %d: got %+v, want hand-over %v, beats %v, cap %d", tt.version, r, tt.giveTime, tt.beats, tt.playCap)
		}
	}
	// Version 1 hands over the rank the caller will be asked for last.
	hand := cards(t, "2S 6H JD QC 3C")
	if got, want := rulebook[1].leastUseful(hand, 1, 4, 2), cards(t, "JD 3C"); !slices.Equal(got, want) {
		t.Errorf("version 1's least useful: got %v, want %v", got, want)
	}
}

// TestCurrentRulesMatchTheConstants keeps the exported constants, which the
// docs and the simulator quote, equal to the rules new games get.
func TestCurrentRulesMatchTheConstants(t *testing.T) {
	r, err := RulesOf(CurrentRules)
	if err != nil {
		t.Fatal(err)
	}
	zero, err := RulesOf(0)
	if err != nil || zero.Version != CurrentRules {
		t.Errorf("RulesOf(0): got version %d (%v), want %d", zero.Version, err, CurrentRules)
	}
	if r.GiveTime != GiveTime || r.PlayCap != PlayCap || !maps.Equal(r.Beats, RevealBeats) {
		t.Errorf("current rules %+v differ from GiveTime %v, PlayCap %d, RevealBeats %v: a change of rules is a new version in rulebook",
			r, GiveTime, PlayCap, RevealBeats)
	}
}

func TestUnknownRulesAreAnError(t *testing.T) {
	for _, v := range []int{-1, CurrentRules + 1, 99} {
		opts := firstCome(4)
		opts.Rules = v
		if _, err := New(opts, 1, t0); !errors.Is(err, ErrUnknownRules) {
			t.Errorf("New with rules %d: got %v, want %v", v, err, ErrUnknownRules)
		}
		if _, err := RulesOf(v); !errors.Is(err, ErrUnknownRules) {
			t.Errorf("RulesOf(%d): got %v, want %v", v, err, ErrUnknownRules)
		}
	}
}

// TestGameUsesItsOwnRules plays the same call under version 1 and under a
// made-up version with other timings, cap and pick: each game keeps to its
// own version's.
func TestGameUsesItsOwnRules(t *testing.T) {
	const test = 1000
	rulebook[test] = &Rules{
		Version:  test,
		GiveTime: 3 * time.Second,
		Beats: map[Cue]time.Duration{
			CueShout: 100 * time.Millisecond, CueFlip: 200 * time.Millisecond,
			CueVerdict: 300 * time.Millisecond, CueTake: 400 * time.Millisecond,
		},
		PlayCap: 2,
		// The lowest cards, unlike any real version.
		leastUseful: func(hand []Card, _, _, k int) []Card { return slices.Clone(hand[:k]) },
	}
	t.Cleanup(func() { delete(rulebook, test) })

	tests := []struct {
		rules                 int
		revealEnd, giveEnd    int
		given                 []Card
		cappedAfterSecondPlay bool
	}{
		{rules: 1, revealEnd: 2000 + 4200, giveEnd: 2000 + 4200 + 12000, given: cards(t, "JD")},
		{rules: test, revealEnd: 2000 + 1000, giveEnd: 2000 + 1000 + 3000, given: cards(t, "2S"), cappedAfterSecondPlay: true},
	}
	for _, tt := range tests {
		opts := firstCome(4)
		opts.Rules = tt.rules
		s := rulesTable(t, opts)
		if got := s.Rules().Version; got != tt.rules {
			t.Errorf("rules %d: got Rules().Version %d", tt.rules, got)
		}
		run(t, s, []step{playSneak, call1})
		if got, want := s.Deadline(), at(tt.revealEnd); !got.Equal(want) {
			t.Errorf("rules %d: reveal ends at %v, want %v", tt.rules, got, want)
		}
		if beats := s.View(Spectator).Reveal.Beats; !beats[3].At.Equal(at(tt.revealEnd).Add(-s.Rules().Beats[CueTake])) {
			t.Errorf("rules %d: the take beat starts at %v, want %v before the end", tt.rules, beats[3].At, s.Rules().Beats[CueTake])
		}
		s.Tick(at(tt.revealEnd))
		if got, want := s.Deadline(), at(tt.giveEnd); !got.Equal(want) {
			t.Errorf("rules %d: hand-over ends at %v, want %v", tt.rules, got, want)
		}
		if got := s.View(1).Give.Suggested; !slices.Equal(got, tt.given) {
			t.Errorf("rules %d: suggested %v, want %v", tt.rules, got, tt.given)
		}
		s.Tick(at(tt.giveEnd))
		if got := s.hands[0]; !slices.Contains(got, tt.given[0]) {
			t.Errorf("rules %d: the sneaker holds %v, want %v handed over", tt.rules, got, tt.given)
		}
		mustApply(t, s, Action{Kind: ActPlay, Seat: 1, No: 1, Cards: cards(t, "6H")}, at(tt.giveEnd+1000))
		s.Tick(at(tt.giveEnd + 1000 + ms(StandardWindow)))
		if s.Capped() != tt.cappedAfterSecondPlay {
			t.Errorf("rules %d: capped after 2 plays %v, want %v", tt.rules, s.Capped(), tt.cappedAfterSecondPlay)
		}
	}
}
