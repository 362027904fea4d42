package engine

import (
	"fmt"
	"slices"
	"time"
)

// ActionKind names a move.
type ActionKind string

// The moves a seat can make.
const (
	// ActPlay puts cards face down with a claim.
	ActPlay ActionKind = "play"
	// ActCall shouts "Bullshit!" on the last play.
	ActCall ActionKind = "call"
	// ActPass lets the last play go.
	ActPass ActionKind = "pass"
	// ActGive hands the caught sneaker the caller's chosen cards.
	ActGive ActionKind = "give"
	// ActResume is no seat's move: the server, starting again after being
	// down, resumes the game (see State.resume).
	ActResume ActionKind = "resume"
)

// Action is a seat's move. No is the number of the last play the seat's view
// showed (0 before the first play): a play is accepted only while that is
// still the last play, and a call, pass or hand-over only for that play, so a
// late or repeated action is refused and changes nothing.
type Action struct {
	Kind  ActionKind `json:"kind"`
	Seat  int        `json:"seat"`
	No    int        `json:"no"`
	Cards []Card     `json:"cards,omitempty"`
	// Claim is how many of Cards are claimed to be the rank called; the rest
	// are sneaked. Zero claims them all.
	Claim int `json:"claim,omitempty"`
	// Since is, for a resume only, the moment the game was last known to be
	// running; the time from then to the resume counts against nobody.
	Since time.Time `json:"since,omitzero"`
}

// Apply makes a move at time now, after first settling every deadline due by
// then. A refused move returns an *Error and leaves the state unchanged.
//
// Time never runs backwards inside a game: a move stamped before the state's
// last change counts as made at that change, so no deadline can fall before it.
func (s *State) Apply(a Action, now time.Time) error {
	if a.Kind == ActResume {
		return s.resume(a.Since, now)
	}
	if last := s.log[len(s.log)-1].At; now.Before(last) {
		now = last
	}
	s.Tick(now)
	if s.phase == PhaseOver {
		return errOver
	}
	if a.Seat < 0 || a.Seat >= s.n {
		return errNoSeat
	}
	var err *Error
	switch a.Kind {
	case ActPlay:
		err = s.play(a, now)
	case ActCall:
		err = s.call(a, now)
	case ActPass:
		err = s.pass(a, now)
	case ActGive:
		err = s.give(a, now)
	default:
		err = illegal("That isn't a move in this game.")
	}
	if err != nil {
		return err
	}
	s.version++
	return nil
}

func (s *State) play(a Action, now time.Time) *Error {
	if a.No != s.plays {
		return errMovedOn
	}
	if s.phase != PhasePlay || s.turn != a.Seat {
		return errNotYourTurn
	}
	hand := s.hands[a.Seat]
	if len(a.Cards) == 0 {
		return illegal("Pick the cards to play.")
	}
	if !holds(hand, a.Cards) {
		return illegal("That card isn't in your hand.")
	}
	claim := a.Claim
	if claim == 0 {
		claim = len(a.Cards)
	}
	switch claimFault(len(a.Cards), claim, s.opts) {
	case ClaimNothing, ClaimTooMany:
		return illegal(fmt.Sprintf("Claim 1 to %d cards.", s.opts.MaxClaim()))
	case ClaimOverCards:
		return illegal("You can't claim more cards than you put down.")
	case ClaimSneakOff:
		return illegal("Sneaking is off at this table.")
	case ClaimSneakTooMany:
		limit := s.opts.Sneak
		return illegal(fmt.Sprintf("You can sneak %d extra %s at most.", limit, plural(limit, "card")))
	}
	sneaked := len(a.Cards) - claim

	handBefore, pileBefore := Seen(len(hand), HandKind), Seen(len(s.pile), PileKind)
	dealt := 0
	if s.changed&(1<<a.Seat) == 0 {
		dealt = len(hand)
	}
	// One copy of the cards serves the last play and its private line:
	// neither ever changes.
	cards := s.keepCards(a.Cards)
	s.hands[a.Seat] = remove(hand, cards)
	s.changed |= 1 << a.Seat
	s.pile = append(s.pile, cards...)
	s.plays++
	if sneaked > 0 {
		s.sneaks[a.Seat]++
	}
	out := len(s.hands[a.Seat]) == 0
	if s.last == nil {
		// The state owns its last play (Clone copies it), so each play
		// after the first reuses it.
		s.last = new(Play)
	}
	// Set field by field, in place: a literal would be built aside and
	// copied in.
	l := s.last
	*l = Play{}
	l.No, l.Seat, l.Rank, l.Claim, l.Out, l.Caller = s.plays, a.Seat, RankAt(s.rank), claim, out, -1
	l.Sizes.Hand = [2]Range{handBefore, Seen(len(s.hands[a.Seat]), HandKind)}
	l.Sizes.Pile = [2]Range{pileBefore, Seen(len(s.pile), PileKind)}
	l.cards, l.dealt = cards, dealt
	l.sizeDoubt = sizeDoubt(claim, l.Sizes)
	s.emit(&Event{At: now, Kind: EventPlay, No: s.plays, Seat: a.Seat, Rank: rankRef(s.last.Rank), Claim: claim, Out: out, Sizes: s.keepSizes(s.last.Sizes)})
	s.emit(&Event{At: now, Kind: EventMine, No: s.plays, Seat: a.Seat, Claim: claim, Cards: cards, To: s.keepSeats(a.Seat)})
	// Everyone else may call it for the window's length. It is a shout, not
	// a sealed pick: the first call settles it, and letting the time run out
	// lets the play go.
	s.phase = PhaseCall
	s.openWindow(now.Add(s.opts.Window))
	return nil
}

