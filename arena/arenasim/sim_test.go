package arenasim

import (
	"fmt"
	"reflect"
	"testing"
	"time"

	"bullshit/engine/bot"
)

// small is a short arena of n entrants of every level and behaviour.
func small(seed uint64, n int) Config {
	c := Default()
	c.Length, c.Seed = 15*time.Minute, seed
	levels := bot.Levels()
	behaviours := []Behaviour{Normal, Normal, Biggest, Leaves, Pauses}
	for i := range n {
		c.Entrants = append(c.Entrants, Entrant{ID: fmt.Sprintf("e%02d", i), Level: levels[i%3], Style: bot.SiteStyles()[i/3%3],
			Rating: float64(1500 + 100*(i%3)), Behaviour: behaviours[i%len(behaviours)]})
	}
	return c
}

// TestRun plays small arenas of each kind and checks what an arena
// promises: tables within the range, bots only where allowed, none opened
// after the end, nobody at two tables at once (a leaver is free from the
// moment it leaves, or under LeaverWaits from its game's end), a countdown
// between an entrant's games, every seated entrant's result recorded once,
// and the points counted game by game equal to the standings recomputed
// from the results.
func TestRun(t *testing.T) {
	tests := []struct {
		name string
		edit func(*Config)
	}{
		{"4-6", func(*Config) {}},
		{"4-6 with bots", func(c *Config) { c.Rules.Bots = true }},
		{"3-10 with bots", func(c *Config) { c.Rules.Min, c.Rules.Max, c.Rules.Bots = 3, 10, true }},
		{"5-5, leavers wait", func(c *Config) { c.Rules.Min, c.Rules.Max, c.LeaverWaits = 5, 5, true }},
	}
	for _, tt := range tests {
		for seed := range uint64(8) {
			c := small(seed, 7+int(seed)*3)
			tt.edit(&c)
			rep, err := Run(c)
			if err != nil {
				t.Fatalf("%s, seed %d: %v", tt.name, seed, err)
			}
			checkReport(t, fmt.Sprintf("%s, seed %d", tt.name, seed), c, rep)
		}
	}
}

func checkReport(t *testing.T, name string, c Config, rep Report) {
	t.Helper()
	end := start.Add(c.Length)
	type busy struct {
		from, to time.Time
		game     string
	}
	spans := map[string][]busy{}
	results := map[string]int{}
	for _, r := range rep.Results {
		results[r.Entrant+" "+r.Game]++
	}
	for _, tb := range rep.Tables {
		bots := 0
		for i, id := range tb.Seats {
			if id == "" {
				bots++
				continue
			}
			to := tb.End
			if !tb.Left[i].IsZero() && !c.LeaverWaits {
				to = tb.Left[i]
			}
			spans[id] = append(spans[id], busy{tb.Opened, to, tb.Game})
			if results[id+" "+tb.Game] != 1 {
				t.Fatalf("%s: %s has %d results for %s, want 1", name, id, results[id+" "+tb.Game], tb.Game)
			}
		}
		switch n := len(tb.Seats); {
		case n < c.Rules.Min || n > c.Rules.Max:
			t.Fatalf("%s: %s has %d seats, outside %d-%d", name, tb.Game, n, c.Rules.Min, c.Rules.Max)
		case bots > 0 && !c.Rules.Bots:
			t.Fatalf("%s: %s has %d bots", name, tb.Game, bots)
		case !tb.Opened.Before(end):
			t.Fatalf("%s: %s opened at %v, after the end", name, tb.Game, tb.Opened.Sub(start))
		}
	}
	if len(rep.Results) != len(results) {
		t.Fatalf("%s: %d results for %d seats", name, len(rep.Results), len(results))
	}
	for id, ss := range spans {
		for i := 1; i < len(ss); i++ {
			if gap := ss[i].from.Sub(ss[i-1].to); gap < c.Between {
				t.Fatalf("%s: %s at %s until %v and at %s from %v", name, id, ss[i-1].game, ss[i-1].to.Sub(start), ss[i].game, ss[i].from.Sub(start))
			}
		}
	}
	for _, s := range rep.Standings {
		if s.Points != rep.Points[s.Entrant] {
			t.Fatalf("%s: %s has %d points in the standings, %d counted", name, s.Entrant, s.Points, rep.Points[s.Entrant])
		}
	}
	for i := 1; i < len(rep.Results); i++ {
		if rep.Results[i].Ended.Before(rep.Results[i-1].Ended) {
			t.Fatalf("%s: result %d recorded before result %d", name, i, i-1)
		}
	}
	if len(rep.Tables) == 0 && len(c.Entrants) >= c.Rules.Min {
		t.Fatalf("%s: no table opened", name)
	}
}

// A simulated arena is a pure function of its config.
func TestRunDeterministic(t *testing.T) {
	c := small(3, 12)
	a, err := Run(c)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := Run(c)
	if !reflect.DeepEqual(a, b) {
		t.Fatal("two runs of one arena differ")
	}
}

func TestRunRefuses(t *testing.T) {
	tests := []struct {
		name string
		edit func(*Config)
	}{
		{"no length", func(c *Config) { c.Length = 0 }},
		{"no tick", func(c *Config) { c.Tick = 0 }},
		{"bad sizes", func(c *Config) { c.Rules.Min = 2 }},
		{"an entrant twice", func(c *Config) { c.Entrants[1].ID = c.Entrants[0].ID }},
	}
	for _, tt := range tests {
		c := small(1, 6)
		tt.edit(&c)
		if _, err := Run(c); err == nil {
			t.Errorf("%s: no error", tt.name)
		}
	}
}
