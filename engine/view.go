package engine

import (
	"fmt"
	"slices"
	"time"
)

// Spectator is the seat number of a view for someone not at the table.
const Spectator = -1

// View is what one seat (or a spectator) can see of the game: what a real
// table shows. Bots decide from it alone, so they cannot peek.
type View struct {
	// Version counts the state's changes; a newer view has a higher one.
	Version int     `json:"version"`
	Seat    int     `json:"seat"`
	Options Options `json:"options"`
	Phase   Phase   `json:"phase"`
	// Turn is the seat whose turn it is: in the play phase the one to play;
	// while a play is being called, revealed or paid for, the one who made it.
	Turn int `json:"turn"`
	// RankIndex is the rank index (see RankAt) of the play being made or,
	// while a play is on the table, of that play; it counts the plays settled
	// before it. Rank is the rank the current play claims in the play phase,
	// and the next play's rank while one is being settled.
	RankIndex int  `json:"rank_index"`
	Rank      Rank `json:"rank"`
	// Plays is the number of the last play: the No an action carries.
	Plays int `json:"plays"`
	// Hand is the seat's own hand, exactly; nil for a spectator.
	Hand  []Card     `json:"hand"`
	Seats []SeatView `json:"seats"`
	Pile  Range      `json:"pile"`
	Last  *LastPlay  `json:"last,omitempty"`
	// Closes is when the call window closes, the reveal ends or the
	// hand-over runs out.
	Closes   time.Time `json:"closes,omitzero"`
	Deciding []Decider `json:"deciding,omitempty"`
	// Shouts are the seats that have called the last play so far, in the
	// order they did, while the grace for calls made together runs (the
	// shout phase): the seat nearest the player's left will win it.
	Shouts   []int        `json:"shouts,omitempty"`
	Reveal   *Reveal      `json:"reveal,omitempty"`
	Give     *Give        `json:"give,omitempty"`
	Can      []ActionKind `json:"can"`
	MaxClaim int          `json:"max_claim"`
	// Doubt says, in words, when the last play can't be true or the counts
	// show more went down than was claimed.
	Doubt  string      `json:"doubt,omitempty"`
	Result []ResultRow `json:"result,omitempty"`
	Capped bool        `json:"capped,omitempty"`
	// Ended: the host ended the game early; nobody won.
	Ended bool `json:"ended,omitempty"`
}

// SeatView is one seat as the table sees it.
type SeatView struct {
	Seat int   `json:"seat"`
	Hand Range `json:"hand"`
	// Dealt is the seat's exact count while its hand is as dealt (it has
	// neither played, taken the pile nor been handed a card), which the
	// whole table saw counted out; 0 after.
	Dealt int `json:"dealt,omitempty"`
	// Passed: the seat let the play in the window go.
	Passed bool `json:"passed,omitempty"`
	// Out is the place of a seat that went out while the others play on
	// for places (Options.PlayOn); 0 while it plays.
	Out     int `json:"out,omitempty"`
	Calls   int `json:"calls"`
	Right   int `json:"right"`
	Lies    int `json:"lies"`
	Caught  int `json:"caught"`
	Pickups int `json:"pickups"`
}

// Count is the seat's hand as the table sees it: exact while as dealt.
func (sv SeatView) Count() Range {
	if sv.Dealt > 0 {
		return Range{sv.Dealt, sv.Dealt}
	}
	return sv.Hand
}

// LastPlay is the last play as a seat sees it: its cards only once turned
// up, or to the player who made it.
type LastPlay struct {
	No    int   `json:"no"`
	Seat  int   `json:"seat"`
	Rank  Rank  `json:"rank"`
	Claim int   `json:"claim"`
	Out   bool  `json:"out"`
	Sizes Sizes `json:"sizes"`
	// Dealt is the player's exact count before the play when its hand was
	// as dealt (see SeatView.Dealt), else 0.
	Dealt int  `json:"dealt,omitempty"`
	Shown bool `json:"shown"`
	// Caller is the seat that called it, or -1.
	Caller int    `json:"caller"`
	Cards  []Card `json:"cards,omitempty"`
}

