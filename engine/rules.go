package engine

import (
	"errors"
	"fmt"
	"maps"
	"time"
)

// CurrentRules is the rules version new games are played under.
const CurrentRules = 1

// ErrUnknownRules is a game whose rules version this engine does not have,
// such as one stored by a newer server: it cannot be replayed faithfully,
// so it is not replayed at all.
var ErrUnknownRules = errors.New("unknown rules version")

// Rules are the constants a game is played with that its options do not
// hold: how long the reveal's beats and the hand-over last, where the play
// cap ends a game, and which cards a hand-over that runs out hands over. A
// stored game is replayed with its own version's rules, so changing any of
// them means adding a version, never editing one that games were played
// under.
type Rules struct {
	Version int
	// GiveTime is how long a caller has to pick the cards to hand over.
	GiveTime time.Duration
	// Beats is how long each of the reveal's four beats lasts.
	Beats map[Cue]time.Duration
	// PlayCap ends a game that reaches this many plays.
	PlayCap int
	// leastUseful picks the cards a hand-over that runs out hands over.
	leastUseful func(hand []Card, first, seats, k int) []Card
	// lasts are each beat's length, in the beats' order, and revealTime
	// their sum, worked out once (timed says when) for the rulebook's
	// entries: every call turns a play up.
	lasts      [len(cues)]time.Duration
	revealTime time.Duration
	timed      bool
}

// cues are the reveal's beats in order.
var cues = [...]Cue{CueShout, CueFlip, CueVerdict, CueTake}

func init() {
	for _, r := range rulebook {
		r.lasts, r.revealTime = r.beatTimes()
		r.timed = true
	}
}

// beatTimes are each beat's length, in order, and the whole reveal's.
func (r *Rules) beatTimes() (lasts [len(cues)]time.Duration, total time.Duration) {
	if r.timed {
		return r.lasts, r.revealTime
	}
	for i, c := range cues {
		lasts[i] = r.Beats[c]
	}
	return lasts, r.RevealTime()
}

// rulebook is every rules version, each frozen once a game was played
// under it. The values are written out, not taken from GiveTime, PlayCap
// or RevealBeats, so that changing those cannot change an old version.
var rulebook = map[int]*Rules{
	1: {
		Version:  1,
		GiveTime: 12 * time.Second,
		Beats: map[Cue]time.Duration{
			CueShout:   700 * time.Millisecond,
			CueFlip:    1500 * time.Millisecond,
			CueVerdict: 1000 * time.Millisecond,
			CueTake:    1000 * time.Millisecond,
		},
		PlayCap:     500,
		leastUseful: leastUsefulByWait,
	},
}

// RulesOf is rules version v; 0 is the current version. A version this
// engine does not have is ErrUnknownRules.
func RulesOf(v int) (Rules, error) {
	r, err := rulesOf(v)
	if err != nil {
		return Rules{}, err
	}
	return r.clone(), nil
}

// rulesOf is the rulebook's own entry, shared by every game of the version
// and never changed.
func rulesOf(v int) (*Rules, error) {
	if v == 0 {
		v = CurrentRules
	}
	r, ok := rulebook[v]
	if !ok {
		return nil, fmt.Errorf("%w %d: this server knows versions 1 to %d", ErrUnknownRules, v, CurrentRules)
	}
	return r, nil
}

// clone is a copy the caller may change.
func (r *Rules) clone() Rules {
	c := *r
	c.Beats = maps.Clone(r.Beats)
	return c
}

// RevealTime is how long a whole reveal lasts.
func (r Rules) RevealTime() time.Duration {
	var total time.Duration
	for _, d := range r.Beats {
		total += d
	}
	return total
}

// Rules are the rules the game is played with.
func (s *State) Rules() Rules { return s.rules.clone() }
