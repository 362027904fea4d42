package engine

import (
	"testing"
	"time"
)

// rulesTable is a four-seat table where seat 0 plays aces first: it holds
// three aces and seven other cards, and seat 1 holds five cards, including a
// jack it would rather be rid of.
func rulesTable(tb testing.TB, opts Options) *State {
	tb.Helper()
	if opts.Seats == 0 {
		opts = firstCome(4)
	}
	return stage(tb, table{
		opts: opts,
		hands: map[int]string{
			0: "AS AH AD 5D 7C KS 2H 3H 4H 9D",
			1: "2S 6H JD QC 3C",
		},
	})
}

// step is an accepted move in a scenario, or with tick set, the clock
// running to the given time.
type step struct {
	a    Action
	ms   int
	tick bool
}

// run plays the steps, each of which must be accepted.
func run(tb testing.TB, s *State, steps []step) {
	tb.Helper()
	for _, st := range steps {
		if st.tick {
			s.Tick(at(st.ms))
			continue
		}
		mustApply(tb, s, st.a, at(st.ms))
	}
}

// The times of the scenarios below, in milliseconds: the first play is made at
// 1000, a call at 2000.
var (
	// windowEnd is when the first play's call window closes.
	windowEnd = 1000 + ms(StandardWindow)
	// revealEnd is when the reveal of a call made at 2000 ends.
	revealEnd = 2000 + ms(RevealBeats[CueShout]+RevealBeats[CueFlip]+RevealBeats[CueVerdict]+RevealBeats[CueTake])
	// inGive is a moment in the hand-over that follows it, giveEnd its end.
	inGive  = revealEnd + 300
	giveEnd = revealEnd + ms(GiveTime)
)

func ms(d time.Duration) int { return int(d / time.Millisecond) }

// Moves used by the scenarios below.
var (
	// playSneak: seat 0 claims two aces and slips the 5 under them.
	playSneak = step{a: Action{Kind: ActPlay, Seat: 0, No: 0, Cards: []Card{NewCard(Ace, Spades, 0), NewCard(Ace, Hearts, 0), NewCard(Five, Diamonds, 0)}, Claim: 2}, ms: 1000}
	// playTrue: seat 0 claims two aces, truly.
	playTrue = step{a: Action{Kind: ActPlay, Seat: 0, No: 0, Cards: []Card{NewCard(Ace, Spades, 0), NewCard(Ace, Hearts, 0)}}, ms: 1000}
	call1    = step{a: Action{Kind: ActCall, Seat: 1, No: 1}, ms: 2000}
	pass1    = step{a: Action{Kind: ActPass, Seat: 1, No: 1}, ms: 2000}
	pass2    = step{a: Action{Kind: ActPass, Seat: 2, No: 1}, ms: 2100}
	pass3    = step{a: Action{Kind: ActPass, Seat: 3, No: 1}, ms: 2200}
	// revealOver: the reveal of a call made at 2000 ends; a hand-over, if
	// one is owed, starts.
	revealOver = step{ms: revealEnd, tick: true}
	giveJack   = step{a: Action{Kind: ActGive, Seat: 1, No: 1, Cards: []Card{NewCard(Jack, Diamonds, 0)}}, ms: inGive}
	giveTimes  = step{ms: giveEnd, tick: true}
	toClose    = step{ms: windowEnd, tick: true}
)

