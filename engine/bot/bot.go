// Package bot plays Bullshit from a seat's view alone. A bot has a level (how
// well it reads the table) and a style (how it lies, sneaks and calls), and
// draws its random choices from a source derived from its seed and the view,
// so it holds no state between moves and the same view always gets the same
// answer.
package bot

import (
	"fmt"
	"math/rand/v2"
	"slices"

	"bullshit/engine"
)

// Bot chooses moves for one seat.
type Bot struct {
	level  Level
	style  Style
	params Params
	skill  Skill
	seed   uint64
}

// New returns a bot of the given level and style; seed fixes its choices.
func New(level Level, style Style, seed uint64) (*Bot, error) {
	if _, err := ParseLevel(string(level)); err != nil {
		return nil, err
	}
	if _, err := ParseStyle(string(style)); err != nil {
		return nil, err
	}
	return &Bot{level: level, style: style, params: style.Params(), skill: skills[level], seed: seed}, nil
}

// Level is the bot's level.
func (b *Bot) Level() Level { return b.level }

// Style is the bot's style.
func (b *Bot) Style() Style { return b.style }

// Choose decides the seat's move from its view alone. ok is false when the
// seat has nothing to do (v.Can is empty). The same view and seed always give
// the same choice. A move the view shows would be refused is replaced by
// v.Fallback(), which is always legal.
func (b *Bot) Choose(v engine.View) (a engine.Action, ok bool) { return b.Decide(&v) }

// Decide is Choose for a view read through a pointer, for drivers that fill
// one view a seat (engine.State.ViewInto) rather than copy it for every
// decision. It never changes v.
func (b *Bot) Decide(v *engine.View) (a engine.Action, ok bool) {
	if len(v.Can) == 0 || v.Seat == engine.Spectator {
		return engine.Action{}, false
	}
	rng := &source{}
	rng.pcg.Seed(b.seeds(v))
	switch {
	case slices.Contains(v.Can, engine.ActPlay):
		a = b.play(v, rng)
	case slices.Contains(v.Can, engine.ActCall):
		a = engine.Action{Kind: engine.ActPass}
		if b.calls(v, rng) {
			a.Kind = engine.ActCall
		}
	case slices.Contains(v.Can, engine.ActGive) && v.Give != nil:
		a = engine.Action{Kind: engine.ActGive, Cards: slices.Clone(v.Give.Suggested)}
	}
	a.Seat, a.No = v.Seat, v.Plays
	if !allowed(v, a) {
		return v.Fallback()
	}
	return a, true
}

// seeds are the bot's random source's seeds for this view: its seed, the
// view's version and the seat, mixed so that nearby values give unrelated
// streams.
func (b *Bot) seeds(v *engine.View) (uint64, uint64) {
	return mix(b.seed ^ mix(uint64(v.Version))), mix(uint64(v.Seat) + 0x5eed)
}

// source is a bot's random source for one decision: a PCG, read exactly as
// math/rand/v2's Rand reads one, but kept on the stack (a Rand holds its
// source as an interface, which puts both on the heap every decision).
type source struct{ pcg rand.PCG }

// Float64 is a number in [0, 1), as rand.Rand's Float64 makes it.
func (r *source) Float64() float64 { return float64(r.pcg.Uint64()<<11>>11) / (1 << 53) }

// Shuffle is rand.Rand's Shuffle, drawing from r. Only easy bots shuffle,
// so they alone pay for the Rand it needs.
func (r *source) Shuffle(n int, swap func(i, j int)) {
	p := new(rand.PCG)
	*p = r.pcg
	rand.New(p).Shuffle(n, swap)
	r.pcg = *p
}

// mix is SplitMix64's finaliser: a cheap, well-spread hash of x.
func mix(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9
	x = (x ^ (x >> 27)) * 0x94d049bb133111eb
	return x ^ (x >> 31)
}

// allowed reports whether the view says the engine would accept a: the
// bot's own check before it commits to a move.
func allowed(v *engine.View, a engine.Action) bool {
	if !slices.Contains(v.Can, a.Kind) {
		return false
	}
	switch a.Kind {
	case engine.ActPlay:
		claim := a.Claim
		if claim == 0 {
			claim = len(a.Cards)
		}
		sneaked := len(a.Cards) - claim
		return held(v.Hand, a.Cards) && claim >= 1 && claim <= v.MaxClaim &&
			sneaked >= 0 && sneaked <= v.Options.Sneak
	case engine.ActGive:
		return v.Give != nil && len(a.Cards) == v.Give.Count && held(v.Hand, a.Cards)
	}
	return true
}

// held reports whether hand has every one of cards, each once.
func held(hand, cards []engine.Card) bool {
	if len(cards) == 0 {
		return false
	}
	for i, c := range cards {
		if !slices.Contains(hand, c) || slices.Contains(cards[:i], c) {
			return false
		}
	}
	return true
}

// String names the bot as its seat shows it.
func (b *Bot) String() string { return fmt.Sprintf("%s %s bot", b.level, b.style) }