// Reveal is a called play being turned up, beat by beat. The pile is its
// loser's from the call, but the table sees it reach their hand only when
// the sweep lands: until then every screen shows Counts, and the loser
// their own Hand.
type Reveal struct {
	Showdown
	Beats []Beat `json:"beats"`
	// Lands is when the sweep lands, at the end of the last beat under the
	// game's own rules.
	Lands time.Time `json:"lands"`
	// Counts are the seats' hands as the table saw them before the sweep:
	// the loser's without the pile.
	Counts []Range `json:"counts"`
	// Hand is the viewer's own hand before the sweep, for the loser only
	// (every other hand is as it was).
	Hand []Card `json:"hand,omitempty"`
}

// Give is a hand-over in progress. Suggested is for the caller only: the
// cards the clock will pick if they don't.
type Give struct {
	Caller    int    `json:"caller"`
	Seat      int    `json:"seat"`
	Count     int    `json:"count"`
	Suggested []Card `json:"suggested,omitempty"`
}

// ResultRow is a seat's line on the result sheet, with what the game kept
// secret until now.
type ResultRow struct {
	Place
	// Out: the seat went out, its last cards having stood (the winner, and
	// with PlayOn the places after); the rest are placed by cards left.
	Out bool `json:"out,omitempty"`
	// Sneaked counts the seat's sneaks that were never caught.
	Sneaked int `json:"sneaked"`
	Caught  int `json:"caught"`
	Calls   int `json:"calls"`
	Right   int `json:"right"`
}

// View is the game as seat sees it; Spectator (or any seat off the table)
// sees only what is public.
func (s *State) View(seat int) View {
	var v View
	s.ViewInto(seat, &v)
	return v
}

