package bot

import "bullshit/engine"

// Reading is how a careful reader sees the last play from a seat's view: the
// hard bot's model with a neutral temperament. Reviews use it to say how
// likely a lie looked to each listener and whether calling was a good bet.
type Reading struct {
	// Lie is the chance the play was a lie: a card not of the rank, or
	// anything sneaked under it.
	Lie float64 `json:"lie"`
	// Sneak is the chance something was sneaked under it.
	Sneak float64 `json:"sneak"`
	// Impossible: the claim can't be true given the seat's own cards.
	Impossible bool `json:"impossible,omitempty"`
	// Call: the hard bot would want the play called (a call worth making on
	// average, counting the pile it takes if wrong).
	Call bool `json:"call"`
}

// Read is the reading of the view's last play, which must be someone else's
// and not yet turned up.
func Read(v engine.View) Reading {
	if v.Last == nil || v.Last.Seat == v.Seat || v.Last.Shown {
		return Reading{}
	}
	if impossible(&v) {
		return Reading{Lie: 1, Impossible: true, Call: true}
	}
	r := Reading{Lie: rankLieChance(&v, true)}
	if v.Options.Sneak > 0 {
		r.Sneak = sneakChance(&v, sneakPrior(&v, v.Last.Seat))
	}
	r.Lie = 1 - (1-r.Lie)*(1-r.Sneak)
	reader := Bot{level: Hard, params: plain}
	r.Call = v.Last.Out || reader.read(&v) >= 0.5
	return r
}