// openWindow opens the call window on the last play, until closes, reusing
// the window last closed.
func (s *State) openWindow(closes time.Time) {
	w := s.spare
	s.spare = nil
	if w == nil {
		w = &window{passed: make([]bool, s.n)}
	}
	clear(w.passed)
	w.no, w.closes = s.plays, closes
	s.win = w
}

// closeWindow closes the call window, keeping it to open again.
func (s *State) closeWindow() {
	if s.win != nil {
		s.spare = s.win
	}
	s.win = nil
}

func (s *State) call(a Action, now time.Time) *Error {
	if err := s.answering(a); err != nil {
		return err
	}
	switch {
	case s.phase == PhaseShout:
		// Within the grace of the first call: it competes with it.
		s.shout.callers = append(s.shout.callers, a.Seat)
		s.emit(&Event{At: now, Kind: EventShouted, No: s.plays, Seat: a.Seat})
	case s.opts.Grace > 0:
		// The first call: the cards stay down for the grace, and the
		// reveal's first beat starts now and holds it.
		s.phase = PhaseShout
		sh := s.spareShout
		s.spareShout = nil
		if sh == nil {
			sh = &shout{callers: make([]int, 0, s.n)}
		}
		*sh = shout{callers: append(sh.callers[:0], a.Seat), first: now, closes: now.Add(s.opts.Grace)}
		s.shout = sh
		s.emit(&Event{At: now, Kind: EventShouted, No: s.plays, Seat: a.Seat})
	default:
		s.closeWindow()
		s.showdown(a.Seat, nil, now, now)
	}
	return nil
}

// settleShout ends the grace at now: of the seats that called together, the
// one nearest the player's left wins the call, and the reveal goes on from
// the first call's moment, so the grace costs the game no time.
func (s *State) settleShout(now time.Time) {
	sh := s.shout
	winner := sh.callers[0]
	for _, c := range sh.callers[1:] {
		if s.steps(s.last.Seat, c) < s.steps(s.last.Seat, winner) {
			winner = c
		}
	}
	var others []int
	for _, c := range sh.callers {
		if c != winner {
			others = append(others, c)
		}
	}
	s.closeWindow()
	s.shout = nil
	s.showdown(winner, others, sh.first, now)
	s.spareShout = sh // others is a slice of its own
}

func (s *State) pass(a Action, now time.Time) *Error {
	if err := s.answering(a); err != nil {
		return err
	}
	s.win.passed[a.Seat] = true
	s.emit(&Event{At: now, Kind: EventPass, No: s.plays, Seat: a.Seat})
	if s.phase == PhaseShout {
		// Harmless: the play has been called already.
		return nil
	}
	for seat, passed := range s.win.passed {
		if seat != s.last.Seat && !passed && !s.isOut(seat) {
			return nil
		}
	}
	s.stand(now)
	return nil
}

