package bot

import (
	"math"
	"math/rand/v2"

	"bullshit/engine"
)

// calls decides whether to shout on the last play. Every bot, easy included,
// calls a play that empties a hand: if it was true the game is over anyway,
// and if it was a lie the liar takes the pile, so letting it go only ever
// hands someone the game. An impossible claim is called outright, and a
// sneak the counts show is noticed with a chance by level. Otherwise the bot
// works out how badly it wants the play called (0 to 1) and, since anyone
// may shout, leaves some of that to the others: the table as a whole calls
// about as often as one bot wants it called, however many are listening.
func (b *Bot) calls(v engine.View, rng *rand.Rand) bool {
	last := v.Last
	if last == nil {
		return false
	}
	if last.Out || impossible(v) {
		return true
	}
	if v.Options.Sneak > 0 && countsShow(last) && chance(rng, b.skill.notice) {
		return true
	}
	var want float64
	switch b.level {
	case Easy:
		want = b.hunch(v)
	case Medium:
		want = b.guess(v)
	default:
		want = b.read(v)
	}
	listening := max(1, len(v.Seats)-1)
	return rng.Float64() < 1-math.Pow(1-want, 1/float64(listening))
}

// impossible reports whether the claim can't be true given the seat's own
// cards: more of the rank than are left.
func impossible(v engine.View) bool {
	return heldOf(v.Hand, v.Last.Rank)+v.Last.Claim > v.Options.Copies()
}

// countsShow reports whether the play's sizes give a sneak away: the hand
// or the pile changed by more than the claim.
func countsShow(last *engine.LastPlay) bool {
	return !engine.LooksClean(last.Sizes.Hand[0], last.Sizes.Hand[1], last.Claim, engine.HandKind) ||
		!engine.LooksClean(last.Sizes.Pile[0], last.Sizes.Pile[1], last.Claim, engine.PileKind)
}

func heldOf(hand []engine.Card, r engine.Rank) int {
	n := 0
	for _, c := range hand {
		if c.Rank() == r {
			n++
		}
	}
	return n
}

// hunch is an easy bot's wish to call: bigger claims look fishier, and
// nothing else counts, not even the pile it would take.
func (b *Bot) hunch(v engine.View) float64 {
	return clamp(float64(b.params.Weight) * (0.22 + 0.1*float64(v.Last.Claim-1)))
}

// guess is a medium bot's wish to call: a rough chance of a lie from the
// claim's size and its own cards of the rank, against a bar set by the pile
// and how close the claimant is to going out.
func (b *Bot) guess(v engine.View) float64 {
	last := v.Last
	own := heldOf(v.Hand, last.Rank)
	p := 0.3 + 0.12*float64(last.Claim-1) + 0.08*float64(own)
	return b.want(v, p, 3)
}

// want turns a chance of a lie into how badly the bot wants the play called,
// against its bar; sharp sets how steeply it goes from not at all to surely.
func (b *Bot) want(v engine.View, pLie, sharp float64) float64 {
	return clamp(0.5 + sharp*(b.params.Weight*pLie-b.bar(v)))
}

// bar is how likely a lie must be before the bot calls: its style's floor,
// raised by the pile it would take if wrong, lowered when the claimant is
// close to going out.
func (b *Bot) bar(v engine.View) float64 {
	last := v.Last
	pile := mid(v.Pile)
	bar := float64(b.params.Floor) + 0.012*float64(pile)
	if left := mid(last.Sizes.Hand[1]); left <= 3 {
		bar -= 0.08 * float64(4-left)
	}
	return bar
}

// mid is a rough count's middle, or its low end when it has none.
func mid(r engine.Range) int {
	if r.Hi == engine.Open {
		return r.Lo
	}
	return (r.Lo + r.Hi) / 2
}

func clamp(x float64) float64 { return max(0, min(1, x)) }
