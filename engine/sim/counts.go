package sim

import (
	"bullshit/engine"
	"bullshit/engine/bot"
)

// CountRule is a caller that reads only what every seat sees of a play: the
// hand's and the pile's shown sizes before and after, and the claim. It
// calls when, of the true sizes the "before" counts allow, at least Share
// would show the "after" counts had Cards cards (zero: one) gone down
// unclaimed: the counts could hide a sneak.
type CountRule struct {
	Share float64
	Cards int
	// Hand reads the hand's count alone, Pile the pile's alone.
	Hand, Pile bool
	// UpTo calls only onto a pile that looks at most this big after the
	// play, From only onto one at least this big, Claim only claims of at
	// least this many (zero: any).
	UpTo, From, Claim int
	// AndRecord calls only when the record reading agrees too (see
	// Policy.RecordSneak).
	AndRecord bool
}

// calls reports whether the rule calls the view's last play.
func (c CountRule) calls(v *engine.View) bool {
	last := v.Last
	switch {
	case c.Share <= 0 || v.Options.Sneak == 0:
		return false
	case c.UpTo > 0 && (v.Pile.Hi == engine.Open || v.Pile.Hi > c.UpTo), v.Pile.Lo < c.From, last.Claim < c.Claim:
		return false
	}
	return c.hides(last.Sizes, last.Claim) >= c.Share
}

// hides is the share of the sizes the "before" counts allow that would give
// the "after" counts with the rule's sneak under claim, read from the hand,
// the pile or both.
func (c CountRule) hides(sizes engine.Sizes, claim int) float64 {
	played := claim + max(1, c.Cards)
	hand := bot.Share(sizes.Hand, -played, engine.HandKind)
	pile := bot.Share(sizes.Pile, played, engine.PileKind)
	switch {
	case c.Hand:
		return hand
	case c.Pile:
		return pile
	}
	return hand * pile
}