// ViewInto fills v with the game as seat sees it, exactly as View would,
// reusing the arrays v's slices (and its last play) already hold: a bot's
// driver asks for a view before every decision, and this way asks without
// allocating. Whatever v held before is overwritten, so a view filled this
// way must not be kept past the next fill, nor its slices shared. Nothing of
// an earlier fill survives beyond its slices' ends either, so one v may be
// filled for different seats in turn.
func (s *State) ViewInto(seat int, v *View) {
	if seat < 0 || seat >= s.n {
		seat = Spectator
	}
	hand, seats, deciding, can, last := v.Hand, v.Seats, v.Deciding, v.Can, v.Last
	// Zeroed, then set field by field: a literal would be built aside and
	// copied, and the view is big.
	*v = View{}
	v.Version, v.Seat, v.Options, v.Phase, v.Turn = s.version, seat, s.opts, s.phase, s.turn
	v.RankIndex, v.Rank, v.Plays = s.rank, RankAt(s.rank), s.plays
	v.Pile, v.Closes, v.MaxClaim = Seen(len(s.pile), PileKind), s.Deadline(), s.opts.MaxClaim()
	v.Capped, v.Ended = s.capped, s.ended
	// Deciding is nil when nobody decides, as Deciding gives it.
	if deciding = s.AppendDeciding(deciding[:0]); len(deciding) > 0 {
		v.Deciding = deciding
	}
	if s.phase != PhasePlay && s.phase != PhaseOver {
		v.Rank = RankAt(s.rank + 1)
	}
	if seat != Spectator {
		// A seat's hand is never nil, even when empty.
		if hand == nil {
			hand = make([]Card, 0, len(s.hands[seat]))
		}
		v.Hand = append(hand[:0], s.hands[seat]...)
		// What an earlier, longer hand left beyond the end is wiped: the
		// array may have held another seat's cards.
		clear(v.Hand[len(v.Hand):cap(v.Hand)])
	}
	if cap(seats) < s.n {
		seats = make([]SeatView, s.n)
	}
	seats = seats[:s.n]
	t := &s.tally
	for i, h := range s.hands {
		// Each seat is written in place, for the same reason as the view.
		sv := &seats[i]
		*sv = SeatView{}
		sv.Seat, sv.Hand = i, Seen(len(h), HandKind)
		if s.changed&(1<<i) == 0 {
			sv.Dealt = len(h)
		}
		sv.Calls, sv.Right, sv.Lies, sv.Caught, sv.Pickups = t.Calls[i], t.Right[i], t.Lies[i], t.Caught[i], t.Pickups[i]
		sv.Passed = s.win != nil && s.win.passed[i]
		if len(s.out) > 0 && s.phase != PhaseOver {
			if p := slices.Index(s.out, i); p >= 0 {
				sv.Out = p + 1
			}
		}
	}
	v.Seats = seats
	if l := s.last; l != nil {
		if last == nil {
			last = new(LastPlay)
		}
		cards := last.Cards
		*last = LastPlay{}
		last.No, last.Seat, last.Rank, last.Claim, last.Out = l.No, l.Seat, l.Rank, l.Claim, l.Out
		last.Sizes, last.Dealt, last.Shown, last.Caller = l.Sizes, l.dealt, l.Shown, l.Caller
		if l.Shown || l.Seat == seat || s.phase == PhaseOver {
			last.Cards = append(cards[:0], l.cards...)
			clear(last.Cards[len(last.Cards):cap(last.Cards)])
		}
		v.Last = last
		v.Doubt = s.doubt(seat)
	}
	if s.phase == PhaseShout {
		v.Shouts = slices.Clone(s.shout.callers)
	}
	if s.phase == PhaseReveal {
		sd := *s.log[s.lastCalled()].showdown()
		sd.Cards, sd.Together = slices.Clone(sd.Cards), slices.Clone(sd.Together)
		r := &Reveal{Showdown: sd, Beats: slices.Clone(s.beats), Counts: make([]Range, s.n)}
		if n := len(r.Beats); n > 0 {
			r.Lands = r.Beats[n-1].Ends
		}
		for i, sv := range seats {
			r.Counts[i] = sv.Count()
		}
		r.Counts[sd.Loser] = Seen(len(s.swept), HandKind)
		if s.sweptDealt {
			r.Counts[sd.Loser] = Range{len(s.swept), len(s.swept)}
		}
		if seat == sd.Loser {
			r.Hand = slices.Clone(s.swept)
		}
		v.Reveal = r
	}
	if s.phase == PhaseGive {
		g := &Give{Caller: s.last.Caller, Seat: s.last.Seat, Count: s.owed}
		if seat == g.Caller {
			g.Suggested = s.rules.leastUseful(s.hands[seat], s.rankFor(seat), s.playing(), s.owed)
		}
		v.Give = g
	}
	// Can is never nil, so that it reads as [] rather than null.
	if can == nil {
		can = make([]ActionKind, 0, 2)
	}
	v.Can = can[:0]
	for _, d := range v.Deciding {
		if d.Seat == seat {
			v.Can = append(v.Can, s.moves()...)
		}
	}
	if s.phase == PhaseOver {
		// The seats that went out come first in the result (see finish).
		for i, p := range s.result {
			v.Result = append(v.Result, ResultRow{Place: p, Out: i < len(s.out), Sneaked: s.sneaks[p.Seat] - s.tally.Caught[p.Seat],
				Caught: s.tally.Caught[p.Seat], Calls: s.tally.Calls[p.Seat], Right: s.tally.Right[p.Seat]})
		}
	}
}

// The moves of each phase, for views to copy.
var (
	playMoves = []ActionKind{ActPlay}
	callMoves = []ActionKind{ActCall, ActPass}
	giveMoves = []ActionKind{ActGive}
)

// moves are the moves of the phase, for the caller to copy, never change.
func (s *State) moves() []ActionKind {
	switch s.phase {
	case PhasePlay:
		return playMoves
	case PhaseCall, PhaseShout:
		return callMoves
	case PhaseGive:
		return giveMoves
	}
	return nil
}

// lastCalled is the index of the newest "called" line of the log.
func (s *State) lastCalled() int {
	for i := len(s.log) - 1; i >= 0; i-- {
		if s.log[i].Kind() == EventCalled {
			return i
		}
	}
	panic("unreachable: a reveal follows a call")
}

// doubt is the hint for a face-down play by someone else: a claim that can't
// be true given the seat's own cards, or counts that give a sneak away. It
// is Doubt, with the counts' part (the same for every seat) worked out once
// when the play was made.
func (s *State) doubt(seat int) string {
	l := s.last
	if l.Shown || l.Seat == seat || s.phase == PhaseOver {
		return ""
	}
	held := 0
	if seat != Spectator {
		held = heldSorted(s.hands[seat], l.Rank)
	}
	if copies := s.opts.Copies(); held+l.Claim > copies {
		return heldMessage(held, copies, l.Rank)
	}
	return l.sizeDoubt
}

