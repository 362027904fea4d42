package arenasim_test

import (
	"fmt"
	"time"

	"bullshit/arena/arenasim"
	"bullshit/engine/bot"
)

// A quarter of an hour's arena of eight medium entrants at 4 seats: two
// tables at once from the start, a new one as each ends, until the end.
// (Simulated bots decide by their seeds, so the figures are the same every
// run.)
func ExampleRun() {
	c := arenasim.Default()
	c.Length, c.Seed = 15*time.Minute, 1
	c.Rules.Min, c.Rules.Max = 4, 4
	for i := range 8 {
		c.Entrants = append(c.Entrants, arenasim.Entrant{ID: fmt.Sprintf("e%d", i), Level: bot.Medium, Style: bot.Cautious,
			Rating: 1500, Behaviour: arenasim.Normal})
	}
	rep, err := arenasim.Run(c)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("games:", rep.Games, "· the first two opened together:", rep.Tables[0].Opened.Equal(rep.Tables[1].Opened))
	for _, s := range rep.Standings[:3] {
		fmt.Printf("%d. %s %d points in %d games\n", s.Rank, s.Entrant, s.Points, s.Games)
	}
	// Output:
	// games: 12 · the first two opened together: true
	// 1. e6 718 points in 6 games
	// 2. e7 667 points in 6 games
	// 3. e3 366 points in 6 games
}
