package arena_test

import (
	"fmt"
	"time"

	"bullshit/arena"
)

var start = time.Date(2026, 12, 1, 20, 0, 0, 0, time.UTC)

// Points by the share of the table beaten: a win is 100 at any size, and
// second of ten is worth more than second of four.
func ExampleBase() {
	for _, n := range []int{4, 6, 10} {
		fmt.Printf("%2d seats:", n)
		for p := 1; p <= n; p++ {
			fmt.Printf(" %3d", arena.Base(n, p, 1))
		}
		fmt.Println()
	}
	// Output:
	//  4 seats: 100  67  33   0
	//  6 seats: 100  80  60  40  20   0
	// 10 seats: 100  89  78  67  56  44  33  22  11   0
}

// A streak: after two good results in a row each good one scores double,
// and a middle one (3rd of 5) half as much again; a bad result, or a game
// left, ends it.
func ExampleScore() {
	results := []arena.Result{
		{Seats: 5, Place: 1}, {Seats: 5, Place: 2}, {Seats: 5, Place: 1},
		{Seats: 5, Place: 3}, {Seats: 5, Place: 2}, {Seats: 5, Place: 5}, {Seats: 5, Place: 1},
	}
	streak := 0
	for _, r := range results {
		var p int
		p, streak = arena.Score(r, streak)
		fmt.Printf("place %d of %d: %3d points, streak %d\n", r.Place, r.Seats, p, streak)
	}
	// Output:
	// place 1 of 5: 100 points, streak 1
	// place 2 of 5:  75 points, streak 2
	// place 1 of 5: 200 points, streak 3
	// place 3 of 5:  75 points, streak 3
	// place 2 of 5: 150 points, streak 4
	// place 5 of 5:   0 points, streak 0
	// place 1 of 5: 100 points, streak 1
}

// Standings from an arena's results in the order they were recorded.
func ExampleStandings() {
	at := func(m int) time.Time { return start.Add(time.Duration(m) * time.Minute) }
	results := []arena.Result{
		{Entrant: "ann", Game: "g1", Seats: 4, Place: 1, Ended: at(4)},
		{Entrant: "bob", Game: "g1", Seats: 4, Place: 2, Ended: at(4)},
		{Entrant: "cy", Game: "g1", Seats: 4, Place: 3, Ended: at(4)},
		{Entrant: "ann", Game: "g3", Seats: 5, Place: 4, Left: true, Ended: at(7)},
		{Entrant: "bob", Game: "g2", Seats: 6, Place: 1, Ended: at(9)},
	}
	for _, s := range arena.Standings(results) {
		fmt.Printf("%d. %s %d points in %d games (%d left), performance %.0f\n", s.Rank, s.Entrant, s.Points, s.Games, s.Left, s.Performance())
	}
	// Output:
	// 1. bob 167 points in 2 games (0 left), performance 84
	// 2. ann 100 points in 2 games (1 left), performance 100
	// 3. cy 33 points in 1 games (0 left), performance 33
}

// Pairing a pool at 4-6 seats: six make a full table at once; the two
// others wait, and once they have waited, house bots fill their table.
func ExamplePair() {
	var pool []arena.Entrant
	for i, id := range []string{"a", "b", "c", "d", "e", "f", "g", "h"} {
		pool = append(pool, arena.Entrant{ID: id, Points: 100 * (i % 3), Since: start})
	}
	rules := arena.Rules{Min: 4, Max: 6, Bots: true, Wait: arena.DefaultWait}
	p, _ := arena.Pair(pool, rules, start.Add(time.Second), 1)
	fmt.Println("tables:", len(p.Tables), "· seats:", len(p.Tables[0].Seats), "· waiting:", p.Waiting)
	rest := pool[0:0]
	for _, e := range pool {
		if e.ID == p.Waiting[0] || e.ID == p.Waiting[1] {
			rest = append(rest, e)
		}
	}
	p, _ = arena.Pair(rest, rules, start.Add(arena.DefaultWait), 2)
	fmt.Println("after the wait:", len(p.Tables[0].Seats), "seats,", p.Tables[0].Bots(), "of them bots · waiting:", len(p.Waiting))
	// Output:
	// tables: 1 · seats: 6 · waiting: [f g]
	// after the wait: 4 seats, 2 of them bots · waiting: 0
}
