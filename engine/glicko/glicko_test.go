package glicko

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// settled is a player with a settled rating, as in the worked example.
func settled(r, dev float64) Rating {
	return Rating{R: r, Deviation: dev, Volatility: InitialVolatility}
}

// botField is the worked example's table: the player among an easy, two
// medium and a hard bot, the bots finishing in order of strength around the
// player, who finishes at place (tied with the bot there when tie is set).
func botField(anchors map[string]float64, player Rating, place int, tie bool) []Side {
	levels := []string{"hard", "medium", "medium", "easy"}
	field := []Side{{Rating: player}}
	for i, level := range levels {
		p := i + 1 // the bots' places with the player last
		if p >= place {
			p++ // the player goes in ahead of this bot
		}
		if tie && i+1 == place {
			p = place
		}
		field = append(field, Side{Rating: Anchor(anchors[level]), Place: p, Fixed: true})
	}
	field[0].Place = place
	return field
}

func gain(t *testing.T, field []Side) float64 {
	t.Helper()
	out, err := Rate(field)
	if err != nil {
		t.Fatal(err)
	}
	return out[0].R - field[0].Rating.R
}

// TestWorkedExample is the specification's: a settled 1500 ± 70 player at a
// table of five with an easy, two medium and a hard bot, level with a medium
// bot for second place, gains about +2.4.
func TestWorkedExample(t *testing.T) {
	g := gain(t, botField(SpecAnchors, settled(1500, 70), 2, true))
	if got := fmt.Sprintf("%+.1f", g); got != "+2.4" {
		t.Errorf("got a gain of %s (%.3f), want +2.4", got, g)
	}
}

// gainsTable is the worked example's player's gain at every place, as the
// docs show it.
func gainsTable(anchors map[string]float64) string {
	var b strings.Builder
	b.WriteString("| place | gain | tied with the bot there |\n|---|---|---|\n")
	for place := 1; place <= 5; place++ {
		out, _ := Rate(botField(anchors, settled(1500, 70), place, false))
		tied := "–"
		if place <= 4 {
			o, _ := Rate(botField(anchors, settled(1500, 70), place, true))
			tied = fmt.Sprintf("%+.1f", o[0].R-1500)
		}
		fmt.Fprintf(&b, "| %d | %+.1f | %s |\n", place, out[0].R-1500, tied)
	}
	return b.String()
}

func TestGainsByPlace(t *testing.T) {
	for name, anchors := range map[string]map[string]float64{"specification": SpecAnchors, "measured": AnchorsAt(5)} {
		t.Logf("gains with the %s anchors:\n%s", name, gainsTable(anchors))
		prev := math.Inf(1)
		for place := 1; place <= 5; place++ {
			g := gain(t, botField(anchors, settled(1500, 70), place, false))
			if g >= prev {
				t.Errorf("%s anchors: got %+.2f at place %d, want less than %+.2f at the place before", name, g, place, prev)
			}
			prev = g
		}
	}
}

// TestSymmetricFieldSumsToZero: equal players with equal deviations
// exchange points; what the winners gain the losers lose. Glicko-2 moves
// each side's volatility by its own surprise, so the sum is zero to within
// a thousandth of a point rather than exactly.
func TestSymmetricFieldSumsToZero(t *testing.T) {
	for k := 2; k <= 10; k++ {
		field := make([]Side, k)
		for i := range field {
			field[i] = Side{Rating: settled(1620, 80), Place: 1 + i/2} // pairs share places
		}
		out, err := Rate(field)
		if err != nil {
			t.Fatal(err)
		}
		var sum float64
		for _, r := range out {
			sum += r.R - 1620
		}
		if math.Abs(sum) > 1e-3 {
			t.Errorf("%d sides: got changes summing to %g, want 0", k, sum)
		}
	}
}

