package sim

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"time"

	"bullshit/engine"
	"bullshit/engine/bot"
)

// Strategy names a scripted person's way of playing (see Strategies).
type Strategy string

// Policy is a scripted person: a few plain habits, each decided from the
// seat's view alone, as a person at the table sees it. Every person tells
// the truth when they hold the rank (all of it, up to the claim limit),
// bluffs one card when they don't, and calls a play that would empty a hand.
type Policy struct {
	Name  Strategy
	About string
	// Hint: calls when the table's hint says the play can't be true or the
	// counts give a sneak away (the view's Doubt).
	Hint bool
	// Read: calls when the hard bot's reading, from this seat's view, says
	// a call is a good bet (bot.Read, which the review page shows too).
	Read bool
	// Calls is the share of plays called at random, on top of the above.
	Calls float64
	// SmallPiles calls every play onto a pile of three cards or fewer, and
	// BigPiles every play onto a pile of seven or more (as the pile looks
	// after the play).
	SmallPiles, BigPiles bool
	// Pad is how often a true play gets one wrong card more, claimed too;
	// it is also how often a bluff is two cards, not one.
	Pad float64
	// PadEmpty pads (at every true play) only onto an empty pile, where
	// being caught costs no more than the play itself.
	PadEmpty bool
	// Careful sneaks one card, or two, whenever the sneak hint says the
	// counts won't show it.
	Careful bool
	// SneakFrom sneaks one card whenever the hand holds at least this many
	// cards, not looking at the counts; SneakRate makes that only some of
	// those plays (zero: every one).
	SneakFrom int
	SneakRate float64
	// Counts calls on what the public counts alone say (see CountRule).
	Counts CountRule
	// RecordSneak calls when the hard bot's reading of a hidden sneak,
	// which weighs the claimant's record as a hard bot does, is at least
	// this (zero: never on it).
	RecordSneak float64
	// PadUpTo pads (and bluffs two cards) only onto a pile that looks at
	// most this big, PadFrom only onto one that looks at least this big
	// (zero: any pile).
	PadUpTo, PadFrom int
	// CarefulRate makes a careful sneak only some of the plays the counts
	// hide it on (zero: every one), and SneakUpTo only onto a pile that
	// looks at most this big (zero: any).
	CarefulRate float64
	SneakUpTo   int
}

