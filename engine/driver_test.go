package engine

import (
	"math/rand/v2"
	"slices"
	"testing"
	"time"
)

// driver plays a seeded game of random legal moves, the way a lively table
// might: true claims, bluffs, sneaks (even of a last card), calls, passes,
// hand-overs, and clocks left to run out. The invariant, secrecy and fuzz
// tests and the benchmarks all play their games through it.
type driver struct {
	s   *State
	rng *rand.Rand
	now time.Time
	// steps counts the moves and ticks made.
	steps int
	// resumes: now and then the server is down for a while and resumes the
	// game (off unless a test sets it, so other tests play the same games).
	resumes bool
	// applied is every action accepted, with its time, as a server stores
	// them.
	applied []timedAction
}

// timedAction is an accepted action and the time it was applied at.
type timedAction struct {
	a  Action
	at time.Time
}

// maxSteps bounds a driven game: every play takes at most a move, a call or
// every pass, a reveal and a hand-over.
const maxSteps = PlayCap * (MaxSeats + 4)

func newDriver(tb testing.TB, opts Options, seed uint64) *driver {
	tb.Helper()
	s, err := New(opts, seed, t0)
	if err != nil {
		tb.Fatal(err)
	}
	return &driver{s: s, rng: rand.New(rand.NewPCG(seed, 0xd1ce)), now: t0}
}

// randomOptions is a legal table of the given size with random settings.
func randomOptions(rng *rand.Rand, seats int) Options {
	o := Standard(seats)
	o.Sneak = rng.IntN(MaxSneakLimit + 1)
	o.Window = Windows[rng.IntN(len(Windows))]
	if rng.IntN(2) == 0 {
		o.Pace = Relaxed
	}
	if rng.IntN(4) == 0 {
		o.Penalty = Penalty{Cards: 1 + rng.IntN(2), PerCard: rng.IntN(2) == 0}
	}
	switch rng.IntN(3) {
	case 0:
		o.Grace = 0
	case 1:
		o.Grace = time.Duration(1+rng.IntN(int(MaxGrace/time.Millisecond))) * time.Millisecond
	}
	o.PlayOn = rng.IntN(4) == 0
	return o
}

// step makes one random legal move, or lets the clock run to the next
// deadline, and fails the test if the engine refuses a legal move. It
// reports whether the game goes on.
func (d *driver) step(tb testing.TB) bool {
	tb.Helper()
	s := d.s
	if s.Over() {
		return false
	}
	d.steps++
	if d.steps > maxSteps {
		tb.Fatalf("the game did not end in %d steps (%d plays)", maxSteps, s.plays)
	}
	if d.resumes && d.rng.IntN(12) == 0 {
		d.resume(tb)
		return !s.Over()
	}
	dl := s.Deadline()
	// Before a deadline, the moment to act is somewhere inside it.
	when := func() time.Time {
		if dl.IsZero() {
			return d.now.Add(time.Duration(d.rng.IntN(4000)) * time.Millisecond)
		}
		return d.now.Add(time.Duration(d.rng.Int64N(int64(dl.Sub(d.now)))))
	}
	var a Action
	switch s.phase {
	case PhasePlay:
		a = d.randomPlay()
	case PhaseCall:
		if d.rng.IntN(5) == 0 {
			d.tick(dl)
			return !s.Over()
		}
		ds := s.Deciding()
		seat := ds[d.rng.IntN(len(ds))].Seat
		a = Action{Kind: ActPass, Seat: seat, No: s.plays}
		if d.rng.IntN(9) == 0 || (s.last.Out && d.rng.IntN(2) == 0) {
			a.Kind = ActCall
		}
	case PhaseShout:
		// The grace after a first call: more calls join it, some let it
		// go, or it runs out.
		ds := s.Deciding()
		if len(ds) == 0 || d.rng.IntN(3) == 0 {
			d.tick(dl)
			return !s.Over()
		}
		a = Action{Kind: ActCall, Seat: ds[d.rng.IntN(len(ds))].Seat, No: s.plays}
		if d.rng.IntN(4) == 0 {
			a.Kind = ActPass
		}
	case PhaseReveal:
		if d.rng.IntN(3) == 0 {
			// A tick before the deadline does nothing.
			early := when()
			if s.Tick(early) {
				tb.Fatalf("Tick(%v) before the deadline %v changed the state", early, dl)
			}
		}
		d.tick(dl)
		return !s.Over()
	case PhaseGive:
		if d.rng.IntN(2) == 0 {
			d.tick(dl)
			return !s.Over()
		}
		hand := slices.Clone(s.hands[s.last.Caller])
		d.rng.Shuffle(len(hand), func(i, j int) { hand[i], hand[j] = hand[j], hand[i] })
		a = Action{Kind: ActGive, Seat: s.last.Caller, No: s.plays, Cards: hand[:s.owed]}
	}
	t := when()
	if err := s.Apply(a, t); err != nil {
		tb.Fatalf("legal move %+v at %v refused: %v", a, t.Sub(t0), err)
	}
	d.now = t
	d.applied = append(d.applied, timedAction{a, t})
	return !s.Over()
}