// answering checks that a call or pass answers the play in its window (or
// in the grace after its first call).
func (s *State) answering(a Action) *Error {
	if s.last == nil {
		return errNothingToCall
	}
	if a.No != s.plays || (s.phase == PhasePlay && a.No == s.last.No) {
		return errSettled
	}
	if (s.phase == PhaseReveal || s.phase == PhaseGive) && s.last.Seat != a.Seat {
		// A shout sent twice is told it was done, not that someone beat you.
		if s.last.Caller == a.Seat {
			return refuse(CodeStale, "You've called it.")
		}
		if a.Kind == ActPass {
			return errSettled
		}
		if s.isOut(a.Seat) {
			return errOutCantCall
		}
		if s.calledTogether(a.Seat) {
			return refuseNaming(CodeStale, "You called together with %s, who was nearer the player's left and has it.", s.last.Caller)
		}
		return refuseNaming(CodeStale, "%s beat you to it.", s.last.Caller)
	}
	if s.phase != PhaseCall && s.phase != PhaseShout {
		return errNothingToCall
	}
	if a.Seat == s.last.Seat {
		if a.Kind == ActPass {
			return refuse(CodeNotYourTurn, "It's your own play: the others decide.")
		}
		return refuse(CodeNotYourTurn, "You can't call your own play.")
	}
	if s.isOut(a.Seat) {
		return errOutCantCall
	}
	if s.phase == PhaseShout && slices.Contains(s.shout.callers, a.Seat) {
		return refuse(CodeStale, "You've called it.")
	}
	if s.win.passed[a.Seat] {
		return refuse(CodeStale, "You let that one go.")
	}
	return nil
}

// calledTogether reports whether seat called the last play within the grace
// of its first call and lost it to a seat nearer the player's left.
func (s *State) calledTogether(seat int) bool {
	sd := s.log[s.lastCalled()].showdown()
	return slices.Contains(sd.Together, seat)
}

// stand lets the last play stand: its player wins if it was their last card.
func (s *State) stand(now time.Time) {
	s.closeWindow()
	s.emit(&Event{At: now, Kind: EventStood, No: s.last.No, Seat: s.last.Seat})
	if s.last.Out {
		s.goOut(s.last.Seat, now)
		return
	}
	s.advance(now)
}

// goOut puts seat out, its last card having survived the call (or nobody
// having called it). The standard game ends there; with PlayOn the others
// play on for the places after, until two are left.
func (s *State) goOut(seat int, now time.Time) {
	s.out = append(s.out, seat)
	if s.opts.PlayOn {
		s.emit(&Event{At: now, Kind: EventOut, Seat: seat, Place: len(s.out)})
	}
	if !s.opts.PlayOn || s.playing() <= 2 {
		s.finish(now)
		return
	}
	s.advance(now)
}

// advance moves on to the next play: the seat after the last player, the
// next rank, called or not.
func (s *State) advance(now time.Time) {
	s.rank++
	s.turn = s.nextIn(s.last.Seat)
	s.phase = PhasePlay
	s.until = time.Time{}
	s.dropBeats()
	if s.plays >= s.rules.PlayCap {
		s.capped = true
		s.finish(now)
	}
}

func (s *State) give(a Action, now time.Time) *Error {
	if a.No != s.plays {
		return errSettled
	}
	if s.phase != PhaseGive {
		if s.phase == PhasePlay && s.last != nil && s.last.Caller == a.Seat && a.No == s.last.No &&
			s.log[s.lastCalled()].showdown().Given > 0 {
			return refuse(CodeStale, "You've handed that over already.")
		}
		return refuse(CodeNotYourTurn, "There's nothing to hand over now.")
	}
	if a.Seat != s.last.Caller {
		return refuse(CodeNotYourTurn, "Only the caller hands cards over.")
	}
	if len(a.Cards) != s.owed {
		return illegal(fmt.Sprintf("Hand over %d %s.", s.owed, plural(s.owed, "card")))
	}
	if !holds(s.hands[a.Seat], a.Cards) {
		return illegal("That card isn't in your hand.")
	}
	s.handOver(a.Cards, now)
	return nil
}

func (s *State) handOver(cards []Card, now time.Time) {
	from, to := s.last.Caller, s.last.Seat
	cards = s.keepCards(cards)
	s.hands[from] = remove(s.hands[from], cards)
	s.hands[to] = append(s.hands[to], cards...)
	s.changed |= 1<<from | 1<<to
	sortCards(s.hands[to])
	s.emit(&Event{At: now, Kind: EventGave, No: s.last.No, Seat: to, Caller: seatRef(from), Given: len(cards)})
	s.emit(&Event{At: now, Kind: EventHanded, No: s.last.No, Seat: to, Caller: seatRef(from), Cards: cards, To: s.keepSeats(from, to)})
	s.owed = 0
	s.advance(now)
}

// holds reports whether hand has every one of cards, each once.
func holds(hand, cards []Card) bool {
	for i, c := range cards {
		if !slices.Contains(hand, c) || slices.Contains(cards[:i], c) {
			return false
		}
	}
	return true
}

// remove returns hand without cards, keeping its order.
func remove(hand, cards []Card) []Card {
	return slices.DeleteFunc(hand, func(c Card) bool { return slices.Contains(cards, c) })
}

func plural(n int, word string) string {
	if n == 1 {
		return word
	}
	return word + "s"
}