// heldSorted counts the cards of rank in a hand sorted by order, as the
// state keeps every hand: they lie together, so the count stops past them.
func heldSorted(hand []Card, rank Rank) int {
	n := 0
	for _, c := range hand {
		r := c.Rank()
		if r > rank {
			break
		}
		if r == rank {
			n++
		}
	}
	return n
}

// heldMessage is heldDoubt's words: made once for every count a game can
// have, since a view may say them at every decision.
func heldMessage(held, copies int, rank Rank) string {
	if d := copies/4 - 1; copies%4 == 0 && d >= 0 && d < len(heldMessages) && held >= 0 && held <= copies && rank >= 0 && rank < Ranks {
		return heldMessages[d][rank][held]
	}
	return fmt.Sprintf("Can't be true: you hold %d of the %d %s.", held, copies, rank.Name(true))
}

// heldMessages are the words for one deck and two, by rank and count held.
var heldMessages = func() (m [2][Ranks][9]string) {
	for d := range m {
		for r := range m[d] {
			for held := 0; held <= 4*(d+1); held++ {
				m[d][r][held] = fmt.Sprintf("Can't be true: you hold %d of the %d %s.", held, 4*(d+1), Rank(r).Name(true))
			}
		}
	}
	return m
}()

// Doubt is the "can't be true" check, in words, or "" when nothing gives the
// claim away. hand is the watcher's own hand (nil for a spectator), rank and
// claim the play's, sizes what the table saw, copies how many of a rank exist.
func Doubt(hand []Card, rank Rank, claim int, sizes Sizes, copies int) string {
	if msg := heldDoubt(hand, rank, claim, copies); msg != "" {
		return msg
	}
	return sizeDoubt(claim, sizes)
}

// heldDoubt is Doubt's first check: the watcher's own cards of the rank
// leave too few for the claim.
func heldDoubt(hand []Card, rank Rank, claim int, copies int) string {
	held := 0
	for _, c := range hand {
		if c.Rank() == rank {
			held++
		}
	}
	if held+claim > copies {
		return heldMessage(held, copies, rank)
	}
	return ""
}

// sizeDoubt is Doubt's other checks: the hand's or the pile's count changed
// by more than the claim.
func sizeDoubt(claim int, sizes Sizes) string {
	if !LooksClean(sizes.Hand[0], sizes.Hand[1], claim, HandKind) {
		return fmt.Sprintf("Can't be just %d: their hand went %s → %s.", claim, sizes.Hand[0], sizes.Hand[1])
	}
	if !LooksClean(sizes.Pile[0], sizes.Pile[1], claim, PileKind) {
		return fmt.Sprintf("Can't be just %d: the pile went %s → %s.", claim, sizes.Pile[0], sizes.Pile[1])
	}
	return ""
}

// Fallback is a move that is always legal for the viewing seat now, for when
// a bot's choice is refused: let the play go, hand over the suggested cards,
// or play every card of the rank (up to the claim limit), else one card.
// ok is false when the seat has nothing to do.
func (v View) Fallback() (a Action, ok bool) {
	a = Action{Seat: v.Seat, No: v.Plays}
	switch {
	case slices.Contains(v.Can, ActPass):
		a.Kind = ActPass
	case slices.Contains(v.Can, ActGive) && v.Give != nil:
		a.Kind, a.Cards = ActGive, slices.Clone(v.Give.Suggested)
	case slices.Contains(v.Can, ActPlay):
		a.Kind, a.Cards = ActPlay, v.Picks()
		if len(a.Cards) == 0 {
			a.Cards = LeastUseful(v.Hand, v.RankIndex+v.Playing(), v.Playing(), 1)
		}
	default:
		return Action{}, false
	}
	return a, true
}

// Playing is the number of seats still playing: all of them, unless the
// table plays on for places and some have gone out.
func (v View) Playing() int {
	n := 0
	for _, sv := range v.Seats {
		if sv.Out == 0 {
			n++
		}
	}
	return n
}
