package engine

import (
	"math/bits"
	"math/rand/v2"
	"slices"
	"time"
)

// Phase is what the table is waiting for.
type Phase int8

// The phases of a game.
const (
	// PhasePlay: the seat whose turn it is puts cards down.
	PhasePlay Phase = iota
	// PhaseCall: the call window after a play; anyone else may shout.
	PhaseCall
	// PhaseReveal: a called play is being turned up, in timed beats.
	PhaseReveal
	// PhaseGive: the caller picks the cards a caught sneaker is handed.
	PhaseGive
	// PhaseOver: the game has ended.
	PhaseOver
	// PhaseShout: a play has been called at a table with a grace (see
	// Options.Grace), and other calls may still join the first for the
	// grace's length; the seat nearest the player's left will win it. It
	// is the reveal's first beat, with the cards still face down.
	PhaseShout
)

var phaseNames = [...]string{"play", "call", "reveal", "give", "over", "shout"}

func (p Phase) String() string { return phaseNames[p] }

// MarshalText writes the phase's name.
func (p Phase) MarshalText() ([]byte, error) { return []byte(p.String()), nil }

// UnmarshalText reads a phase's name.
func (p *Phase) UnmarshalText(b []byte) error {
	i := slices.Index(phaseNames[:], string(b))
	if i < 0 {
		return illegal("no such phase")
	}
	*p = Phase(i)
	return nil
}

// Sizes is how a play changed the counts the table sees.
type Sizes struct {
	Hand [2]Range `json:"hand"`
	Pile [2]Range `json:"pile"`
}

// Play is the last play made. Its cards stay secret until it is called.
type Play struct {
	No    int   `json:"no"`
	Seat  int   `json:"seat"`
	Rank  Rank  `json:"rank"`
	Claim int   `json:"claim"`
	Out   bool  `json:"out"`
	Sizes Sizes `json:"sizes"`
	// Shown is set once the play is turned up.
	Shown bool `json:"shown"`
	// Caller is the seat that called it, or -1.
	Caller int `json:"caller"`
	cards  []Card
	// dealt is the player's count before the play while its hand was as
	// dealt, 0 after (see SeatView.Dealt).
	dealt int
	// sizeDoubt is what the counts give away (see sizeDoubt), worked out
	// once for every view of the play.
	sizeDoubt string
}

// Sneaked is how many cards were slipped under the claim.
func (p *Play) Sneaked() int { return len(p.cards) - p.Claim }

// Truth reports whether the play was exactly what it claimed.
func (p *Play) Truth() bool {
	if p.Sneaked() != 0 {
		return false
	}
	for _, c := range p.cards {
		if c.Rank() != p.Rank {
			return false
		}
	}
	return true
}

type window struct {
	no     int
	passed []bool
	closes time.Time
}

// shout is a call being held open for the grace: the seats that called,
// in the order they did, from the first call (first) to closes.
type shout struct {
	callers []int
	first   time.Time
	closes  time.Time
}

// after is what follows the reveal.
type after int8

const (
	afterNext after = iota
	afterWin
)

// Tally counts what each seat did, for the result sheet and the bots.
type Tally struct {
	Calls   []int `json:"calls"`
	Right   []int `json:"right"`
	Lies    []int `json:"lies"`
	Caught  []int `json:"caught"`
	Pickups []int `json:"pickups"`
}

func newTally(n int) Tally {
	return Tally{make([]int, n), make([]int, n), make([]int, n), make([]int, n), make([]int, n)}
}

func (t Tally) clone() Tally {
	return Tally{slices.Clone(t.Calls), slices.Clone(t.Right), slices.Clone(t.Lies), slices.Clone(t.Caught), slices.Clone(t.Pickups)}
}

