package engine

import (
	"encoding/json"
	"fmt"
	"math"
	"time"
)

// Pace is how quickly bots act: it scales their think times.
type Pace string

// The bot paces.
const (
	Brisk   Pace = "brisk"
	Relaxed Pace = "relaxed"
)

// Penalty is what a caught sneaker is handed by the caller: Cards cards, or
// Cards for every card sneaked when PerCard is set. The caller always keeps one.
type Penalty struct {
	Cards   int  `json:"cards"`
	PerCard bool `json:"per_card,omitempty"`
}

// StandardPenalty is the penalty every table plays with: one card of the
// caller's choosing, however many were sneaked. It was chosen by simulation
// (docs/bullshit.md); other penalties exist for the simulator's sweeps.
var StandardPenalty = Penalty{Cards: 1}

// Owed is how many cards a caller hands a sneaker caught with sneaked extra
// cards, before the caller keeps one back.
func (p Penalty) Owed(sneaked int) int {
	if sneaked <= 0 {
		return 0
	}
	if p.PerCard {
		return p.Cards * sneaked
	}
	return p.Cards
}

// The limits on a table's settings.
const (
	MinSeats      = 3
	MaxSeats      = 10
	MaxSneakLimit = 3
	// StandardSneak is the standard sneak limit, chosen by simulation.
	StandardSneak = 2
	// StandardWindow is the standard call window, long enough to glance at a
	// hand on a phone.
	StandardWindow = 6 * time.Second
	// GiveTime is how long a caller has to pick the cards to hand over,
	// under the current rules (a game uses its own version's: see Rules).
	GiveTime = 12 * time.Second
	// PlayCap ends a game that reaches this many plays, fewest cards winning,
	// under the current rules. It is a safety net that ends few standard
	// games: in docs/bullshit.md 2 of 800 three-seat bot games reached it,
	// and none at four seats or more. Played on for places it ends many
	// from seven seats up, as an hour's time limit.
	PlayCap = 500
	// MaxGrace is the longest grace for calls made together. It stays well
	// inside the reveal's first beat (700 ms under version 1), which holds
	// it, so a grace never makes a reveal longer.
	MaxGrace = 500 * time.Millisecond
	// StandardGrace is the standard grace for calls made together: longer
	// than the usual difference between two players' connections, shorter
	// than the spread of people's reactions, so the faster shout still wins
	// a race that wasn't a tie (docs/rules.md gives the reasons).
	StandardGrace = 150 * time.Millisecond
)

// Windows are the call windows a table may choose.
var Windows = []time.Duration{4 * time.Second, 6 * time.Second, 10 * time.Second}

// Options are a table's settings.
type Options struct {
	Seats int `json:"seats"`
	// Sneak is the most extra cards a play may slip under its claim (0 turns
	// sneaking off).
	Sneak int `json:"sneak"`
	// Window is how long everyone else has to call a play. JSON writes it
	// as window_seconds, as people and API clients speak of it.
	Window time.Duration `json:"-"`
	Pace   Pace          `json:"pace"`
	// Penalty is StandardPenalty at every table; only the simulator sweeps it.
	Penalty Penalty `json:"penalty"`
	// Grace is how long after the first call another call still competes
	// with it; of the calls made together, the seat nearest the player's
	// left wins. 0 is first-come: the first call settles the play. JSON
	// writes it as grace_seconds.
	Grace time.Duration `json:"-"`
	// PlayOn plays on after the first player goes out, for second place,
	// third and so on, until two are left, who are placed by cards left.
	PlayOn bool `json:"play_on,omitempty"`
	// Practice marks a table dealt from a seed its creator chose: the same
	// deal can be played again, and since its creator can know every hand,
	// the game is never rated. The engine plays it like any other.
	Practice bool `json:"practice,omitempty"`
	// Rules is the rules version the game is played under (see RulesOf);
	// 0 is the current one. It is the server's, not the players', so the
	// JSON leaves it out.
	Rules int `json:"-"`
}

// optionsJSON is Options as JSON has it: the window in seconds.
type optionsJSON struct {
	Seats         int     `json:"seats"`
	Sneak         int     `json:"sneak"`
	WindowSeconds float64 `json:"window_seconds"`
	Pace          Pace    `json:"pace"`
	Penalty       Penalty `json:"penalty"`
	GraceSeconds  float64 `json:"grace_seconds"`
	PlayOn        bool    `json:"play_on"`
	Practice      bool    `json:"practice"`
}

// MarshalJSON writes the options with the window in seconds.
func (o Options) MarshalJSON() ([]byte, error) {
	return json.Marshal(optionsJSON{o.Seats, o.Sneak, o.Window.Seconds(), o.Pace, o.Penalty, o.Grace.Seconds(),
		o.PlayOn, o.Practice})
}

// UnmarshalJSON reads options written by MarshalJSON.
func (o *Options) UnmarshalJSON(b []byte) error {
	var j optionsJSON
	if err := json.Unmarshal(b, &j); err != nil {
		return err
	}
	*o = Options{Seats: j.Seats, Sneak: j.Sneak, Window: time.Duration(j.WindowSeconds * float64(time.Second)),
		Pace: j.Pace, Penalty: j.Penalty, Grace: GraceOf(j.GraceSeconds), PlayOn: j.PlayOn, Practice: j.Practice,
		Rules: o.Rules}
	return nil
}

// GraceOf is a grace given in seconds, to the nearest millisecond (a
// grace is whole milliseconds, and a decimal fraction of a second is not
// always exact in binary).
func GraceOf(seconds float64) time.Duration {
	return time.Duration(math.Round(seconds*1000)) * time.Millisecond
}

// Standard returns the standard settings for a table of the given size.
func Standard(seats int) Options {
	return Options{Seats: seats, Sneak: StandardSneak, Window: StandardWindow, Pace: Brisk, Penalty: StandardPenalty,
		Grace: StandardGrace}
}

// Validate refuses settings out of range, saying which in plain words.
func (o Options) Validate() error {
	switch {
	case o.Seats < MinSeats || o.Seats > MaxSeats:
		return refuse(CodeBadOptions, fmt.Sprintf("A table seats %d to %d players.", MinSeats, MaxSeats))
	case o.Sneak < 0 || o.Sneak > MaxSneakLimit:
		return refuse(CodeBadOptions, fmt.Sprintf("Sneaking is 0 to %d extra cards.", MaxSneakLimit))
	case !validWindow(o.Window):
		return refuse(CodeBadOptions, "The time to call is 4, 6 or 10 seconds.")
	case o.Pace != Brisk && o.Pace != Relaxed:
		return refuse(CodeBadOptions, "Bot speed is brisk or relaxed.")
	case o.Grace < 0 || o.Grace > MaxGrace || o.Grace%time.Millisecond != 0:
		return refuse(CodeBadOptions, fmt.Sprintf("The grace for calls made together is 0 to %d milliseconds.", MaxGrace.Milliseconds()))
	case o.Penalty.Cards < 0 || o.Penalty.Cards > 3:
		return refuse(CodeBadOptions, "The penalty is 0 to 3 cards.")
	}
	return nil
}

func validWindow(d time.Duration) bool {
	for _, w := range Windows {
		if d == w {
			return true
		}
	}
	return false
}

// Decks is how many decks the table uses: one up to six seats, two from seven.
func (o Options) Decks() int {
	if o.Seats >= 7 {
		return 2
	}
	return 1
}

// MaxClaim is the most cards a play may claim: every copy of a rank.
func (o Options) MaxClaim() int { return 4 * o.Decks() }

// Copies is how many cards of each rank are in play.
func (o Options) Copies() int { return 4 * o.Decks() }
