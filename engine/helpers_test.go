package engine

import (
	"errors"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"
)

// t0 is when every test game starts.
var t0 = time.Date(2026, 11, 30, 9, 0, 0, 0, time.UTC)

// at is t0 plus the given number of milliseconds.
func at(ms int) time.Time { return t0.Add(time.Duration(ms) * time.Millisecond) }

// cards parses space-separated card codes.
func cards(tb testing.TB, codes string) []Card {
	tb.Helper()
	var out []Card
	for _, f := range strings.Fields(codes) {
		c, err := ParseCard(f)
		if err != nil {
			tb.Fatalf("bad card in test: %v", err)
		}
		out = append(out, c)
	}
	return out
}

// table describes a game part-way through, for building with stage: chosen
// hands and pile, the rest of the cards dealt round the unlisted seats.
type table struct {
	opts Options
	// hands are the chosen seats' cards; every other seat shares the rest.
	hands map[int]string
	pile  string
	// rank is the rank index of the next play, and the number of plays made.
	rank int
	turn int
}

// stage builds the state a table describes, in the play phase, at t0. Every
// card of the decks is somewhere, exactly once.
func stage(tb testing.TB, tt table) *State {
	tb.Helper()
	if tt.opts.Seats == 0 {
		tt.opts = firstCome(4)
	}
	s, err := New(tt.opts, 0, t0)
	if err != nil {
		tb.Fatal(err)
	}
	used := map[Card]bool{}
	take := func(codes string) []Card {
		cs := cards(tb, codes)
		for _, c := range cs {
			if used[c] {
				tb.Fatalf("card %v used twice in test table", c)
			}
			used[c] = true
		}
		return cs
	}
	s.hands = make([][]Card, s.n)
	for seat, codes := range tt.hands {
		s.hands[seat] = take(codes)
		sortCards(s.hands[seat])
	}
	s.pile = take(tt.pile)
	var free []int
	for seat := range s.n {
		if _, ok := tt.hands[seat]; !ok {
			free = append(free, seat)
		}
	}
	i := 0
	for _, c := range deck(tt.opts.Decks()) {
		if used[c] {
			continue
		}
		if len(free) == 0 {
			tb.Fatalf("card %v left over: every seat's hand was chosen", c)
		}
		seat := free[i%len(free)]
		s.hands[seat] = append(s.hands[seat], c)
		i++
	}
	for _, h := range s.hands {
		sortCards(h)
	}
	s.rank, s.plays, s.turn = tt.rank, tt.rank, tt.turn
	checkInvariants(tb, s, t0)
	return s
}

// codeOf is the Code of an engine refusal, or "" for nil.
func codeOf(tb testing.TB, err error) Code {
	tb.Helper()
	if err == nil {
		return ""
	}
	var e *Error
	if !errors.As(err, &e) {
		tb.Fatalf("got error %T %v, want an *Error", err, err)
	}
	return e.Code
}

// mustApply applies an action that must be accepted.
func mustApply(tb testing.TB, s *State, a Action, now time.Time) {
	tb.Helper()
	if err := s.Apply(a, now); err != nil {
		tb.Fatalf("Apply(%+v): got %v, want it accepted", a, err)
	}
}

// refusedUnchanged applies an action expected to be refused and checks the
// state afterwards equals a copy only ticked to the same time: a refusal
// changes nothing beyond the deadlines that time itself settles.
func refusedUnchanged(tb testing.TB, s *State, a Action, now time.Time) error {
	tb.Helper()
	want := ticked(s, now)
	err := s.Apply(a, now)
	if err == nil {
		tb.Fatalf("Apply(%+v): got it accepted, want it refused", a)
	}
	if !want.matches(s) {
		tb.Fatalf("Apply(%+v) was refused (%v) but changed the state", a, err)
	}
	return err
}

// expected is what a state should become: a scratch copy and where its
// log's lines start in the original's.
type expected struct {
	s    *State
	from int
}

