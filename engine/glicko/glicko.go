// Package glicko rates the players of finished games with Glicko-2.
//
// A game of Bullshit is a field of 3 to 10 sides ranked by cards left, ties
// sharing a place. Each side meets every other once, at a weight of 2/k for k
// sides, so a whole field counts as 2 - 2/k games: a side's rating moves
// about as much after a five-seat game as after one and a fifth games of
// two players. A tie is a draw in that meeting.
//
// Each game is one rating period, and every whole day since a player's last
// rated game counts as one more, during which only their deviation grows
// (time away makes a rating less certain). Some sides never move: the bots'
// levels are fixed anchors, and guests count as a new player and keep it.
//
// The package is pure: it reads no clock (the days away are passed in) and
// imports only the standard library.
package glicko

import (
	"errors"
	"math"
)

// The parameters, in the rating scale (1500 ± 350 for a new player).
const (
	// Initial is a new player's rating and InitialDeviation its deviation.
	Initial          = 1500.0
	InitialDeviation = 350.0
	// MinDeviation keeps a rating able to move: a player who plays every
	// day for years still gains or loses a few points a game.
	MinDeviation = 45.0
	// ProvisionalAbove is the deviation above which a rating is shown as
	// provisional (marked "?").
	ProvisionalAbove = 110.0
	// InitialVolatility is a new player's volatility (σ), the expected
	// fluctuation of their strength between periods; Tau (τ) bounds how
	// fast it changes. Both are Glickman's suggested middle values: a
	// card game's results are noisy, so a small τ keeps one lucky game
	// from moving the volatility much.
	InitialVolatility = 0.06
	Tau               = 0.5
	// scale converts between the rating scale and Glicko-2's own.
	scale = 173.7178
	// tolerance ends the volatility's search (Glickman's ε).
	tolerance = 1e-6
)

// Rating is a player's rating: R ± Deviation, with its volatility.
type Rating struct {
	R          float64 `json:"rating"`
	Deviation  float64 `json:"deviation"`
	Volatility float64 `json:"volatility"`
}

// New is a new player's rating, which guests also count as.
func New() Rating {
	return Rating{R: Initial, Deviation: InitialDeviation, Volatility: InitialVolatility}
}

// Anchor is a fixed rating: a bot level's. Its deviation is zero, as it is
// set by measurement and never moves.
func Anchor(r float64) Rating { return Rating{R: r, Volatility: InitialVolatility} }

// Provisional reports whether the rating is still too uncertain to rank.
func (r Rating) Provisional() bool { return r.Deviation > ProvisionalAbove }

// Aged is the rating after days without a rated game: its deviation grows by
// one rating period's volatility a day, up to a new player's.
func (r Rating) Aged(days int) Rating {
	if days <= 0 {
		return r
	}
	phi := r.Deviation / scale
	phi = math.Sqrt(phi*phi + float64(days)*r.Volatility*r.Volatility)
	r.Deviation = math.Min(phi*scale, InitialDeviation)
	return r
}

// Side is one seat of a finished game as the rating sees it.
type Side struct {
	Rating Rating
	// Place is the seat's place, 1 for the winner; tied seats share one.
	Place int
	// Fixed sides are rated against but never move: bots (anchors) and
	// guests.
	Fixed bool
	// DaysAway is how many whole days passed since the side's last rated
	// game; it ages the rating first.
	DaysAway int
}

// ErrField is returned for a field that cannot be rated.
var ErrField = errors.New("glicko: a field is 2 to 10 sides with places from 1")

// Rate rates a finished field and returns every side's new rating in order.
// A fixed side's is returned as it was. Every side is rated against the
// ratings all sides had before the game, so the order of the sides changes
// nothing.
func Rate(field []Side) ([]Rating, error) {
	k := len(field)
	if k < 2 || k > 10 {
		return nil, ErrField
	}
	for _, s := range field {
		if s.Place < 1 {
			return nil, ErrField
		}
	}
	before := make([]Rating, k)
	for i, s := range field {
		before[i] = s.Rating
		if !s.Fixed {
			before[i] = s.Rating.Aged(s.DaysAway)
		}
	}
	weight := 2 / float64(k)
	out := make([]Rating, k)
	for i, s := range field {
		if s.Fixed {
			out[i] = s.Rating
			continue
		}
		var meetings []meeting
		for j, o := range field {
			if j == i {
				continue
			}
			meetings = append(meetings, meeting{opponent: before[j], score: score(s.Place, o.Place), weight: weight})
		}
		out[i] = update(before[i], meetings)
	}
	return out, nil
}

// score is a side's result in its meeting with another: 1 for finishing
// ahead, ½ for a shared place, 0 for finishing behind.
func score(place, other int) float64 {
	switch {
	case place < other:
		return 1
	case place == other:
		return 0.5
	}
	return 0
}

// meeting is one weighted game against one opponent.
type meeting struct {
	opponent Rating
	score    float64
	weight   float64
}

// update is Glickman's Glicko-2 step for one rating period, each game's
// terms weighted.
func update(r Rating, games []meeting) Rating {
	mu, phi, sigma := (r.R-Initial)/scale, r.Deviation/scale, r.Volatility
	var invV, delta float64
	for _, m := range games {
		muJ, phiJ := (m.opponent.R-Initial)/scale, m.opponent.Deviation/scale
		g := gOf(phiJ)
		e := 1 / (1 + math.Exp(-g*(mu-muJ)))
		invV += m.weight * g * g * e * (1 - e)
		delta += m.weight * g * (m.score - e)
	}
	if invV == 0 {
		return r
	}
	v := 1 / invV
	delta *= v
	sigma = volatility(phi, sigma, v, delta)
	phiStar := math.Sqrt(phi*phi + sigma*sigma)
	phiNew := 1 / math.Sqrt(1/(phiStar*phiStar)+1/v)
	muNew := mu + phiNew*phiNew*delta/v
	dev := math.Max(MinDeviation, math.Min(phiNew*scale, InitialDeviation))
	return Rating{R: Initial + muNew*scale, Deviation: dev, Volatility: sigma}
}

func gOf(phi float64) float64 { return 1 / math.Sqrt(1+3*phi*phi/(math.Pi*math.Pi)) }

// volatility is the new σ, found with the Illinois algorithm as Glickman's
// paper gives it.
func volatility(phi, sigma, v, delta float64) float64 {
	a := math.Log(sigma * sigma)
	f := func(x float64) float64 {
		ex := math.Exp(x)
		d := phi*phi + v + ex
		return ex*(delta*delta-phi*phi-v-ex)/(2*d*d) - (x-a)/(Tau*Tau)
	}
	lo := a
	var hi float64
	if delta*delta > phi*phi+v {
		hi = math.Log(delta*delta - phi*phi - v)
	} else {
		k := 1.0
		for f(a-k*Tau) < 0 {
			k++
		}
		hi = a - k*Tau
	}
	fLo, fHi := f(lo), f(hi)
	for i := 0; math.Abs(hi-lo) > tolerance && i < 100; i++ {
		c := lo + (lo-hi)*fLo/(fHi-fLo)
		fC := f(c)
		if fC*fHi <= 0 {
			lo, fLo = hi, fHi
		} else {
			fLo /= 2
		}
		hi, fHi = c, fC
	}
	return math.Exp(lo / 2)
}
