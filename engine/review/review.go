// Package review reads a finished game back from its record: every play with
// its true cards, who called or let it go and how fast, each hand-over, and
// what the counts showed the table at the time, from each listener's own
// view, as a careful reader (the hard bot) would have read it.
//
// Nothing here is stored: a review is computed from the record by the engine
// and the bots, so it stays right when the bots' reading improves. It is
// pure: time comes from the record, and it imports only the engine and bots.
package review

import (
	"errors"
	"fmt"
	"slices"
	"time"

	"bullshit/engine"
	"bullshit/engine/bot"
)

// Game is a finished game as its record holds it; Over and HostEnded say
// how it ended.
type Game = engine.Replay

// Review is a finished game, play by play.
type Review struct {
	// Dealt is every seat's hand as dealt, in calling order as dealt.
	Dealt [][]engine.Card `json:"dealt"`
	Plays []Play          `json:"plays"`
	Seats []SeatStats     `json:"seats"`
	// Final is the game's last view, as a spectator sees it (the result
	// sheet included).
	Final engine.View `json:"final"`
	// Log is the whole log, every private line included.
	Log []engine.Event `json:"log"`
}

// Play is one play and how it was settled.
type Play struct {
	No    int         `json:"no"`
	Seat  int         `json:"seat"`
	At    time.Time   `json:"at"`
	Rank  engine.Rank `json:"rank"`
	Claim int         `json:"claim"`
	Out   bool        `json:"out,omitempty"`
	// Cards are the cards put down, the claimed ones first.
	Cards   []engine.Card `json:"cards"`
	Sneaked int           `json:"sneaked"`
	// Lie: a card not of the rank, or anything sneaked.
	Lie   bool         `json:"lie"`
	Sizes engine.Sizes `json:"sizes"`
	// Shows: the counts the table saw showed more went down than was
	// claimed, so a careful watcher could see the sneak.
	Shows bool `json:"shows"`
	// Readings are each other seat's reading just after the play, from its
	// own view.
	Readings []Reading `json:"readings"`
	Passes   []Answer  `json:"passes,omitempty"`
	Call     *Answer   `json:"call,omitempty"`
	// Also are the seats that called too, within the grace of the first
	// call, and lost the shout to it.
	Also []Answer `json:"also,omitempty"`
	// Loser took the pile after a call (Took cards), or is -1.
	Loser int `json:"loser"`
	Took  int `json:"took,omitempty"`
	// GoodBet: the call was one the caller's own reading said to make.
	GoodBet bool `json:"good_bet,omitempty"`
	// Missed: a lie that a listener's reading said to call, left uncalled.
	Missed   bool      `json:"missed,omitempty"`
	HandOver *HandOver `json:"hand_over,omitempty"`
	// Left is every seat's true number of cards once the play was settled
	// (the pile taken, any hand-over made), which nobody saw exactly.
	Left []int `json:"left"`
}

// Reading is one listener's reading of a play.
type Reading struct {
	Seat int `json:"seat"`
	bot.Reading
}

// Answer is a seat's answer to a play and how long after the play it came.
type Answer struct {
	Seat  int           `json:"seat"`
	After time.Duration `json:"-"`
	// Seconds is After in seconds, as the API gives durations.
	Seconds float64 `json:"after_seconds"`
}

// HandOver is the cards a caller handed a caught sneaker.
type HandOver struct {
	From  int           `json:"from"`
	To    int           `json:"to"`
	Cards []engine.Card `json:"cards"`
}

// SeatStats is one seat's game in numbers.
type SeatStats struct {
	Seat  int `json:"seat"`
	Plays int `json:"plays"`
	Lies  int `json:"lies"`
	// Sneaks counts the plays with cards sneaked, Caught those called.
	Sneaks int `json:"sneaks"`
	Caught int `json:"caught"`
	Calls  int `json:"calls"`
	Right  int `json:"right"`
	// GoodBets counts its calls its reading said to make; Missed the lies
	// its reading said to call that it let go uncalled.
	GoodBets int `json:"good_bets"`
	Missed   int `json:"missed"`
}

// ErrNotOver is returned for a record whose game did not end.
var ErrNotOver = errors.New("review: the game is not over")

