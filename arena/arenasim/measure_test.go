package arenasim

import (
	"flag"
	"fmt"
	"testing"
)

var (
	arenas      = flag.Int("arenas", 0, "measure the scoring over this many simulated arenas (0: skip)")
	leaverWaits = flag.Bool("leaverwaits", false, "a leaver is paired again only when its game ends")
	minSeats    = flag.Int("min", 4, "the arenas' smallest table")
	maxSeats    = flag.Int("max", 6, "the arenas' biggest table")
	bots        = flag.Bool("bots", false, "house bots may fill seats")
	seed        = flag.Uint64("seed", 1, "the measurement's seed")
)

// TestMeasure prints the measurement for docs/arena.md:
//
//	go test ./arena/arenasim -run Measure -arenas 400 -v
func TestMeasure(t *testing.T) {
	if *arenas == 0 {
		t.Skip("no -arenas")
	}
	c := Default()
	c.Entrants, c.Seed, c.LeaverWaits = Field(), *seed, *leaverWaits
	c.Rules.Min, c.Rules.Max, c.Rules.Bots = *minSeats, *maxSeats, *bots
	rows, err := Measure(c, *arenas)
	if err != nil {
		t.Fatal(err)
	}
	fmt.Println(Describe(c, *arenas))
	fmt.Println()
	fmt.Print(Markdown(rows))
}

// TestMeasureBySize prints the mean Base a game at each table size:
//
//	go test ./arena/arenasim -run MeasureBySize -arenas 200 -min 3 -max 10 -bots -v
func TestMeasureBySize(t *testing.T) {
	if *arenas == 0 {
		t.Skip("no -arenas")
	}
	c := Default()
	c.Entrants, c.Seed, c.LeaverWaits = Field(), *seed, *leaverWaits
	c.Rules.Min, c.Rules.Max, c.Rules.Bots = *minSeats, *maxSeats, *bots
	rows, err := BySize(c, *arenas)
	if err != nil {
		t.Fatal(err)
	}
	fmt.Println(Describe(c, *arenas))
	fmt.Println()
	fmt.Println("| level | seats | mean points a game, no streak | games |")
	fmt.Println("|---|---|---|---|")
	for _, r := range rows {
		fmt.Printf("| %s | %d | %.1f ± %.1f | %d |\n", r.Level, r.Seats, r.Base.Mean, r.Base.Half, r.Games)
	}
}
