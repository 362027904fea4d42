package bot

import (
	"math"
	"sync/atomic"

	"bullshit/engine"
)

// How a hard bot reads a play. The reading's model was checked against
// simulated play: its chance of a lie matches how often plays turn out to
// be lies, and it was then tuned so that hard beats medium (docs/bullshit.md).
const (
	// hardSharp is how steeply a hard bot's wish rises as a call pays more.
	hardSharp = 8
	// hardCost is what a pile a hard bot takes on a wrong call costs it,
	// against the same pile taken by a caught liar: more than one, since a
	// wrong call helps every other seat, the ones that never call most (a
	// truthful person who never called won 1.3 fair shares at three and
	// four seats against hard bots that counted it as one).
	hardCost = 1.5
	// bigTableCost is hardCost at a table of bigTable seats or more, where
	// padding pays and an unpunished padder runs away with the game, so
	// calling it is worth the risk.
	bigTableCost = 1.0
	// threeCost is hardCost at three seats, where every pile a call moves
	// between the two bots gives the silent third seat half its worth (a
	// person who calls only on the hint won 1.28 fair shares against hard
	// bots that counted it as 1.5).
	threeCost = 3.5
	// smallPile is the pile (after the play) on which a call risks little:
	// at five seats a hard bot counts a pile it may take there at
	// smallPileCost of its worth, and at four to bigTable seats a medium
	// bot's bar is smallPileBar lower. A call there moves a card or two
	// whichever way it goes, so it hands a seat that never calls almost
	// nothing, and it brings the table's calls to two plays in five. Hard
	// calling small piles at four seats too put a person who calls only on
	// the hint at 1.15 to 1.18 fair shares against it, and at bigTable
	// seats cost it its lead over medium.
	smallPile, smallPileCost, smallPileBar = 2, 0.4, 0.15
	// leadBoost is how much more it values catching a claimant for each card
	// the claimant holds under four: stopping someone about to go out is
	// worth far more than a share of a pile.
	leadBoost = 0.25
	// sneakBar is the chance of a sneak past which it calls anyway, and
	// sneakSharp how steeply: a caught sneaker is handed the penalty, so
	// catching one pays the caller alone.
	sneakBar, sneakSharp = 0.15, 4
	// threeSneakBar is sneakBar at three seats, where every pile a call
	// moves between two bots gives the silent third seat half its worth.
	threeSneakBar = 0.25
	// clump is the beta-binomial's concentration: how strongly the copies of
	// a rank travel together (small: a hand holds all of a rank or none).
	clump = 2.0
	// planned is how much likelier a hand holds the rank called than its
	// share of the unseen cards says: players keep the ranks they will be
	// asked for soonest.
	planned = 2.0
	// padGuess is how often it takes a true claim to be padded with one more
	// card (padGuesses with two decks, where claims of several cards are
	// common and a pad among them looks like any other, and for a hard bot
	// at a table of bigTable seats or more, where the bots pad most true
	// claims because padding pays there; a medium bot reading so lost its
	// edge to hard there), and offScript how often a claim fits neither a
	// bluff nor a true claim, padded or not.
	padGuess, padGuesses, offScript = 0.1, 0.4, 0.002
)

// read is a hard bot's wish to call. It weighs what a call would do, in
// cards: if the play was true it takes the pile itself; if it was a lie the
// claimant takes it, which helps this seat only as much as it helps every
// other player (a share of 1/(seats-1)), unless the claimant is close to
// going out, when stopping them is worth far more; and if something was
// sneaked, it hands the sneaker the penalty's cards, shedding them. Its
// chance of a lie is moved by the claimant's record in this game (see
// liar): a seat whose called plays keep turning out lies is called more
// readily, one whose called plays were true, less. A likely enough sneak is
// called whatever the pile.
func (b *Bot) read(v *engine.View) float64 {
	pSneak := 0.0
	if v.Options.Sneak > 0 {
		pSneak = sneakChance(v, sneakPrior(v, v.Last.Seat))
	}
	pLie := 1 - (1-byRecord(rankLieChance(v, true), liar(v, v.Last.Seat)))*(1-pSneak)
	pile := float64(max(1, mid(v.Pile)))
	share := b.params.Weight / float64(v.Playing()-1)
	if left := mid(v.Last.Sizes.Hand[1]); left <= 3 {
		share *= 1 + leadBoost*float64(4-left)
	}
	cost := hardCost
	switch n := v.Playing(); {
	case n <= 3:
		cost = threeCost
	case n >= bigTable:
		cost = bigTableCost
	}
	if mine := len(v.Hand); mine <= 3 {
		cost += mineStep * float64(4-mine)
	}
	if n := v.Playing(); n > 4 && n < bigTable && mid(v.Pile) <= smallPile {
		cost *= smallPileCost
	}
	gain := pLie*pile*share + pSneak*float64(v.Options.Penalty.Owed(1))
	loss := (1 - pLie) * pile * cost
	bar := sneakBar
	if v.Playing() <= 3 {
		bar = threeSneakBar
	}
	return max(clamp(hardSharp*(gain-loss)/pile), clamp(sneakSharp*(pSneak-bar)))
}