// ticked is what s should be after Tick(now), or after a refused Apply at now.
func ticked(s *State, now time.Time) expected {
	c := scratch(s)
	from := len(s.log) - len(c.log)
	if last := c.log[len(c.log)-1].At; now.Before(last) {
		now = last
	}
	c.Tick(now)
	return expected{c, from}
}

// matches reports whether got is exactly the expected state, its log the
// original's first lines followed by the expected ones.
func (e expected) matches(got *State) bool {
	if len(got.log) != e.from+len(e.s.log) || !reflect.DeepEqual(got.events(e.from), e.s.events(0)) {
		return false
	}
	gl, wl := got.log, e.s.log
	got.log, e.s.log = nil, nil
	gs, ws := got.scratch(), e.s.scratch()
	same := reflect.DeepEqual(got, e.s)
	got.log, e.s.log = gl, wl
	got.restore(gs)
	e.s.restore(ws)
	return same
}

// events are the lines of the log from from on, as Events.
func (s *State) events(from int) []Event {
	var out []Event
	for i := range s.log[from:] {
		out = append(out, s.event(&s.log[from+i]))
	}
	return out
}

// scratchSpace is what a state keeps only to save allocations (the spare
// window and the log's chunks): no part of the game.
type scratchSpace struct {
	spare      *window
	spareShout *shout
	spareBeats []Beat
	sizeChunk  []Sizes
	seatChunk  []int
}

// scratch takes the state's scratch space out of it, for comparing states.
func (s *State) scratch() scratchSpace {
	sc := scratchSpace{s.spare, s.spareShout, s.spareBeats, s.sizeChunk, s.seatChunk}
	s.spare, s.spareShout, s.spareBeats, s.sizeChunk, s.seatChunk = nil, nil, nil, nil, nil
	return sc
}

// restore puts back what scratch took.
func (s *State) restore(sc scratchSpace) {
	s.spare, s.spareShout, s.spareBeats, s.sizeChunk, s.seatChunk = sc.spare, sc.spareShout, sc.spareBeats, sc.sizeChunk, sc.seatChunk
}

