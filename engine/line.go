package engine

import (
	"slices"
	"time"
)

// line is one line of the log as the state keeps it: an Event packed to
// under half its size, because a game keeps every line it makes and a server
// keeps thousands of games. Small numbers are narrowed, the rare fields
// (a showdown, the result, a resume's Since) sit behind one pointer, and the
// seats a private line is told to are held inline. Log turns lines back into
// Events.
type line struct {
	At    time.Time
	Sizes *Sizes // from the state's chunks; never changed
	more  *lineMore
	// The line's cards are the state's cards[first:first+n].
	first uint32
	No    int32
	Claim int16
	Given int16
	n     uint8
	kind  uint8 // the index of its kind in eventKinds
	Seat  int8
	Place int8
	// caller and rank are only set when the flags say so.
	caller, rank int8
	flags        uint8
	toLen        int8 // how many seats of to the line is told to; 0 is everyone
	to           [2]int8
}

// The line's flags.
const (
	lineOut uint8 = 1 << iota
	lineHasCaller
	lineHasRank
)

// eventKinds are the kinds of line, by the number a line keeps for them.
var eventKinds = [...]EventKind{EventDeal, EventPlay, EventMine, EventPass, EventShouted, EventOut, EventStood,
	EventCalled, EventGave, EventHanded, EventOver, EventResumed}

// Kind is the line's kind.
func (l *line) Kind() EventKind { return eventKinds[l.kind] }

// lineMore are the fields only a few lines have.
type lineMore struct {
	Showdown *Showdown
	Result   []Place
	Since    time.Time
}

// emit adds a line to the log. Every number it narrows is bounded far below
// its type's limit: seats by MaxSeats, plays by PlayCap, cards by the decks.
func (s *State) emit(e *Event) {
	kind := slices.Index(eventKinds[:], e.Kind)
	if kind < 0 {
		panic("engine: a line of no known kind")
	}
	if len(e.To) > 2 {
		panic("engine: a private line told to more than two seats")
	}
	// The line is written where it will stay, not built aside and copied.
	s.log = append(s.log, line{})
	l := &s.log[len(s.log)-1]
	l.At, l.Sizes = e.At, e.Sizes
	l.No, l.Claim, l.Given, l.Seat, l.Place = int32(e.No), int16(e.Claim), int16(e.Given), int8(e.Seat), int8(e.Place)
	if e.Out {
		l.flags |= lineOut
	}
	l.kind = uint8(kind)
	l.first, l.n = s.cardsRef(e.Cards)
	if e.Caller != nil {
		l.caller = int8(*e.Caller)
		l.flags |= lineHasCaller
	}
	if e.Rank != nil {
		l.rank = int8(*e.Rank)
		l.flags |= lineHasRank
	}
	l.toLen = int8(len(e.To))
	for i, seat := range e.To {
		l.to[i] = int8(seat)
	}
	if e.Showdown != nil || e.Result != nil || !e.Since.IsZero() {
		l.more = &lineMore{Showdown: e.Showdown, Result: e.Result, Since: e.Since}
	}
}

// showdown is the line's showdown, or nil.
func (l *line) showdown() *Showdown {
	if l.more == nil {
		return nil
	}
	return l.more.Showdown
}

// toldTo reports whether seat is told the line.
func (l *line) toldTo(seat int) bool {
	if l.toLen == 0 {
		return true
	}
	return slices.Contains(l.to[:l.toLen], int8(seat))
}

// cards are the line's cards, as the state keeps them: not to be changed.
func (s *State) cardsOf(l *line) []Card {
	if l.n == 0 {
		return nil
	}
	end := int(l.first) + int(l.n)
	return s.cards[l.first:end:end]
}

// event is the line as an Event, with copies of everything it points to, so
// no reader of the log can change the state's own lines.
func (s *State) event(l *line) Event {
	e := Event{
		At: l.At, Kind: l.Kind(), No: int(l.No), Seat: int(l.Seat), Claim: int(l.Claim), Out: l.flags&lineOut != 0,
		Cards: slices.Clone(s.cardsOf(l)), Given: int(l.Given), Place: int(l.Place),
	}
	if l.flags&lineHasCaller != 0 {
		e.Caller = ptr(int(l.caller))
	}
	if l.flags&lineHasRank != 0 {
		e.Rank = ptr(Rank(l.rank))
	}
	if l.Sizes != nil {
		e.Sizes = ptr(*l.Sizes)
	}
	if l.toLen > 0 {
		e.To = make([]int, l.toLen)
		for i, seat := range l.to[:l.toLen] {
			e.To[i] = int(seat)
		}
	}
	if m := l.more; m != nil {
		e.Result, e.Since = slices.Clone(m.Result), m.Since
		if m.Showdown != nil {
			sd := *m.Showdown
			sd.Cards, sd.Together = slices.Clone(sd.Cards), slices.Clone(sd.Together)
			e.Showdown = &sd
		}
	}
	return e
}