// byRecord moves a chance of a lie by a seat's record (see liar): its odds
// times the record's factor.
func byRecord(p, factor float64) float64 {
	if p <= 0 || p >= 1 {
		return p
	}
	odds := p / (1 - p) * factor
	return odds / (1 + odds)
}

// sneakChance is the chance something was sneaked under the last play. Of
// the true hand (and pile) sizes consistent with the rough counts before the
// play, it counts how many give the rough counts after with no sneak, with
// one, with two and so on, each weighted by prior (the chance the play is
// sneaky before the counts are read: see sneakPrior and casualPrior), each
// extra card sneaked a third as likely as one fewer.
func sneakChance(v *engine.View, prior float64) float64 {
	last := v.Last
	var sneaky, total float64
	weight := 1.0
	for s := 1; s <= v.Options.Sneak; s++ {
		weight /= 3
		total += weight
		sneaky += weight * fits(last.Sizes, last.Claim, s)
	}
	if total == 0 {
		return 0
	}
	sneaky *= prior / total
	clean := (1 - prior) * fits(last.Sizes, last.Claim, 0)
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
	return Share(sizes.Hand, -played, engine.HandKind) * Share(sizes.Pile, played, engine.PileKind)
}

// Share is the share of the sizes in r[0] that, changed by by, are seen
// as r[1]: how far a rough count before and after allows a change. An open
// count is taken to run twenty cards on.
func Share(r [2]engine.Range, by int, k engine.Kind) float64 {
	lo, hi := r[0].Lo, r[0].Hi
	if hi == engine.Open {
		hi = lo + 20
	}
	hits := 0
	if after := r[1]; after.Lo >= 0 && engine.Seen(after.Lo, k) == after {
		// The counts a table sees split every size into runs: the sizes
		// that look like after are exactly after.Lo to after.Hi, so the
		// hits are where that run, moved back by by, meets lo to hi.
		from, to := max(lo, after.Lo-by), hi
		if after.Hi != engine.Open {
			to = min(hi, after.Hi-by)
		}
		return float64(max(0, to-from+1)) / float64(hi-lo+1)
	}
	for n := lo; n <= hi; n++ {
		if m := n + by; m >= 0 && engine.Seen(m, k) == r[1] {
			hits++
		}
	}
	return float64(hits) / float64(hi-lo+1)
}

// rankLieChance is the chance the claimant doesn't hold what it claimed.
// How many of the rank it holds is read from the copies this seat hasn't
// seen (the copies less its own) and the claimant's share of the cards this
// seat can't see, as a beta-binomial law rather than a random deal: cards of
// a rank travel together (a true play puts them on the pile together, and a
// pickup takes them all), and players keep the ranks they'll be asked for
// soon. Players are taken to claim as the bots do: with none of the rank,
// one card (now and then two); with some, all of them, now and then padded
// with one more (often, with bigTablePads, at a table of bigTable seats).
func rankLieChance(v *engine.View, bigTablePads bool) float64 {
	last := v.Last
	unseen := 52*v.Options.Decks() - len(v.Hand)
	rank := v.Options.Copies() - heldOf(v.Hand, last.Rank)
	share, seen := max(mid(last.Sizes.Hand[0]), last.Claim), max(1, unseen)
	a, b := betaShape(share, seen)
	// The log-gammas of k+a and k+b for every k (see gammaRows), and of the
	// sums, each worked out once: the betas below share them.
	var ga, gb []float64
	if rank <= maxCopies {
		g := gammaRowOf(share, seen)
		ga, gb = g.a[:], g.b[:]
	} else {
		ga, gb = make([]float64, rank+1), make([]float64, rank+1)
		for k := range ga {
			ga[k], gb[k] = lgamma(float64(k)+a), lgamma(float64(k)+b)
		}
	}
	pad := padGuess
	if v.Options.Decks() > 1 || bigTablePads && v.Playing() >= bigTable {
		pad = padGuesses
	}
	var truth, lie float64
	var sums lgammas
	base := ga[0] + gb[0] - sums.of(a+b)
	for k := 0; k <= rank; k++ {
		// The beta-binomial chance of k of the rank in the claimant's
		// hand: C(rank, k) B(k+a, rank-k+b) / B(a, b), in logs.
		x, y := float64(k)+a, float64(rank-k)+b
		p := math.Exp(lchoose(rank, k) + (ga[k] + gb[rank-k] - sums.of(x+y)) - base)
		switch c := last.Claim; {
		case k == 0 && c == 1:
			lie += p * float64(1-bluffTwo)
		case k == 0 && c == 2:
			lie += p * float64(bluffTwo)
		case c == k:
			truth += p * (1 - pad)
		case c == k+1:
			lie += p * pad
		case c < k:
			truth += p * offScript
		default:
			lie += p * offScript
		}
	}
	if truth+lie == 0 {
		return 1
	}
	return lie / (truth + lie)
}