// checkInvariants checks what must hold after every change. last is the time
// of the change just made.
func checkInvariants(tb testing.TB, s *State, last time.Time) {
	tb.Helper()
	checkCards(tb, s)
	// The phase, the last play, the window and the deadline agree.
	d := s.Deadline()
	timed := s.phase == PhaseCall || s.phase == PhaseShout || s.phase == PhaseReveal || s.phase == PhaseGive
	if d.IsZero() == timed {
		tb.Fatalf("phase %v with deadline %v", s.phase, d)
	}
	if timed && !d.After(last) {
		tb.Fatalf("phase %v: deadline %v is not after the last change at %v", s.phase, d, last)
	}
	if s.plays > PlayCap {
		tb.Fatalf("got %d plays, want at most %d", s.plays, PlayCap)
	}
	wantRank := s.plays
	if s.phase == PhaseCall || s.phase == PhaseShout || s.phase == PhaseReveal || s.phase == PhaseGive {
		wantRank = s.plays - 1
	}
	if s.rank != wantRank && !(s.phase == PhaseOver && s.rank == s.plays-1) {
		tb.Fatalf("phase %v: rank index %d after %d plays", s.phase, s.rank, s.plays)
	}
	switch s.phase {
	case PhasePlay:
		if len(s.hands[s.turn]) == 0 || s.isOut(s.turn) {
			tb.Fatalf("seat %d is on turn with no cards (out: %v)", s.turn, s.out)
		}
		if s.win != nil || s.owed != 0 || s.beats != nil {
			tb.Fatalf("play phase with leftovers: window %v, owed %d, beats %v", s.win, s.owed, s.beats)
		}
	case PhaseCall:
		if s.last == nil || s.last.Shown || s.win == nil || s.win.no != s.plays || s.last.No != s.plays {
			tb.Fatalf("call phase without an open play: last %+v, window %+v", s.last, s.win)
		}
		if s.win.passed[s.last.Seat] {
			tb.Fatalf("the player let their own play go")
		}
		if s.shout != nil {
			tb.Fatalf("call phase with a shout held open: %+v", s.shout)
		}
	case PhaseShout:
		sh := s.shout
		if s.last == nil || s.last.Shown || s.last.Caller != -1 || s.win == nil || sh == nil || len(sh.callers) == 0 {
			tb.Fatalf("shout phase without an open call: last %+v, window %+v, shout %+v", s.last, s.win, sh)
		}
		if sh.closes.Sub(sh.first) != s.opts.Grace || s.opts.Grace <= 0 {
			tb.Fatalf("shout held from %v to %v, want the grace %v", sh.first, sh.closes, s.opts.Grace)
		}
		for i, c := range sh.callers {
			if c == s.last.Seat || s.isOut(c) || s.win.passed[c] || slices.Contains(sh.callers[:i], c) {
				tb.Fatalf("shout by seat %d, which may not call (callers %v, out %v)", c, sh.callers, s.out)
			}
		}
	case PhaseReveal:
		if s.last == nil || !s.last.Shown || s.last.Caller < 0 || len(s.beats) != 4 || s.win != nil {
			tb.Fatalf("reveal without a called play: last %+v, beats %v", s.last, s.beats)
		}
	case PhaseGive:
		if s.last == nil || !s.last.Shown || s.owed <= 0 || s.owed >= len(s.hands[s.last.Caller]) {
			tb.Fatalf("give phase owing %d from a hand of %d", s.owed, len(s.hands[s.last.Caller]))
		}
	case PhaseOver:
		checkResult(tb, s)
	}
	if s.phase != PhaseOver && s.result != nil {
		tb.Fatalf("a result before the game is over")
	}
	for seat := range s.n {
		goingOut := (s.phase == PhaseCall || s.phase == PhaseShout || s.phase == PhaseReveal) && s.last.Seat == seat && s.last.Out
		if len(s.hands[seat]) == 0 && s.phase != PhaseOver && !goingOut && !s.isOut(seat) {
			tb.Fatalf("seat %d is out but the game goes on in phase %v", seat, s.phase)
		}
		if s.isOut(seat) && len(s.hands[seat]) != 0 {
			tb.Fatalf("seat %d went out and holds %d cards", seat, len(s.hands[seat]))
		}
	}
	if len(s.out) > 0 && s.phase != PhaseOver && (!s.opts.PlayOn || s.playing() < 3) {
		tb.Fatalf("seats %v out with %d playing on in phase %v (play on %v)", s.out, s.playing(), s.phase, s.opts.PlayOn)
	}

	// Deciding names exactly the seats whose view offers a move, and the
	// fallback of one of them (a different one each version) is legal.
	deciders := s.Deciding()
	deciding := map[int]bool{}
	for _, dc := range deciders {
		if deciding[dc.Seat] {
			tb.Fatalf("seat %d named twice in Deciding", dc.Seat)
		}
		deciding[dc.Seat] = true
	}
	for seat := range s.n {
		v := s.View(seat)
		if (len(v.Can) > 0) != deciding[seat] {
			tb.Fatalf("seat %d: view can %v, deciding %v", seat, v.Can, deciding[seat])
		}
		if len(deciders) == 0 || seat != deciders[s.version%len(deciders)].Seat {
			continue
		}
		a, ok := v.Fallback()
		if !ok {
			tb.Fatalf("seat %d deciding but has no fallback", seat)
		}
		if err := scratch(s).Apply(a, last); err != nil {
			tb.Fatalf("seat %d: fallback %+v refused: %v", seat, a, err)
		}
	}
}