// resume has the server go down a moment from now, perhaps past a deadline,
// and come back up to ten minutes later.
func (d *driver) resume(tb testing.TB) {
	tb.Helper()
	since := d.now.Add(time.Duration(d.rng.IntN(3000)) * time.Millisecond)
	back := since.Add(time.Millisecond + time.Duration(d.rng.Int64N(int64(10*time.Minute))))
	a := Action{Kind: ActResume, Seat: -1, Since: since}
	err := d.s.Apply(a, back)
	switch {
	case err == nil:
		d.now = back
		d.applied = append(d.applied, timedAction{a, back})
	case codeOf(tb, err) == CodeOver && d.s.Over():
		// What fell due before the server went down ended the game.
		d.now = since
	default:
		tb.Fatalf("resume from %v at %v refused: %v", since.Sub(t0), back.Sub(t0), err)
	}
}

// tick lets the clock run to t.
func (d *driver) tick(t time.Time) {
	d.s.Tick(t)
	d.now = t
}

// randomPlay is a play by the seat on turn: the cards of the rank most of
// the time it has some, else a bluff of one or two cards, and now and then a
// sneak of as many extra cards as the table allows.
func (d *driver) randomPlay() Action {
	s := d.s
	hand := slices.Clone(s.hands[s.turn])
	d.rng.Shuffle(len(hand), func(i, j int) { hand[i], hand[j] = hand[j], hand[i] })
	rank := RankAt(s.rank)
	var play, rest []Card
	for _, c := range hand {
		if c.Rank() == rank && len(play) < s.opts.MaxClaim() {
			play = append(play, c)
		} else {
			rest = append(rest, c)
		}
	}
	if len(play) == 0 || d.rng.IntN(4) == 0 {
		// A bluff: one or two cards, whatever they are.
		play, rest = hand[:1], hand[1:]
		if len(hand) > 1 && d.rng.IntN(4) == 0 {
			play, rest = hand[:2], hand[2:]
		}
	} else {
		k := 1 + d.rng.IntN(len(play))
		rest = append(rest, play[k:]...)
		play = play[:k]
	}
	claim := len(play)
	if s.opts.Sneak > 0 && len(rest) > 0 && d.rng.IntN(3) == 0 {
		extra := 1 + d.rng.IntN(min(s.opts.Sneak, len(rest)))
		play = append(play, rest[:extra]...)
	}
	a := Action{Kind: ActPlay, Seat: s.turn, No: s.plays, Cards: slices.Clone(play), Claim: claim}
	if claim == len(play) && d.rng.IntN(3) == 0 {
		a.Claim = 0 // claims them all
	}
	return a
}

// play drives a whole game, calling visit (if not nil) after every step.
func (d *driver) play(tb testing.TB, visit func()) {
	tb.Helper()
	for d.step(tb) {
		if visit != nil {
			visit()
		}
	}
	if visit != nil {
		visit()
	}
}