// betaShape is the beta law's two shapes for a claimant holding share of
// the seen cards a seat can't see: a small a, a share that clumps.
func betaShape(share, seen int) (a, b float64) {
	frac := planned * float64(share) / float64(seen)
	frac = min(max(frac, 0.01), 0.99)
	return clump * frac, clump * (1 - frac)
}

// gammaRow is lgamma(k+a) and lgamma(k+b) for every k a rank's copies allow,
// a and b the shapes of one claimant's share.
type gammaRow struct{ a, b [maxCopies + 1]float64 }

func newGammaRow(share, seen int) *gammaRow {
	a, b := betaShape(share, seen)
	g := new(gammaRow)
	for k := range g.a {
		g.a[k], g.b[k] = lgamma(float64(k)+a), lgamma(float64(k)+b)
	}
	return g
}

// gammaRows keeps each row once worked out, by the claimant's share of the
// cards and the cards unseen, which alone set the shapes: a hard bot's every
// reading needs one, and a game has only a few hundred. It only ever holds
// the values newGammaRow gives, so however calls race to fill a row, each
// reads the same numbers.
var gammaRows [rowShares][rowSeen]atomic.Pointer[gammaRow]

// The shares and unseen counts gammaRows covers: a share is a hand's
// middle (30 at most) or a claim, and two decks are 104 cards.
const rowShares, rowSeen = 32, 2*52 + 1

func gammaRowOf(share, seen int) *gammaRow {
	if share < 0 || share >= rowShares || seen >= rowSeen {
		return newGammaRow(share, seen)
	}
	p := &gammaRows[share][seen]
	g := p.Load()
	if g == nil {
		g = newGammaRow(share, seen)
		p.Store(g)
	}
	return g
}

// lchoose is the log of n choose k, from a table of log-factorials for the
// counts a game can have (the copies of a rank), else worked out.
func lchoose(n, k int) float64 {
	if n < len(logFactorials) {
		return logFactorials[n] - logFactorials[k] - logFactorials[n-k]
	}
	return logFactorial(n) - logFactorial(k) - logFactorial(n-k)
}

// logFactorials[n] is log n!, the same value math.Lgamma gives for n+1.
var logFactorials = func() (t [17]float64) {
	for n := range t {
		t[n] = logFactorial(n)
	}
	return t
}()

func logFactorial(n int) float64 {
	v, _ := math.Lgamma(float64(n + 1))
	return v
}

// maxCopies is the most copies of a rank a game has (two decks).
const maxCopies = 8

func lgamma(x float64) float64 {
	v, _ := math.Lgamma(x)
	return v
}

// lgammas remembers the last log-gamma it worked out: the sums a
// beta-binomial's terms need are nearly always one value, but may differ in
// the last bit, so each is checked rather than assumed.
type lgammas struct {
	x, v float64
	ok   bool
}

func (g *lgammas) of(x float64) float64 {
	if !g.ok || x != g.x {
		g.x, g.v, g.ok = x, lgammaOf(x), true
	}
	return g.v
}

// lgammaOf is lgamma, looked up for the whole numbers the sums usually are.
func lgammaOf(x float64) float64 {
	if i := int(x); float64(i) == x && i >= 1 && i < len(wholeLgammas) {
		return wholeLgammas[i]
	}
	return lgamma(x)
}

// wholeLgammas[i] is lgamma(i), the very value math.Lgamma gives.
var wholeLgammas = func() (t [2*maxCopies + 4]float64) {
	for i := 1; i < len(t); i++ {
		t[i] = lgamma(float64(i))
	}
	return t
}()
