package web

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"bullshit/players"
)

func TestChange(t *testing.T) {
	tests := []struct {
		before, after float64
		want          string
	}{
		{1500, 1502.4, "1500 → 1502 (+2.4)"},
		{1600, 1594.7, "1600 → 1595 (-5.3)"},
		{1500, 1500, "1500 → 1500 (+0.0)"},
	}
	for _, tt := range tests {
		if got := change(tt.before, tt.after); got != tt.want {
			t.Errorf("change(%v, %v): got %q, want %q", tt.before, tt.after, got, tt.want)
		}
	}
}

func history(ratings ...float64) []players.Point {
	at := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	out := make([]players.Point, len(ratings))
	for i, r := range ratings {
		out[i] = players.Point{Game: fmt.Sprint("g", i), At: at.Add(time.Duration(i) * 24 * time.Hour), Rating: r, Deviation: 100}
	}
	return out
}

func TestChartModel(t *testing.T) {
	tests := []struct {
		name   string
		hist   []players.Point
		yTicks string
		desc   string
	}{
		{"none", nil, "[]", "No rated games yet."},
		{"level", history(1500, 1500), "[1450 1500 1550]", "2 rated games"},
		{"one", history(1502.4), "[1500 1550]", "1 rated game, from 1502 on 1 Mar 2026 to 1502 on 1 Mar 2026; the highest 1502."},
		{"a climb", history(1500, 1520, 1480, 1610, 1590), "[1450 1500 1550 1600 1650]", "5 rated games, from 1500 on 1 Mar 2026 to 1590 on 5 Mar 2026; the highest 1610."},
		{"a wide range takes wider steps", history(1000, 1900), "[1000 1200 1400 1600 1800 2000]", "2 rated games"},
	}
	for _, tt := range tests {
		c := chartModel("Ada", tt.hist)
		if len(c.Points) != len(tt.hist) {
			t.Errorf("%s: got %d points, want one per game, %d", tt.name, len(c.Points), len(tt.hist))
		}
		var labels []string
		for _, tick := range c.YTicks {
			labels = append(labels, tick.Label)
			if tick.Pos < chartTop || tick.Pos > chartBottom {
				t.Errorf("%s: tick %s at %v, outside the plot", tt.name, tick.Label, tick.Pos)
			}
		}
		if got := fmt.Sprint(labels); got != tt.yTicks {
			t.Errorf("%s: got y ticks %s, want %s", tt.name, got, tt.yTicks)
		}
		if !strings.HasPrefix(c.Desc, tt.desc) {
			t.Errorf("%s: got desc %q, want it to start %q", tt.name, c.Desc, tt.desc)
		}
		for i, p := range c.Points {
			if p.X < chartLeft || p.X > chartRight || p.Y < chartTop || p.Y > chartBottom {
				t.Errorf("%s: point %d at (%v, %v), outside the plot", tt.name, i, p.X, p.Y)
			}
			if i == 0 {
				continue
			}
			prev, r := c.Points[i-1], tt.hist[i].Rating
			if p.X <= prev.X {
				t.Errorf("%s: point %d at x %v, not right of the one before (%v)", tt.name, i, p.X, prev.X)
			}
			if up := r > tt.hist[i-1].Rating; up != (p.Y < prev.Y) {
				t.Errorf("%s: point %d (rating %v) at y %v after y %v: a rise must go up", tt.name, i, r, p.Y, prev.Y)
			}
		}
	}
}