func TestRefusals(t *testing.T) {
	two := firstCome(7)
	off, one := firstCome(4), firstCome(4)
	off.Sneak, one.Sneak = 0, 1
	perCard2 := firstCome(4)
	perCard2.Penalty = Penalty{Cards: 1, PerCard: true}
	c := func(codes string) []Card { return cards(t, codes) }
	playSneak2 := step{a: Action{Kind: ActPlay, Seat: 0, Cards: c("AS 5D 7C"), Claim: 1}, ms: 1000}
	tests := []struct {
		name   string
		opts   Options
		before []step
		a      Action
		ms     int
		want   string
		code   Code
	}{
		// Plays.
		{name: "not your turn", a: Action{Kind: ActPlay, Seat: 1, Cards: c("2S")}, want: "It isn't your turn.", code: CodeNotYourTurn},
		{name: "play during the window", before: []step{playTrue}, a: Action{Kind: ActPlay, Seat: 1, No: 1, Cards: c("2S")}, ms: 1500, want: "It isn't your turn.", code: CodeNotYourTurn},
		{name: "play again during own window", before: []step{playTrue}, a: Action{Kind: ActPlay, Seat: 0, No: 1, Cards: c("AD")}, ms: 1500, want: "It isn't your turn.", code: CodeNotYourTurn},
		{name: "no cards", a: Action{Kind: ActPlay, Seat: 0}, want: "Pick the cards to play.", code: CodeIllegal},
		{name: "card not held", a: Action{Kind: ActPlay, Seat: 0, Cards: c("AC")}, want: "That card isn't in your hand.", code: CodeIllegal},
		{name: "second deck's copy not held", a: Action{Kind: ActPlay, Seat: 0, Cards: []Card{NewCard(Ace, Spades, 1)}}, want: "That card isn't in your hand.", code: CodeIllegal},
		{name: "duplicate card", a: Action{Kind: ActPlay, Seat: 0, Cards: c("AS AS")}, want: "That card isn't in your hand.", code: CodeIllegal},
		{name: "no such card", a: Action{Kind: ActPlay, Seat: 0, Cards: []Card{200}}, want: "That card isn't in your hand.", code: CodeIllegal},
		{name: "claim too many", a: Action{Kind: ActPlay, Seat: 0, Cards: c("AS AH AD 5D 7C"), Claim: 5}, want: "Claim 1 to 4 cards.", code: CodeIllegal},
		{name: "claim all of five", a: Action{Kind: ActPlay, Seat: 0, Cards: c("AS AH AD 5D 7C")}, want: "Claim 1 to 4 cards.", code: CodeIllegal},
		{name: "negative claim", a: Action{Kind: ActPlay, Seat: 0, Cards: c("AS"), Claim: -1}, want: "Claim 1 to 4 cards.", code: CodeIllegal},
		{name: "claim more than put down", a: Action{Kind: ActPlay, Seat: 0, Cards: c("AS AH"), Claim: 3}, want: "You can't claim more cards than you put down.", code: CodeIllegal},
		{name: "sneak past 2", a: Action{Kind: ActPlay, Seat: 0, Cards: c("AS 5D 7C KS"), Claim: 1}, want: "You can sneak 2 extra cards at most.", code: CodeIllegal},
		{name: "sneak past 1", opts: one, a: Action{Kind: ActPlay, Seat: 0, Cards: c("AS 5D 7C"), Claim: 1}, want: "You can sneak 1 extra card at most.", code: CodeIllegal},
		{name: "sneaking off", opts: off, a: Action{Kind: ActPlay, Seat: 0, Cards: c("AS 5D"), Claim: 1}, want: "Sneaking is off at this table.", code: CodeIllegal},
		{name: "two decks: claim 9", opts: two, a: Action{Kind: ActPlay, Seat: 0, Cards: c("AS AH AD 5D 7C KS 2H 3H 4H"), Claim: 9}, want: "Claim 1 to 8 cards.", code: CodeIllegal},
		{name: "stale play number", a: Action{Kind: ActPlay, Seat: 0, No: 1, Cards: c("AS")}, want: "Too late: the table has moved on.", code: CodeStale},
		{name: "repeated play", before: []step{playTrue, pass1, pass2, pass3}, a: playTrue.a, ms: 2500, want: "Too late: the table has moved on.", code: CodeStale},
		{name: "seat off the table", a: Action{Kind: ActPlay, Seat: 4, Cards: c("2S")}, want: "There's no such seat at this table.", code: CodeIllegal},
		{name: "negative seat", a: Action{Kind: ActPass, Seat: -1}, want: "There's no such seat at this table.", code: CodeIllegal},
		{name: "no such move", a: Action{Kind: "fold", Seat: 0}, want: "That isn't a move in this game.", code: CodeIllegal},

		// Calls and letting go.
		{name: "call before any play", a: Action{Kind: ActCall, Seat: 1}, want: "There's nothing to call right now.", code: CodeNotYourTurn},
		{name: "call own play", before: []step{playTrue}, a: Action{Kind: ActCall, Seat: 0, No: 1}, ms: 1500, want: "You can't call your own play.", code: CodeNotYourTurn},
		{name: "let own play go", before: []step{playTrue}, a: Action{Kind: ActPass, Seat: 0, No: 1}, ms: 1500, want: "It's your own play: the others decide.", code: CodeNotYourTurn},
		{name: "call after letting go", before: []step{playTrue, pass1}, a: Action{Kind: ActCall, Seat: 1, No: 1}, ms: 2500, want: "You let that one go.", code: CodeStale},
		{name: "repeated let go", before: []step{playTrue, pass1}, a: pass1.a, ms: 2500, want: "You let that one go.", code: CodeStale},
		{name: "second caller", before: []step{playTrue, call1}, a: Action{Kind: ActCall, Seat: 2, No: 1}, ms: 2001, want: "Seat 1 beat you to it.", code: CodeStale},
		{name: "repeated call", before: []step{playTrue, call1}, a: call1.a, ms: 2001, want: "You've called it.", code: CodeStale},
		{name: "repeated call in the hand-over", before: []step{playSneak, call1, revealOver}, a: call1.a, ms: inGive, want: "You've called it.", code: CodeStale},
		{name: "player calls in the reveal", before: []step{playTrue, call1}, a: Action{Kind: ActCall, Seat: 0, No: 1}, ms: 2500, want: "There's nothing to call right now.", code: CodeNotYourTurn},
		{name: "let go in the reveal", before: []step{playTrue, call1}, a: Action{Kind: ActPass, Seat: 2, No: 1}, ms: 2500, want: "Too late: that play was already settled.", code: CodeStale},
		{name: "late shout after the window", before: []step{playTrue, toClose}, a: Action{Kind: ActCall, Seat: 1, No: 1}, ms: windowEnd, want: "Too late: that play was already settled.", code: CodeStale},
		{name: "shout sent after the deadline", before: []step{playTrue}, a: Action{Kind: ActCall, Seat: 1, No: 1}, ms: windowEnd, want: "Too late: that play was already settled.", code: CodeStale},
		{name: "shout at a play that stood", before: []step{playTrue, pass1, pass2, pass3}, a: Action{Kind: ActCall, Seat: 2, No: 1}, ms: 2500, want: "Too late: that play was already settled.", code: CodeStale},
		{name: "shout at an older play", before: []step{playTrue, pass1, pass2, pass3, {a: Action{Kind: ActPlay, Seat: 1, No: 1, Cards: c("2S")}, ms: 3000}}, a: Action{Kind: ActCall, Seat: 2, No: 1}, ms: 3500, want: "Too late: that play was already settled.", code: CodeStale},

		// Handing over.
		{name: "give in the reveal", before: []step{playSneak, call1}, a: giveJack.a, ms: 2500, want: "There's nothing to hand over now.", code: CodeNotYourTurn},
		{name: "give after a true call", before: []step{playTrue, call1, revealOver}, a: giveJack.a, ms: inGive, want: "There's nothing to hand over now.", code: CodeNotYourTurn},
		{name: "give by someone else", before: []step{playSneak, call1, revealOver}, a: Action{Kind: ActGive, Seat: 2, No: 1, Cards: c("KH")}, ms: inGive, want: "Only the caller hands cards over.", code: CodeNotYourTurn},
		{name: "give two", before: []step{playSneak, call1, revealOver}, a: Action{Kind: ActGive, Seat: 1, No: 1, Cards: c("JD QC")}, ms: inGive, want: "Hand over 1 card.", code: CodeIllegal},
		{name: "give none", before: []step{playSneak, call1, revealOver}, a: Action{Kind: ActGive, Seat: 1, No: 1}, ms: inGive, want: "Hand over 1 card.", code: CodeIllegal},
		{name: "give the same card twice", opts: perCard2, before: []step{playSneak2, call1, revealOver}, a: Action{Kind: ActGive, Seat: 1, No: 1, Cards: c("JD JD")}, ms: inGive, want: "That card isn't in your hand.", code: CodeIllegal},
		{name: "give a card not held", before: []step{playSneak, call1, revealOver}, a: Action{Kind: ActGive, Seat: 1, No: 1, Cards: c("AC")}, ms: inGive, want: "That card isn't in your hand.", code: CodeIllegal},
		{name: "give with a stale number", before: []step{playSneak, call1, revealOver}, a: Action{Kind: ActGive, Seat: 1, No: 0, Cards: c("JD")}, ms: inGive, want: "Too late: that play was already settled.", code: CodeStale},
		{name: "repeated give", before: []step{playSneak, call1, revealOver, giveJack}, a: giveJack.a, ms: inGive + 500, want: "You've handed that over already.", code: CodeStale},
		{name: "give after the timeout", before: []step{playSneak, call1, revealOver, giveTimes}, a: giveJack.a, ms: giveEnd + 300, want: "You've handed that over already.", code: CodeStale},
		{name: "give sent after the deadline", before: []step{playSneak, call1, revealOver}, a: giveJack.a, ms: giveEnd, want: "You've handed that over already.", code: CodeStale},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := rulesTable(t, tt.opts)
			run(t, s, tt.before)
			err := refusedUnchanged(t, s, tt.a, at(tt.ms))
			if got := err.Error(); got != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
			if got := codeOf(t, err); got != tt.code {
				t.Errorf("got code %q, want %q", got, tt.code)
			}
		})
	}
}

