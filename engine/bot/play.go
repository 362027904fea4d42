package bot

import (
	"slices"

	"bullshit/engine"
)

// bluffTwo is how often a bot without the rank bluffs two cards, not one.
const bluffTwo Chance = 0.2

// bigTable is the table size from which a bot pads up to three quarters
// of a rank's copies.
const bigTable = 6

// play chooses the cards for the seat's turn: its cards of the rank (padded
// now and then with a wrong one), else a bluff, then perhaps a sneak.
func (b *Bot) play(v *engine.View, rng *source) engine.Action {
	hand := v.Hand
	// Neither the play nor the cards kept can outgrow the hand; the cards
	// kept stay on the stack for a hand of up to two decks.
	var kept [2 * 52]engine.Card
	cards, rest := make([]engine.Card, 0, len(hand)), kept[:0]
	for _, c := range hand {
		if c.Rank() == v.Rank && len(cards) < v.MaxClaim {
			cards = append(cards, c)
		} else {
			rest = append(rest, c)
		}
	}
	// The rank index of the seat's next turn after this one: the cards it
	// needs soonest are the ones to keep.
	next := v.RankIndex + v.Playing()
	if len(cards) > 0 {
		// Padding never spends the last card: a play that empties a hand is
		// always called.
		if len(cards) < v.MaxClaim && len(rest) > 1 && b.pads(v, len(cards), rng) {
			cards = append(cards, b.spare(rest, next, v.Playing(), 1, rng)...)
			rest = without(rest, cards)
		}
	} else {
		n := 1
		if len(rest) >= 3 && v.MaxClaim >= 2 && chance(rng, bluffTwo) {
			n = 2
		}
		cards = append(cards, b.spare(rest, next, v.Playing(), n, rng)...)
		rest = without(rest, cards)
	}
	claim := len(cards)
	if s := b.sneaks(v, claim, len(rest), rng); s > 0 {
		cards = append(cards, b.spare(rest, next, v.Playing(), s, rng)...)
	}
	return engine.Action{Kind: engine.ActPlay, Cards: cards, Claim: claim}
}

// pads decides whether to add one wrong card to a true claim of claim
// cards. Easy pads at its style's rate anywhere. Medium and hard pad where
// it pays on the table as they have seen it: the chance that someone calls
// one of their plays (from the listeners' own calls so far) times the pile
// they would take if caught, against a bar of one card per listener. Only
// the first seat out wins, so at a big table a card shed is worth more than
// the pile's cards are (a person padding half their plays won 1.5 to 1.9
// fair shares at six to ten seats against bots that padded only onto a near
// empty pile); and a table that rarely calls gets padded on more. The pad
// rate is the style's, scaled by the level's PadBoost.
func (b *Bot) pads(v *engine.View, claim int, rng *source) bool {
	if b.skill.AnyCard {
		return chance(rng, b.params.Pad)
	}
	// A padded claim of more than half the copies is one a listener holding
	// the rest can see is impossible; at a table of six or more the hands
	// are small enough to risk three quarters.
	most := v.Options.Copies() / 2
	if v.Playing() >= bigTable {
		most = v.Options.Copies() * 3 / 4
	}
	if claim+1 > most {
		return false
	}
	after := float64(max(0, mid(v.Pile)) + claim + 1)
	if calledChance(v)*(after+1) >= max(1, float64(v.Playing()-1)) {
		return false
	}
	return chance(rng, Chance(min(1, b.skill.PadBoost*float64(b.params.Pad))))
}

// spare picks k cards to part with: the ones needed last, or, for a bot that
// doesn't plan (easy), any.
func (b *Bot) spare(from []engine.Card, next, seats, k int, rng *source) []engine.Card {
	if !b.skill.AnyCard {
		return engine.LeastUseful(from, next, seats, k)
	}
	picked := slices.Clone(from)
	rng.Shuffle(len(picked), func(i, j int) { picked[i], picked[j] = picked[j], picked[i] })
	return picked[:min(k, len(picked))]
}

// sneaks is how many cards to slip under a claim of claim cards, with spare
// cards left in hand besides: never the last card (a play that empties a
// hand is always called), never past the style's, the table's or the spare
// cards' limit, and, unless the bot is easy or feeling reckless, only what
// the counts won't show.
func (b *Bot) sneaks(v *engine.View, claim, spare int, rng *source) int {
	most := min(b.params.Most, v.Options.Sneak, spare-1)
	if most <= 0 || !chance(rng, b.params.Sneak) {
		return 0
	}
	n := most
	if b.params.Sneak < 1 {
		// Now and then more than one, when the style allows it.
		n = 1
		for n < most && chance(rng, 0.3) {
			n++
		}
	}
	if b.skill.AnyCard || chance(rng, b.params.Reckless) {
		return n
	}
	for n > 0 && engine.SneakMayShow(len(v.Hand), v.Pile, claim, n) {
		n--
	}
	return n
}

// without removes gone from cards, in place.
func without(cards, gone []engine.Card) []engine.Card {
	return slices.DeleteFunc(cards, func(c engine.Card) bool { return slices.Contains(gone, c) })
}

func chance(rng *source, p Chance) bool { return rng.Float64() < float64(p) }
