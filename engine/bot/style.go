package bot

import (
	"fmt"
	"slices"
)

// Level is how well a bot plays its style.
type Level string

// The levels, weakest first.
const (
	Easy   Level = "easy"
	Medium Level = "medium"
	Hard   Level = "hard"
)

// Style is a bot's temperament: how it lies, sneaks and calls.
type Style string

// The styles. The site offers the first three; the other four exist for the
// simulator, which needs players who differ only in how they sneak.
const (
	// Cautious lies when it must, sneaks one card most plays where it won't
	// show, and calls when fairly sure.
	Cautious Style = "cautious"
	// Bold pads true claims, sneaks often (sometimes two) and calls readily.
	Bold Style = "bold"
	// Caller plays straight and calls on a hunch.
	Caller Style = "caller"
	// Honest never sneaks.
	Honest Style = "honest"
	// Careful sneaks whenever it may, but only where the counts won't show it.
	Careful Style = "careful"
	// Sometimes sneaks now and then, without minding the counts.
	Sometimes Style = "sometimes"
	// Always sneaks all it may, every play, without minding the counts.
	Always Style = "always"
)

// Levels lists the levels, weakest first.
func Levels() []Level { return []Level{Easy, Medium, Hard} }

// SiteStyles lists the styles the site offers.
func SiteStyles() []Style { return []Style{Cautious, Bold, Caller} }

// Styles lists every style, the site's first.
func Styles() []Style { return []Style{Cautious, Bold, Caller, Honest, Careful, Sometimes, Always} }

// ParseLevel reads a level's name.
func ParseLevel(s string) (Level, error) {
	if l := Level(s); slices.Contains(Levels(), l) {
		return l, nil
	}
	return "", fmt.Errorf("no such bot level %q: easy, medium or hard", s)
}

// ParseStyle reads a style's name.
func ParseStyle(s string) (Style, error) {
	if st := Style(s); slices.Contains(Styles(), st) {
		return st, nil
	}
	return "", fmt.Errorf("no such bot style %q", s)
}

// Chance is a probability, 0 to 1.
type Chance float64

// Params are a style's settings. Every style answers the same maths; these
// are the only differences between them.
type Params struct {
	// Sneak is how often the bot slips cards under a play when it may.
	Sneak Chance
	// Most is the most cards it sneaks under one play (the table's limit and
	// its spare cards may allow fewer).
	Most int
	// Pad is how often it adds a wrong card to a true claim, claiming it too.
	Pad Chance
	// Weight is how much a liar picking up the pile matters to it against
	// picking the pile up itself: above 1 it calls more readily (at every
	// level; an easy bot's hunch is scaled by it).
	Weight float64
	// Floor is how likely a lie must be before a medium bot calls, before
	// the bar moves with how close the claimant and the bot are to going
	// out. (A hard bot sets its bar from what a call is worth instead.)
	Floor Chance
	// Reckless is how often it sneaks where the counts might show it.
	Reckless Chance
}

// The simulation's four styles share their calling and lying so that the
// only difference between them is sneaking.
var (
	plain = Params{Pad: 0.08, Weight: 1, Floor: 0.4}

	styles = map[Style]Params{
		Cautious:  {Sneak: 0.9, Most: 1, Pad: 0.05, Weight: 0.9, Floor: 0.45},
		Bold:      {Sneak: 1, Most: 2, Pad: 0.2, Weight: 1.1, Floor: 0.4},
		Caller:    {Pad: 0.02, Weight: 1.25, Floor: 0.32},
		Honest:    plain,
		Careful:   with(plain, func(p *Params) { p.Sneak, p.Most = 1, 2 }),
		Sometimes: with(plain, func(p *Params) { p.Sneak, p.Most, p.Reckless = 0.3, 1, 1 }),
		Always:    with(plain, func(p *Params) { p.Sneak, p.Most, p.Reckless = 1, 3, 1 }),
	}
)

func with(p Params, f func(*Params)) Params {
	f(&p)
	return p
}

// Params are the style's settings; an unknown style plays as Honest.
func (s Style) Params() Params {
	if p, ok := styles[s]; ok {
		return p
	}
	return plain
}

// Skill is what a level changes: how well a bot reads the table and plays.
type Skill struct {
	// Notice is the chance it sees a sneak the counts show.
	Notice Chance
	// AnyCard: it bluffs and sneaks with any card, not the ones it needs
	// last, and never checks whether a sneak will show.
	AnyCard bool
	// PadBoost scales the style's pad rate where padding pays (never for a
	// bot that pads anywhere, easy): a hard bot pads more, as the sharpest
	// people at a big table do.
	PadBoost float64
}

// Skill is the level's skill; an unknown level has none.
func (l Level) Skill() Skill { return skills[l] }

var skills = map[Level]Skill{
	Easy:   {Notice: 0.35, AnyCard: true},
	Medium: {Notice: 0.75, PadBoost: 4},
	Hard:   {Notice: 1, PadBoost: 12},
}