// Strategies are the people panel's strategies, in the order the report
// shows them.
var Strategies = []Policy{
	{Name: "silent", About: "tells the truth when it can, bluffs one card when it must, never calls but a last card"},
	{Name: "hint", About: "the same, and calls whenever the hint says a play can't be true", Hint: true},
	{Name: "calls 5%", About: "truthful, calls 5% of plays at random", Calls: 0.05},
	{Name: "calls 15%", About: "truthful, calls 15% of plays at random", Calls: 0.15},
	{Name: "calls 30%", About: "truthful, calls 30% of plays at random", Calls: 0.30},
	{Name: "calls 50%", About: "truthful, calls half the plays at random", Calls: 0.50},
	{Name: "small piles", About: "truthful, calls every play onto a pile of three or fewer", SmallPiles: true, Hint: true},
	{Name: "big piles", About: "truthful, calls every play onto a pile of seven or more", BigPiles: true, Hint: true},
	{Name: "bluffs 10%", About: "pads a tenth of its true plays with a wrong card (bluffs two cards as often); calls on the hint", Pad: 0.10, Hint: true},
	{Name: "bluffs 25%", About: "the same, a quarter of its plays", Pad: 0.25, Hint: true},
	{Name: "bluffs 50%", About: "the same, half its plays", Pad: 0.50, Hint: true},
	{Name: "careful sneaker", About: "sneaks one or two cards whenever the hint says the counts hide it; calls on the hint", Careful: true, Hint: true},
	{Name: "reckless sneaker", About: "sneaks one card whenever its hand holds 12 or more; calls on the hint", SneakFrom: 12, Hint: true},
	{Name: "newcomer", About: "calls 15% of plays at random, pads a tenth, sneaks a card on a tenth of its plays without looking",
		Calls: 0.15, Pad: 0.10, SneakFrom: 2, SneakRate: 0.10},
	{Name: "sharp", About: "calls on the hint and when the hard bot's reading of its view says a call pays; pads onto an empty pile; " +
		"sneaks carefully", Read: true, Hint: true, PadEmpty: true, Careful: true},
	{Name: "counts hide", About: "truthful; calls on the hint and every play whose public counts could hide a one-card sneak",
		Hint: true, Counts: CountRule{Share: 0.01}},
	{Name: "counts hide 2", About: "the same, only where the counts could hide two cards", Hint: true, Counts: CountRule{Share: 0.01, Cards: 2}},
	{Name: "counts mostly hide", About: "the same, only where most of the sizes the counts allow would hide one card",
		Hint: true, Counts: CountRule{Share: 0.5}},
	{Name: "hand hides", About: "the same, reading the hand's count alone", Hint: true, Counts: CountRule{Share: 0.5, Hand: true}},
	{Name: "pile hides", About: "the same, reading the pile's count alone", Hint: true, Counts: CountRule{Share: 0.5, Pile: true}},
	{Name: "counts hide, small piles", About: "calls where the counts could hide a card, onto a pile of six or fewer",
		Hint: true, Counts: CountRule{Share: 0.01, UpTo: 6}},
	{Name: "counts hide, big piles", About: "calls where the counts could hide a card, onto a pile of seven or more",
		Hint: true, Counts: CountRule{Share: 0.01, From: 7}},
	{Name: "counts hide, big claims", About: "calls where the counts could hide a card under a claim of two or more",
		Hint: true, Counts: CountRule{Share: 0.01, Claim: 2}},
	{Name: "record reader", About: "truthful; calls on the hint and where the hard bot's reading, the claimant's record weighed as hard " +
		"weighs it, puts a hidden sneak at one in three or more", Hint: true, RecordSneak: 1.0 / 3},
	{Name: "counts and record", About: "calls where the counts could hide a card and the record reading puts a sneak at one in five",
		Hint: true, RecordSneak: 0.2, Counts: CountRule{Share: 0.01, AndRecord: true}},
	{Name: "pads small piles", About: "pads half its true plays (bluffs two as often) onto a pile of three or fewer; calls on the hint",
		Hint: true, Pad: 0.5, PadUpTo: 3},
	{Name: "pads small always", About: "pads every true play it can onto a pile of three or fewer; calls on the hint",
		Hint: true, Pad: 1, PadUpTo: 3},
	{Name: "pads big piles", About: "pads half its true plays onto a pile of seven or more; calls on the hint", Hint: true, Pad: 0.5, PadFrom: 7},
	{Name: "sneaks a quarter", About: "sneaks as the careful sneaker does on a quarter of the plays the counts hide; calls on the hint",
		Hint: true, Careful: true, CarefulRate: 0.25},
	{Name: "sneaks half", About: "the same, on half of them", Hint: true, Careful: true, CarefulRate: 0.5},
	{Name: "sneaks small piles", About: "sneaks carefully, only onto a pile of three or fewer; calls on the hint",
		Hint: true, Careful: true, SneakUpTo: 3},
	{Name: "thinker", About: "reads as the record reader; pads half its true plays onto a small pile and sneaks carefully on half the " +
		"plays the counts hide", Hint: true, RecordSneak: 1.0 / 3, Read: true, Pad: 0.5, PadUpTo: 3, Careful: true, CarefulRate: 0.5},
}

// PolicyOf is the named strategy's policy.
func PolicyOf(s Strategy) (Policy, error) {
	for _, p := range Strategies {
		if p.Name == s {
			return p, nil
		}
	}
	return Policy{}, fmt.Errorf("no such person's strategy %q", s)
}

// A person's timing: two seconds to play or hand over, and listening after
// every bot (the slowest bot's listen at the table's pace, and a little
// more), so a person calls only what no bot shouted first.
const (
	personTurn  = 2 * time.Second
	personAfter = 400 * time.Millisecond
)

// PersonTime is how long a scripted person takes over a decision of kind k.
func PersonTime(k engine.Think, p engine.Pace) time.Duration {
	switch k {
	case engine.ThinkTurn, engine.ThinkGive:
		return personTurn
	}
	return engine.ThinkTime(engine.Listen3, p) + personAfter
}

