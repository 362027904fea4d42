package bot

import (
	"math"

	"bullshit/engine"
)

// How the levels weigh a call. Each was set by playing the simulator's
// pairings (docs/bullshit.md): medium must beat easy clearly and hard must
// beat medium, with hard still catching careful sneakers.
const (
	// easyWant is how badly an easy bot wants a one-card claim called, and
	// easyStep how much more for each card claimed beyond one.
	easyWant, easyStep = 0.35, 0.08
	// mediumLie is a medium bot's guess at the chance of a lie, and
	// mediumHeld how much each of its own cards of the rank adds to it.
	mediumLie, mediumHeld = 0.36, 0.12
	// mediumSharp is how steeply a medium bot's wish rises past its bar.
	mediumSharp = 1.5
	// closeStep lowers a medium bot's bar for each card the claimant holds
	// under four; mineStep raises a bot's bar (or, for a hard bot, the cost
	// of a wrong call) for each card it holds itself under four.
	closeStep, mineStep = 0.08, 0.05
	// smallTableBar raises a medium bot's bar at a table of fewer than
	// bigTable seats, where each wrong call is a big gift to the one or two
	// seats that stayed silent.
	smallTableBar = 0.05
)

// calls decides whether to shout on the last play. Every bot, easy included,
// calls a play that empties a hand: if it was true the game is over anyway,
// and if it was a lie the liar takes the pile, so letting it go only ever
// hands someone the game. An impossible claim is called outright, and a
// sneak the counts show is noticed with a chance by level. Otherwise the bot
// works out how badly it wants the play called (0 to 1) and, since anyone
// may shout, leaves some of that to the others: the table as a whole calls
// about as often as one bot wants it called, however many are listening.
func (b *Bot) calls(v *engine.View, rng *source) bool {
	last := v.Last
	if last == nil {
		return false
	}
	if last.Out || impossible(v) {
		return true
	}
	if v.Options.Sneak > 0 && countsShow(last) && chance(rng, b.skill.Notice) {
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
	listening := max(1, v.Playing()-1)
	return rng.Float64() < 1-math.Pow(1-want, 1/float64(listening))
}

// impossible reports whether the claim can't be true given the seat's own
// cards: more of the rank than are left.
func impossible(v *engine.View) bool {
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

// hunch is an easy bot's wish to call: bigger claims look fishier (though
// bluffs are mostly small), and nothing else counts, not even the pile it
// would take if wrong.
func (b *Bot) hunch(v *engine.View) float64 {
	return clamp(b.params.Weight * (easyWant + easyStep*float64(v.Last.Claim-1)))
}

// guess is a medium bot's wish to call, the way a casual player judges it:
// a rough chance of a lie, half a guess that rises with its own cards of the
// rank and half the hard bot's reading of the rank, moved by the claimant's
// record in this game (see liar), and the hard bot's chance of a hidden sneak,
// against a bar set by its style and by how close the claimant and the bot
// are to going out. It weighs neither the pile it would take if wrong nor
// that a liar it catches helps every other player as much as it helps
// itself.
func (b *Bot) guess(v *engine.View) float64 {
	p := mediumLie + mediumHeld*float64(heldOf(v.Hand, v.Last.Rank))
	p = byRecord((min(p, 0.99)+rankLieChance(v, false))/2, liar(v, v.Last.Seat))
	if v.Options.Sneak > 0 {
		p = 1 - (1-p)*(1-sneakChance(v, casualPrior(v, v.Last.Seat)))
	}
	return clamp(mediumSharp * (b.params.Weight*p - b.bar(v)))
}

// bar is how likely a lie must be before a medium bot calls: its style's
// floor, lowered when the claimant is close to going out (catching them
// matters most then) and raised when the bot is itself close (a pile would
// cost it the game).
func (b *Bot) bar(v *engine.View) float64 {
	bar := float64(b.params.Floor)
	if v.Playing() < bigTable {
		bar += smallTableBar
	}
	if n := v.Playing(); n > 3 && n <= bigTable && mid(v.Pile) <= smallPile {
		bar -= smallPileBar
	}
	if left := mid(v.Last.Sizes.Hand[1]); left <= 3 {
		bar -= closeStep * float64(4-left)
	}
	if mine := len(v.Hand); mine <= 3 {
		bar += mineStep * float64(4-mine)
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
