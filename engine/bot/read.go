package bot

import (
	"math"

	"bullshit/engine"
)

// read is a hard bot's wish to call: the chance the play is a lie, from the
// counts (a sneak) and from the cards it hasn't seen (a rank lie), against
// its bar.
func (b *Bot) read(v engine.View) float64 {
	pSneak := 0.0
	if v.Options.Sneak > 0 {
		pSneak = sneakChance(v)
	}
	pLie := 1 - (1-rankLieChance(v))*(1-pSneak)
	return b.want(v, pLie, 8)
}

// sneakChance is the chance something was sneaked under the last play. Of
// the true hand (and pile) sizes consistent with the rough counts before the
// play, it counts how many give the rough counts after with no sneak, with
// one, with two and so on, each weighted by a prior: a play in five is
// sneaky, more from a player caught before (0.2 + 0.06 per catch, at most a
// half), fewer cards sneaked being likelier than more.
func sneakChance(v engine.View) float64 {
	last := v.Last
	prior := min(0.5, 0.2+0.06*float64(v.Seats[last.Seat].Caught))
	clean := fits(last.Sizes, last.Claim, 0)
	sneaky, share := 0.0, 1.0
	for s := 1; s <= v.Options.Sneak; s++ {
		// Each extra card sneaked is a third as likely as one fewer.
		share /= 3
		sneaky += share * fits(last.Sizes, last.Claim, s)
	}
	total := 0.0
	for s := 1; s <= v.Options.Sneak; s++ {
		total += math.Pow(1.0/3, float64(s))
	}
	if total == 0 {
		return 0
	}
	sneaky *= prior / total
	clean *= 1 - prior
	if sneaky+clean == 0 {
		return 1
	}
	return sneaky / (sneaky + clean)
}

// fits is the share of the true sizes the rough "before" counts allow that
// give the rough "after" counts when claim cards are claimed and sneak more
// go down with them.
func fits(sizes engine.Sizes, claim, sneak int) float64 {
	played := claim + sneak
	return share(sizes.Hand, func(n int) int { return n - played }, engine.HandKind) *
		share(sizes.Pile, func(n int) int { return n + played }, engine.PileKind)
}

func share(r [2]engine.Range, after func(int) int, k engine.Kind) float64 {
	lo, hi := r[0].Lo, r[0].Hi
	if hi == engine.Open {
		hi = lo + 20
	}
	hits := 0
	for n := lo; n <= hi; n++ {
		if m := after(n); m >= 0 && engine.Seen(m, k) == r[1] {
			hits++
		}
	}
	return float64(hits) / float64(hi-lo+1)
}

// rankLieChance is the chance the claimant doesn't hold what it claimed.
// The claimant's hand is taken as a random draw from the cards this seat
// hasn't seen (every card but its own hand), so how many of the rank it
// holds follows the hypergeometric law; and players claim like the bots do:
// with none of the rank, one card (now and then two); with some, all of
// them, now and then padded with one more.
func rankLieChance(v engine.View) float64 {
	last := v.Last
	copies := v.Options.Copies()
	unseen := 52*v.Options.Decks() - len(v.Hand)
	rank := copies - heldOf(v.Hand, last.Rank)
	hand := mid(last.Sizes.Hand[0])
	hand = min(max(hand, last.Claim), unseen)
	var truth, lie float64
	for k := 0; k <= min(rank, hand); k++ {
		p := hypergeom(unseen, rank, hand, k)
		if p == 0 {
			continue
		}
		switch c := last.Claim; {
		case k == 0 && c == 1:
			lie += p * (1 - float64(bluffTwo))
		case k == 0 && c == 2:
			lie += p * float64(bluffTwo)
		case k == 0:
			lie += p * 0.02
		case c == k:
			truth += p * 0.9
		case c == k+1:
			lie += p * 0.1
		case c < k:
			truth += p * 0.05
		default:
			lie += p * 0.02
		}
	}
	if truth+lie == 0 {
		return 1
	}
	return lie / (truth + lie)
}

// hypergeom is the chance that a draw of n cards from N, K of them the rank,
// holds exactly k of the rank.
func hypergeom(total, ranked, n, k int) float64 {
	if k > ranked || n-k > total-ranked || k < 0 || n < k {
		return 0
	}
	return math.Exp(lchoose(ranked, k) + lchoose(total-ranked, n-k) - lchoose(total, n))
}

func lchoose(n, k int) float64 {
	a, _ := math.Lgamma(float64(n + 1))
	b, _ := math.Lgamma(float64(k + 1))
	c, _ := math.Lgamma(float64(n - k + 1))
	return a - b - c
}
