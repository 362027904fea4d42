package sim

import (
	"fmt"
	"math"
)

// z95 is the normal quantile for a two-sided 95% interval.
const z95 = 1.959964

// Estimate is a measured value with its 95% confidence interval.
type Estimate struct {
	Value, Lo, Hi float64
}

// String writes the value and its interval with two decimals.
func (e Estimate) String() string { return e.Format(2) }

// Format writes the value and its interval with the given decimals:
// "0.84 (0.81-0.86)".
func (e Estimate) Format(decimals int) string {
	return fmt.Sprintf("%.*f (%.*f–%.*f)", decimals, e.Value, decimals, e.Lo, decimals, e.Hi)
}

// Scale multiplies the value and both ends by k.
func (e Estimate) Scale(k float64) Estimate { return Estimate{e.Value * k, e.Lo * k, e.Hi * k} }

// proportion is the share of hits in n trials, with Wilson's interval, which
// stays inside 0 to 1 and behaves near the ends (a sneaker winning nothing).
func proportion(hits float64, n int) Estimate {
	if n == 0 {
		return Estimate{}
	}
	nf := float64(n)
	p := hits / nf
	z2 := z95 * z95
	centre := (p + z2/(2*nf)) / (1 + z2/nf)
	half := z95 / (1 + z2/nf) * math.Sqrt(p*(1-p)/nf+z2/(4*nf*nf))
	return Estimate{p, max(0, centre-half), min(1, centre+half)}
}

// mean is the mean of xs with a normal-approximation interval, fine for the
// hundreds of games a cell plays.
func mean(xs []float64) Estimate {
	if len(xs) == 0 {
		return Estimate{}
	}
	var sum, sq float64
	for _, x := range xs {
		sum += x
	}
	m := sum / float64(len(xs))
	for _, x := range xs {
		sq += (x - m) * (x - m)
	}
	if len(xs) < 2 {
		return Estimate{m, m, m}
	}
	half := z95 * math.Sqrt(sq/float64(len(xs)-1)/float64(len(xs)))
	return Estimate{m, m - half, m + half}
}

// elo is the rating gap a score (the stronger side's share of its
// meetings) implies, with the interval carried through.
func elo(score Estimate) Estimate {
	gap := func(s float64) float64 {
		s = min(max(s, 0.001), 0.999)
		return 400 * math.Log10(s/(1-s))
	}
	return Estimate{gap(score.Value), gap(score.Lo), gap(score.Hi)}
}
