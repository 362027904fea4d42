package arenasim

import (
	"flag"
	"fmt"
	"slices"
	"testing"
	"time"

	"bullshit/engine/bot"
)

var (
	arenas      = flag.Int("arenas", 0, "measure the scoring over this many simulated arenas (0: skip)")
	leaverWaits = flag.Bool("leaverwaits", false, "a leaver is paired again only when its game ends")
	minSeats    = flag.Int("min", 4, "the arenas' smallest table")
	maxSeats    = flag.Int("max", 6, "the arenas' biggest table")
	bots        = flag.Bool("bots", false, "house bots may fill seats")
	seed        = flag.Uint64("seed", 1, "the measurement's seed")
	games       = flag.Int("games", 0, "play this many games a level and size against a random field (0: skip)")
)

// TestMeasure prints the measurement for docs/arena.md:
//
//	go test ./arena/arenasim -run 'Measure$' -arenas 400 -v
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

// TestMeasureControlled prints the mean Base a game at each table size
// against the same field at every size:
//
//	go test ./arena/arenasim -run MeasureControlled -games 3000 -v
func TestMeasureControlled(t *testing.T) {
	if *games == 0 {
		t.Skip("no -games")
	}
	c := Default()
	c.Seed = *seed
	rows, err := Controlled(c, *games)
	if err != nil {
		t.Fatal(err)
	}
	fmt.Printf("%d games a level and size, the others' levels drawn at random, seed %d\n\n", *games, *seed)
	fmt.Println("| level | 3 | 4 | 5 | 6 | 7 | 8 | 9 | 10 |")
	fmt.Println("|---|---|---|---|---|---|---|---|---|")
	for i, r := range rows {
		if r.Seats == 3 {
			fmt.Printf("| %s |", r.Level)
		}
		fmt.Printf(" %.1f ± %.1f |", r.Base.Mean, r.Base.Half)
		if i+1 == len(rows) || rows[i+1].Seats == 3 {
			fmt.Println()
		}
	}
}

var field = flag.Int("field", 0, "measure the waits in arenas of this many entrants playing normally (0: skip)")

// TestMeasureWaits prints how long entrants wait for a table in arenas of
// -field entrants of every level, playing normally:
//
//	go test ./arena/arenasim -run MeasureWaits -field 2000 -arenas 2 -v
func TestMeasureWaits(t *testing.T) {
	if *field == 0 {
		t.Skip("no -field")
	}
	c := Default()
	c.Seed, c.LeaverWaits = *seed, true
	c.Rules.Min, c.Rules.Max, c.Rules.Bots = *minSeats, *maxSeats, *bots
	levels := bot.Levels()
	for i := range *field {
		c.Entrants = append(c.Entrants, Entrant{ID: fmt.Sprintf("e%04d", i), Level: levels[i%3], Style: bot.Cautious,
			Rating: float64(1200 + 300*(i%3)), Behaviour: Normal})
	}
	var waits []time.Duration
	games := 0
	for i := range max(*arenas, 1) {
		ci := c
		ci.Seed = mix(c.Seed, uint64(i))
		rep, err := Run(ci)
		if err != nil {
			t.Fatal(err)
		}
		waits = append(waits, rep.Waits...)
		games += rep.Games
	}
	slices.Sort(waits)
	q := func(f float64) time.Duration {
		return waits[min(len(waits)-1, int(f*float64(len(waits))))].Round(100 * time.Millisecond)
	}
	fmt.Printf("| %d | %d-%d | %v | %d | %d | %v | %v | %v | %v |\n", *field, c.Rules.Min, c.Rules.Max, c.Rules.Bots, max(*arenas, 1),
		games, q(0.5), q(0.9), q(0.99), waits[len(waits)-1].Round(100*time.Millisecond))
}