// checkCards checks every card exists exactly once, in a hand or the pile, and
// every hand is sorted.
func checkCards(tb testing.TB, s *State) {
	tb.Helper()
	seen := make([]int, 52*s.opts.Decks())
	for seat, h := range s.hands {
		if !slices.IsSortedFunc(h, func(a, b Card) int { return order(a) - order(b) }) {
			tb.Fatalf("seat %d's hand is not sorted: %v", seat, h)
		}
		for _, c := range h {
			if int(c) >= len(seen) {
				tb.Fatalf("seat %d holds %d, not a card of this game", seat, c)
			}
			seen[c]++
		}
	}
	for _, c := range s.pile {
		if int(c) >= len(seen) {
			tb.Fatalf("the pile holds %d, not a card of this game", c)
		}
		seen[c]++
	}
	for c, k := range seen {
		if k != 1 {
			tb.Fatalf("card %v is in play %d times, want 1", Card(c), k)
		}
	}
	// A play not turned up is still on top of the pile.
	if l := s.last; l != nil && !l.Shown && !slices.Equal(s.pile[max(0, len(s.pile)-len(l.cards)):], l.cards) {
		tb.Fatalf("the last play %v is not on top of the pile %v", l.cards, s.pile)
	}
}

// checkResult checks a finished game's places: every seat once, the seats
// that went out first in the order they did (with no cards), the rest by
// cards left, ties sharing a place.
func checkResult(tb testing.TB, s *State) {
	tb.Helper()
	r := s.result
	if len(r) != s.n {
		tb.Fatalf("got %d places, want %d", len(r), s.n)
	}
	var seats []int
	for i, p := range r {
		seats = append(seats, p.Seat)
		if p.Left != len(s.hands[p.Seat]) {
			tb.Fatalf("seat %d: result says %d left, hand has %d", p.Seat, p.Left, len(s.hands[p.Seat]))
		}
		if i < len(s.out) {
			if p.Seat != s.out[i] || p.Place != i+1 || p.Left != 0 {
				tb.Fatalf("row %d: got %+v, want seat %d out in place %d (out %v)", i, p, s.out[i], i+1, s.out)
			}
			continue
		}
		ahead := len(s.out)
		for _, q := range r[len(s.out):] {
			if q.Left < p.Left {
				ahead++
			}
		}
		if p.Place != ahead+1 {
			tb.Fatalf("row %d, seat %d with %d left: place %d, want %d (%+v)", i, p.Seat, p.Left, p.Place, ahead+1, r)
		}
		if i > 0 && p.Place < r[i-1].Place {
			tb.Fatalf("places out of order: %+v", r)
		}
	}
	slices.Sort(seats)
	for i, seat := range seats {
		if seat != i {
			tb.Fatalf("result seats %v, want each seat once", seats)
		}
	}
	if !s.capped && !s.ended && r[0].Left != 0 {
		tb.Fatalf("winner seat %d has %d cards", r[0].Seat, r[0].Left)
	}
	if !s.capped && !s.ended && s.opts.PlayOn && len(s.out) != max(1, s.n-2) {
		tb.Fatalf("played on to %v out of %d seats, want all but two out", s.out, s.n)
	}
}

// scratch is a copy of the state to try a move on. Unlike Clone it keeps
// only the log's lines from the last call on (all the engine reads back),
// which keeps trying moves cheap late in a long game.
func scratch(s *State) *State {
	from := len(s.log) - 1
	for i := from; i >= 0; i-- {
		if s.log[i].Kind() == EventCalled {
			from = i
			break
		}
	}
	log := s.log
	s.log = log[from:]
	c := s.Clone()
	s.log = log
	return c
}

// firstCome is the standard table of the given size with first-come calls
// (no grace), where a call turns the play up at once: the tests of the rules
// that a grace only delays use it.
func firstCome(seats int) Options {
	o := Standard(seats)
	o.Grace = 0
	return o
}
