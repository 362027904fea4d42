package engine

import (
	"strings"
	"time"
)

// Cue names one beat of a reveal.
type Cue string

// The reveal's four beats, in order.
const (
	CueShout   Cue = "shout"
	CueFlip    Cue = "flip"
	CueVerdict Cue = "verdict"
	CueTake    Cue = "take"
)

// RevealBeats are how long each beat of a reveal lasts under the current
// rules. A game uses its own version's (see Rules), so nothing outside the
// engine reads these to time a game: the view's beats carry their own end
// times (Beat.Ends) and the sweep's (Reveal.Lands). Every screen plays
// them at the same moments, so the server times them: a beat for the shout to
// land, a longer one to turn the cards one by one, a pause on the verdict, and
// the pile sweeping to whoever takes it. About four seconds in all, short
// beside the seven a play takes, long enough to follow on a phone.
var RevealBeats = map[Cue]time.Duration{
	CueShout:   700 * time.Millisecond,
	CueFlip:    1500 * time.Millisecond,
	CueVerdict: 1000 * time.Millisecond,
	CueTake:    1000 * time.Millisecond,
}

// Beat is one step of a reveal: what is said, from At until Ends (the next
// beat's At, or the sweep landing for the last), timed by the game's own
// rules version.
type Beat struct {
	Cue  Cue       `json:"cue"`
	At   time.Time `json:"at"`
	Ends time.Time `json:"ends"`
	Say  string    `json:"say"`
}

// Showdown is a called play turned up.
type Showdown struct {
	Caller  int    `json:"caller"`
	Seat    int    `json:"seat"`
	Cards   []Card `json:"cards"`
	Truth   bool   `json:"truth"`
	Sneaked int    `json:"sneaked"`
	Loser   int    `json:"loser"`
	Took    Range  `json:"took"`
	// Given is how many cards the caller hands the caught sneaker.
	Given int `json:"given"`
	// Together are the other seats that called within the grace of the
	// first call and lost it to Caller, nearer the player's left.
	Together []int `json:"together,omitempty"`
}

// showdown turns the last play up. A lie (a card not the rank, or anything
// sneaked under it) and its player takes the pile, and if they sneaked, the
// caller hands them cards of the caller's choosing; the truth and the caller
// takes the pile. together are the seats that called with caller and lost
// it; the reveal's beats start at start, the first call, and the play is
// turned up at now, the end of the grace (start itself without one).
func (s *State) showdown(caller int, together []int, start, now time.Time) {
	last := s.last
	truth := last.Truth()
	sneaked := last.Sneaked()
	loser := caller
	if !truth {
		loser = last.Seat
	}
	t := s.tally
	t.Calls[caller]++
	if !truth {
		t.Right[caller]++
		t.Lies[last.Seat]++
	}
	if sneaked > 0 {
		t.Caught[last.Seat]++
	}
	took := Seen(len(s.pile), PileKind)
	s.swept = append(s.swept[:0], s.hands[loser]...)
	s.sweptDealt = s.changed&(1<<loser) == 0
	s.changed |= 1 << loser
	s.hands[loser] = append(s.hands[loser], s.pile...)
	sortCards(s.hands[loser])
	t.Pickups[loser]++
	s.pile = s.pile[:0] // its cards were copied to the loser's hand
	// The caller keeps one card at least: a call never puts anyone out.
	give := max(0, min(s.opts.Penalty.Owed(sneaked), len(s.hands[caller])-1))
	last.Shown, last.Caller = true, caller
	sd := &Showdown{Caller: caller, Seat: last.Seat, Cards: last.cards, Truth: truth,
		Sneaked: sneaked, Loser: loser, Took: took, Given: give, Together: together}
	s.emit(&Event{At: now, Kind: EventCalled, No: last.No, Seat: last.Seat, Caller: seatRef(caller), Rank: rankRef(last.Rank),
		Claim: last.Claim, Cards: last.cards, Showdown: sd})

	lasts, total := s.rules.beatTimes()
	s.beats = revealBeats(start, *sd, &lasts, s.spareBeats[:0])
	s.spareBeats = nil
	s.phase = PhaseReveal
	s.until = start.Add(total)
	s.next = afterNext
	if truth && last.Out {
		s.next = afterWin
	}
	s.owed = give
}

// revealBeats are the reveal's beats from now, appended to beats.
func revealBeats(now time.Time, sd Showdown, lasts *[len(cues)]time.Duration, beats []Beat) []Beat {
	if cap(beats) < len(cues) {
		beats = make([]Beat, 0, len(cues))
	}
	var flip strings.Builder
	flip.Grow(len("The play is turned up: .") + 20*len(sd.Cards))
	flip.WriteString("The play is turned up: ")
	for i, c := range sd.Cards {
		if i > 0 {
			flip.WriteString(", ")
		}
		flip.WriteString(c.Name())
	}
	flip.WriteString(".")
	verdict := "It was the truth."
	switch {
	case sd.Sneaked > 0:
		verdict = "Caught sneaking!"
	case !sd.Truth:
		verdict = "It was a lie."
	}
	take := "The pile goes to the player."
	if sd.Truth {
		take = "The pile goes to the caller."
	}
	says := []struct {
		cue Cue
		say string
	}{
		{CueShout, shoutSay(sd)},
		{CueFlip, flip.String()},
		{CueVerdict, verdict},
		{CueTake, take},
	}
	at := now
	for i, b := range says {
		beats = append(beats, Beat{Cue: b.cue, At: at, Ends: at.Add(lasts[i]), Say: b.say})
		at = at.Add(lasts[i])
	}
	return beats
}

// shoutSay is what the shout beat says: who won the call, when others
// called with them.
func shoutSay(sd Showdown) string {
	if len(sd.Together) == 0 {
		return "Bullshit!"
	}
	names := make([]string, len(sd.Together))
	for i, seat := range sd.Together {
		names[i] = SeatName(seat)
	}
	return "Bullshit! " + SeatName(sd.Caller) + " called together with " + strings.Join(names, ", ") +
		" and has it, nearest the player's left."
}

// dropBeats ends the reveal's beats, keeping their array for the next.
func (s *State) dropBeats() {
	if s.beats != nil {
		s.spareBeats = s.beats
	}
	s.beats = nil
}

// endReveal follows the reveal: the win, the hand-over, or the next play.
func (s *State) endReveal(now time.Time) {
	switch {
	case s.next == afterWin:
		s.dropBeats()
		s.goOut(s.last.Seat, now)
	case s.owed > 0:
		s.phase = PhaseGive
		s.until = now.Add(s.rules.GiveTime)
		s.dropBeats()
	default:
		s.advance(now)
	}
}