// State is a whole game, secrets included. It changes only through Apply and
// Tick; View is the only way a secret leaves it.
type State struct {
	opts   Options
	rules  *Rules // the rulebook's entry: shared, never changed
	seed   uint64
	n      int
	dealer int
	hands  [][]Card
	pile   []Card

	phase Phase
	turn  int
	rank  int // the index of the rank called next (RankAt)
	plays int
	last  *Play
	win   *window
	shout *shout
	until time.Time // the end of the reveal or the hand-over
	beats []Beat
	// swept is the hand of the reveal's loser before the pile came to it:
	// the table sees the pile reach it only once the sweep lands.
	swept []Card
	// sweptDealt: the reveal's loser held its hand as dealt until the
	// pile came to it.
	sweptDealt bool
	// changed marks, a bit per seat, the hands that have changed since the
	// deal: until then the whole table knows their exact size.
	changed uint16
	next    after
	owed    int

	tally  Tally
	sneaks []int // plays with a sneak, per seat: secret until the game ends
	result []Place
	// out are the seats that have gone out, in the order they did: the
	// winner, then with PlayOn the places after.
	out    []int
	capped bool
	ended  bool // ended early, by the host

	version int
	log     []line

	// spare is the last closed call window and spareShout the last
	// settled shout, kept to be used again.
	spare      *window
	spareShout *shout
	// spareBeats are the last reveal's beats, kept to be used again.
	spareBeats []Beat
	// cards are every card the log's lines show, and sizeChunk and
	// seatChunk the chunks their other values come from (see arena.go).
	cards     []Card
	sizeChunk []Sizes
	seatChunk []int
}

// New deals a game. The seed fixes the shuffle and the dealer (the seed read
// as a number, modulo the seats); the player on the dealer's left calls aces.
// The game is played under the rules version its options name, which must
// be one this engine has (see RulesOf).
func New(opts Options, seed uint64, now time.Time) (*State, error) {
	if err := opts.Validate(); err != nil {
		return nil, err
	}
	rules, err := rulesOf(opts.Rules)
	if err != nil {
		return nil, err
	}
	n := opts.Seats
	s := &State{
		opts:   opts,
		rules:  rules,
		seed:   seed,
		n:      n,
		dealer: int(seed % uint64(n)),
		tally:  newTally(n),
		sneaks: make([]int, n),
	}
	s.hands = deal(shuffled(opts.Decks(), seed), n, s.dealer)
	s.turn = (s.dealer + 1) % n
	// Room for a short game's lines at once rather than many regrowths.
	s.log, s.cards = make([]line, 0, 64), make([]Card, 0, 64)
	s.emit(&Event{At: now, Kind: EventDeal, Seat: s.dealer})
	return s, nil
}

// shuffled is every card of the decks in the order the seed shuffles them.
func shuffled(decks int, seed uint64) []Card {
	cards := deck(decks)
	rng := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	rng.Shuffle(len(cards), func(i, j int) { cards[i], cards[j] = cards[j], cards[i] })
	return cards
}

// deal hands out every card one at a time, starting on the dealer's left, so
// the first few seats from there may hold one card more. Each hand is sorted.
func deal(cards []Card, seats, dealer int) [][]Card {
	hands := make([][]Card, seats)
	for i, c := range cards {
		seat := (dealer + 1 + i) % seats
		hands[seat] = append(hands[seat], c)
	}
	for _, h := range hands {
		sortCards(h)
	}
	return hands
}

// sortCards sorts cards by order. A hand never holds a card twice, so it
// marks each card's order in a 128-bit set and reads the set back in order:
// a pickup sorts the whole hand, and this is several times quicker than
// comparing. Cards outside two decks, or a card twice, are sorted the slow
// way, with the same result.
func sortCards(cards []Card) {
	var set [2]uint64
	for _, c := range cards {
		if int(c) >= len(orders) {
			slowSort(cards)
			return
		}
		o := orders[c]
		if set[o>>6]&(1<<(o&63)) != 0 {
			slowSort(cards)
			return
		}
		set[o>>6] |= 1 << (o & 63)
	}
	i := 0
	for w, word := range set {
		for ; word != 0; word &= word - 1 {
			cards[i] = byOrder[w<<6|bits.TrailingZeros64(word)]
			i++
		}
	}
}

func slowSort(cards []Card) {
	slices.SortFunc(cards, func(a, b Card) int { return order(a) - order(b) })
}

// Options are the game's settings.
func (s *State) Options() Options { return s.opts }