func TestGameOverRefusesEverything(t *testing.T) {
	s := stage(t, table{hands: map[int]string{0: "AS", 1: "2S 3S"}})
	run(t, s, []step{{a: Action{Kind: ActPlay, Seat: 0, Cards: cards(t, "AS")}, ms: 1000}, toClose})
	if !s.Over() {
		t.Fatalf("got phase %v, want over", s.Phase())
	}
	for _, a := range []Action{
		{Kind: ActPlay, Seat: 1, No: 1, Cards: cards(t, "2S")},
		{Kind: ActCall, Seat: 1, No: 1},
		{Kind: ActPass, Seat: 2, No: 1},
		{Kind: ActGive, Seat: 1, No: 1},
		{Kind: ActPlay, Seat: 9},
	} {
		err := refusedUnchanged(t, s, a, at(8000))
		if got, want := err.Error(), "The game is over."; got != want {
			t.Errorf("%v: got %q, want %q", a.Kind, got, want)
		}
		if got := codeOf(t, err); got != CodeOver {
			t.Errorf("%v: got code %q, want %q", a.Kind, got, CodeOver)
		}
	}
}

// A move stamped before the state's last change counts as made then: time
// never runs backwards inside a game.
func TestApplyNeverRunsTimeBackwards(t *testing.T) {
	s := rulesTable(t, Options{})
	mustApply(t, s, playTrue.a, at(5000))
	mustApply(t, s, Action{Kind: ActPass, Seat: 1, No: 1}, at(1000))
	if got, want := s.Deadline(), at(5000).Add(StandardWindow); !got.Equal(want) {
		t.Errorf("got deadline %v, want %v", got, want)
	}
	if got := s.log[len(s.log)-1].At; !got.Equal(at(5000)) {
		t.Errorf("got the pass logged at %v, want %v", got, at(5000))
	}
}