func TestFixedSidesNeverMove(t *testing.T) {
	guest := New()
	field := []Side{
		{Rating: settled(1700, 60), Place: 3},
		{Rating: Anchor(AnchorsAt(4)["hard"]), Place: 1, Fixed: true},
		{Rating: guest, Place: 2, Fixed: true, DaysAway: 30},
	}
	out, err := Rate(field)
	if err != nil {
		t.Fatal(err)
	}
	if out[1] != field[1].Rating || out[2] != guest {
		t.Errorf("got the anchor %+v and the guest %+v, want them unchanged: %+v, %+v", out[1], out[2], field[1].Rating, guest)
	}
	if out[0].R >= 1700 {
		t.Errorf("got %.1f for the player who came last, want below 1700", out[0].R)
	}
}

func TestOrderChangesNothing(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for range 200 {
		k := 3 + rng.IntN(8)
		field := make([]Side, k)
		for i := range field {
			field[i] = Side{Rating: settled(1200+rng.Float64()*700, 45+rng.Float64()*300), Place: 1 + rng.IntN(k),
				Fixed: rng.IntN(4) == 0, DaysAway: rng.IntN(40)}
		}
		out, err := Rate(field)
		if err != nil {
			t.Fatal(err)
		}
		perm := rng.Perm(k)
		shuffled := make([]Side, k)
		for i, p := range perm {
			shuffled[i] = field[p]
		}
		got, err := Rate(shuffled)
		if err != nil {
			t.Fatal(err)
		}
		for i, p := range perm {
			if math.Abs(got[i].R-out[p].R) > 1e-9 || math.Abs(got[i].Deviation-out[p].Deviation) > 1e-9 {
				t.Fatalf("side %d: got %+v shuffled, want %+v", p, got[i], out[p])
			}
		}
	}
}

func TestDeviation(t *testing.T) {
	tests := []struct {
		name string
		r    Rating
		days int
		want func(Rating) bool
	}{
		{"no time away", settled(1500, 60), 0, func(r Rating) bool { return r.Deviation == 60 }},
		{"a month away grows it", settled(1500, 60), 30, func(r Rating) bool { return r.Deviation > 60 && r.Deviation < 110 }},
		{"years away make it new", settled(1500, 60), 5000, func(r Rating) bool { return r.Deviation == InitialDeviation }},
	}
	for _, tt := range tests {
		if got := tt.r.Aged(tt.days); !tt.want(got) {
			t.Errorf("%s: got deviation %.2f", tt.name, got.Deviation)
		}
	}
	// A new player's deviation falls with games and the mark goes.
	r := New()
	games := 0
	for ; r.Provisional(); games++ {
		out, err := Rate([]Side{{Rating: r, Place: 1 + games%2}, {Rating: Anchor(1500), Place: 2 - games%2, Fixed: true},
			{Rating: Anchor(1500), Place: 3, Fixed: true}, {Rating: Anchor(1500), Place: 3, Fixed: true}})
		if err != nil {
			t.Fatal(err)
		}
		if out[0].Deviation >= r.Deviation {
			t.Fatalf("game %d: got deviation %.1f, want less than %.1f", games, out[0].Deviation, r.Deviation)
		}
		r = out[0]
	}
	t.Logf("a new player is provisional for %d four-seat games", games)
	if games < 3 || games > 40 {
		t.Errorf("got %d games to settle, want a handful to a few dozen", games)
	}
}

func TestBadFields(t *testing.T) {
	tests := [][]Side{
		nil,
		{{Rating: New(), Place: 1}},
		slices.Repeat([]Side{{Rating: New(), Place: 1}}, 11),
		{{Rating: New(), Place: 1}, {Rating: New(), Place: 0}},
	}
	for _, field := range tests {
		if _, err := Rate(field); err != ErrField {
			t.Errorf("%d sides: got %v, want ErrField", len(field), err)
		}
	}
}

func BenchmarkRateTenSeats(b *testing.B) {
	field := make([]Side, 10)
	for i := range field {
		field[i] = Side{Rating: settled(1300+float64(i)*40, 60+float64(i)*20), Place: 1 + i}
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Rate(field); err != nil {
			b.Fatal(err)
		}
	}
}