// Seed is the value that fixed the deal.
func (s *State) Seed() uint64 { return s.seed }

// Seats is the number of players.
func (s *State) Seats() int { return s.n }

// Phase is what the table is waiting for.
func (s *State) Phase() Phase { return s.phase }

// Turn is the seat that plays next (or is playing now).
func (s *State) Turn() int { return s.turn }

// Plays is the number of plays made so far; the last play's number.
func (s *State) Plays() int { return s.plays }

// Version counts the changes to the state; a view carries it.
func (s *State) Version() int { return s.version }

// Over reports whether the game has ended.
func (s *State) Over() bool { return s.phase == PhaseOver }

// Result is every seat's place once the game is over, else nil.
func (s *State) Result() []Place { return slices.Clone(s.result) }

// Capped reports whether the game ended at the play cap rather than with a
// player going out.
func (s *State) Capped() bool { return s.capped }

// Ended reports whether the game was ended early (End) rather than played
// out.
func (s *State) Ended() bool { return s.ended }

// End ends the game early, as a host may: nobody wins, and everyone is placed
// by cards left, fewest first, ties sharing. As Apply does, it first settles
// every deadline due by now (a hand-over that ran out is made), so a game
// ended at a time comes out the same however often it was ticked before. A
// game already over, or over by those deadlines, is left as it is.
func (s *State) End(now time.Time) {
	if last := s.log[len(s.log)-1].At; now.Before(last) {
		now = last
	}
	s.Tick(now)
	if s.phase == PhaseOver {
		return
	}
	s.ended = true
	s.finish(now)
	s.version++
}

// HandSize is how many cards a seat holds. It is secret from the other seats:
// servers and simulators use it, never a bot.
func (s *State) HandSize(seat int) int { return len(s.hands[seat]) }

// Clone returns a deep copy of the state.
func (s *State) Clone() *State {
	c := *s
	c.hands = make([][]Card, s.n)
	for i, h := range s.hands {
		c.hands[i] = slices.Clone(h)
	}
	c.pile = slices.Clone(s.pile)
	if s.last != nil {
		l := *s.last
		l.cards = slices.Clone(s.last.cards)
		c.last = &l
	}
	if s.win != nil {
		w := *s.win
		w.passed = slices.Clone(s.win.passed)
		c.win = &w
	}
	if s.shout != nil {
		sh := *s.shout
		sh.callers = slices.Clone(s.shout.callers)
		c.shout = &sh
	}
	c.out = slices.Clone(s.out)
	c.beats = slices.Clone(s.beats)
	c.swept = slices.Clone(s.swept)
	c.tally = s.tally.clone()
	c.sneaks = slices.Clone(s.sneaks)
	c.result = slices.Clone(s.result)
	c.roomForMoves()
	// Room for a few more lines, so a move tried on the copy does not copy
	// the whole log again.
	c.log = append(make([]line, 0, len(s.log)+8), s.log...)
	return &c
}

// rankFor is the index of the rank seat will be asked for on its next turn.
func (s *State) rankFor(seat int) int {
	if s.phase != PhasePlay {
		// A play is on the table: the next one is the seat after its player.
		return s.rank + 1 + s.steps(s.nextIn(s.last.Seat), seat)
	}
	return s.rank + s.steps(s.turn, seat)
}

// isOut reports whether seat has gone out (only PlayOn plays on after one).
func (s *State) isOut(seat int) bool { return slices.Contains(s.out, seat) }

// playing is the number of seats still playing.
func (s *State) playing() int { return s.n - len(s.out) }

// nextIn is the first seat after seat that is still playing.
func (s *State) nextIn(seat int) int {
	for i := 1; i <= s.n; i++ {
		if next := (seat + i) % s.n; !s.isOut(next) {
			return next
		}
	}
	return seat
}

// steps counts the seats still playing from from up to, not including, to,
// going round the table: how many turns come before to's.
func (s *State) steps(from, to int) int {
	d := 0
	for seat := from; seat != to; seat = (seat + 1) % s.n {
		if !s.isOut(seat) {
			d++
		}
	}
	return d
}