// person plays a seat by its policy; like a bot it keeps nothing between
// decisions, drawing each one's random choices from its seed and the view.
type person struct {
	Policy
	seed uint64
}

func newPerson(s Strategy, seed uint64) (*person, error) {
	p, err := PolicyOf(s)
	if err != nil {
		return nil, err
	}
	return &person{Policy: p, seed: seed}, nil
}

// Decide is the person's move from the view, or ok false with nothing to do.
func (p *person) Decide(v *engine.View) (engine.Action, bool) {
	if len(v.Can) == 0 || v.Seat == engine.Spectator {
		return engine.Action{}, false
	}
	rng := rand.New(rand.NewPCG(p.seed, uint64(v.Version)))
	a := engine.Action{Seat: v.Seat, No: v.Plays}
	switch {
	case slices.Contains(v.Can, engine.ActPlay):
		a.Kind = engine.ActPlay
		a.Cards, a.Claim = p.play(v, rng)
	case slices.Contains(v.Can, engine.ActCall):
		a.Kind = engine.ActPass
		if p.calls(v, rng) {
			a.Kind = engine.ActCall
		}
	default:
		return v.Fallback()
	}
	return a, true
}

// calls decides whether to shout on the last play.
func (p *person) calls(v *engine.View, rng *rand.Rand) bool {
	last := v.Last
	pile := v.Pile
	switch {
	case last == nil:
		return false
	case last.Out, p.Hint && v.Doubt != "":
		return true
	case p.Read && bot.Read(*v).Call:
		return true
	case p.SmallPiles && pile.Hi != engine.Open && pile.Hi <= 3, p.BigPiles && pile.Lo >= 7:
		return true
	}
	record := p.RecordSneak > 0 && v.Options.Sneak > 0 && bot.Read(*v).Sneak >= p.RecordSneak
	if p.Counts.Share > 0 {
		if p.Counts.calls(v) && (!p.Counts.AndRecord || record) {
			return true
		}
	} else if record {
		return true
	}
	return rng.Float64() < p.Calls
}

// play is the cards the person puts down and the claim.
func (p *person) play(v *engine.View, rng *rand.Rand) ([]engine.Card, int) {
	var cards, rest []engine.Card
	for _, c := range v.Hand {
		if c.Rank() == v.Rank && len(cards) < v.MaxClaim {
			cards = append(cards, c)
		} else {
			rest = append(rest, c)
		}
	}
	next, seats := v.RankIndex+v.Playing(), v.Playing()
	spare := func(k int) {
		picked := engine.LeastUseful(rest, next, seats, k)
		cards = append(cards, picked...)
		rest = slices.DeleteFunc(rest, func(c engine.Card) bool { return slices.Contains(picked, c) })
	}
	pads := p.PadUpTo == 0 || v.Pile.Hi != engine.Open && v.Pile.Hi <= p.PadUpTo
	pads = pads && v.Pile.Lo >= p.PadFrom
	switch {
	case len(cards) == 0:
		n := 1
		if len(rest) >= 3 && v.MaxClaim >= 2 && pads && rng.Float64() < p.Pad {
			n = 2
		}
		spare(n)
	case len(cards) < v.MaxClaim && len(rest) > 1:
		// Padding never spends the last card: that play is always called.
		if (p.PadEmpty && v.Pile.Hi == 0) || pads && rng.Float64() < p.Pad {
			spare(1)
		}
	}
	claim := len(cards)
	sneak := 0
	switch most := min(v.Options.Sneak, len(rest)-1, 2); {
	case most <= 0:
	case p.SneakUpTo > 0 && (v.Pile.Hi == engine.Open || v.Pile.Hi > p.SneakUpTo):
	case p.Careful && p.CarefulRate > 0 && rng.Float64() >= p.CarefulRate:
	case p.Careful:
		for s := most; s > 0; s-- {
			if !engine.SneakMayShow(len(v.Hand), v.Pile, claim, s) {
				sneak = s
				break
			}
		}
	case p.SneakFrom > 0 && len(v.Hand) >= p.SneakFrom && (p.SneakRate == 0 || rng.Float64() < p.SneakRate):
		sneak = 1
	}
	if sneak > 0 {
		spare(sneak)
	}
	return cards, claim
}