// Of reviews a finished game.
func Of(g Game) (*Review, error) {
	var r *Review
	readings := make(map[int][]Reading)
	s, err := g.Each(func(s *engine.State, st engine.Step) {
		switch {
		case st.Kind == engine.StepDeal:
			n := s.Seats()
			r = &Review{Dealt: make([][]engine.Card, n), Seats: make([]SeatStats, n)}
			for seat := range n {
				r.Dealt[seat] = s.View(seat).Hand
				r.Seats[seat].Seat = seat
			}
		case st.Kind == engine.StepAction && st.Action.Kind == engine.ActPlay:
			for seat := range s.Seats() {
				if seat != st.Seat {
					readings[s.Plays()] = append(readings[s.Plays()], Reading{Seat: seat, Reading: bot.Read(s.View(seat))})
				}
			}
		}
	})
	if err != nil {
		return nil, fmt.Errorf("review: %w", err)
	}
	if !s.Over() {
		return nil, ErrNotOver
	}
	r.Final = s.View(engine.Spectator)
	r.Log = s.Log(engine.Spectator)
	r.readLog(readings)
	return r, nil
}

// readLog builds the plays from the complete log.
func (r *Review) readLog(readings map[int][]Reading) {
	byNo := make(map[int]*Play)
	pile := 0 // the true count, which nobody at the table saw
	left := make([]int, len(r.Dealt))
	for seat, hand := range r.Dealt {
		left[seat] = len(hand)
	}
	settled := func() {
		if n := len(r.Plays); n > 0 {
			r.Plays[n-1].Left = slices.Clone(left)
		}
	}
	shouted := make(map[[2]int]time.Time)
	for _, e := range r.Log {
		switch e.Kind {
		case engine.EventPlay:
			settled()
			r.Plays = append(r.Plays, Play{No: e.No, Seat: e.Seat, At: e.At, Rank: *e.Rank, Claim: e.Claim,
				Out: e.Out, Sizes: *e.Sizes, Loser: -1, Readings: readings[e.No]})
			byNo[e.No] = &r.Plays[len(r.Plays)-1]
			p := byNo[e.No]
			p.Shows = !engine.LooksClean(p.Sizes.Hand[0], p.Sizes.Hand[1], p.Claim, engine.HandKind) ||
				!engine.LooksClean(p.Sizes.Pile[0], p.Sizes.Pile[1], p.Claim, engine.PileKind)
		case engine.EventMine:
			p := byNo[e.No]
			p.Cards = e.Cards
			p.Sneaked = len(e.Cards) - e.Claim
			pile += len(e.Cards)
			left[p.Seat] -= len(e.Cards)
			for _, c := range e.Cards[:e.Claim] {
				if c.Rank() != p.Rank {
					p.Lie = true
				}
			}
			p.Lie = p.Lie || p.Sneaked > 0
		case engine.EventPass:
			p := byNo[e.No]
			p.Passes = append(p.Passes, answer(e.Seat, e.At.Sub(p.At)))
		case engine.EventShouted:
			// A call at a table with a grace: the winner's own moment is
			// its shout, not the grace's end when the play is turned up.
			shouted[[2]int{e.No, e.Seat}] = e.At
		case engine.EventCalled:
			p := byNo[e.No]
			at := e.At
			if t, ok := shouted[[2]int{e.No, *e.Caller}]; ok {
				at = t
			}
			a := answer(*e.Caller, at.Sub(p.At))
			p.Call = &a
			for _, seat := range e.Showdown.Together {
				if t, ok := shouted[[2]int{e.No, seat}]; ok {
					p.Also = append(p.Also, answer(seat, t.Sub(p.At)))
				}
			}
			p.Loser, p.Took = e.Showdown.Loser, pile
			left[p.Loser] += pile
			pile = 0
		case engine.EventHanded:
			byNo[e.No].HandOver = &HandOver{From: *e.Caller, To: e.Seat, Cards: e.Cards}
			left[*e.Caller] -= len(e.Cards)
			left[e.Seat] += len(e.Cards)
		}
	}
	settled()
	for i := range r.Plays {
		r.judge(&r.Plays[i])
	}
}

// judge marks a play's good bet and missed lie, and counts it.
func (r *Review) judge(p *Play) {
	st := &r.Seats[p.Seat]
	st.Plays++
	if p.Lie {
		st.Lies++
	}
	if p.Sneaked > 0 {
		st.Sneaks++
	}
	if p.Call != nil {
		c := &r.Seats[p.Call.Seat]
		c.Calls++
		if p.Lie {
			c.Right++
		}
		if p.Sneaked > 0 {
			st.Caught++
		}
		for _, rd := range p.Readings {
			if rd.Seat == p.Call.Seat && rd.Call {
				p.GoodBet = true
				c.GoodBets++
			}
		}
		return
	}
	if !p.Lie {
		return
	}
	for _, rd := range p.Readings {
		if rd.Call {
			p.Missed = true
			r.Seats[rd.Seat].Missed++
		}
	}
}

func answer(seat int, after time.Duration) Answer {
	return Answer{Seat: seat, After: after, Seconds: after.Seconds()}
}
