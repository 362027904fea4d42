package arena

import (
	"fmt"
	"math/rand/v2"
	"testing"
	"time"
)

// BenchmarkPair pairs pools as an arena's at 4-6 seats might hold, their
// last tablemates partly back too.
func BenchmarkPair(b *testing.B) {
	for _, k := range []int{20, 200, 2000, 20000} {
		b.Run(fmt.Sprint(k), func(b *testing.B) {
			pool := randomPool(rand.New(rand.NewPCG(uint64(k), 4)), k, t0)
			rules := Rules{Min: 4, Max: 6, Wait: DefaultWait}
			b.ReportAllocs()
			for i := 0; b.Loop(); i++ {
				if _, err := Pair(pool, rules, t0, uint64(i)); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkPairRegrouped pairs the hardest common pool: whole tables back
// at once, each table's players equal in points, so the order by points
// would seat every table again as it was and every seat is exchanged (at
// 20 they cannot all be parted: four tables' players at three tables).
func BenchmarkPairRegrouped(b *testing.B) {
	for _, k := range []int{20, 200, 2000, 20000} {
		b.Run(fmt.Sprint(k), func(b *testing.B) {
			pool := make([]Entrant, k)
			for i := range pool {
				pool[i] = Entrant{ID: fmt.Sprintf("p%d", i), Points: i / 6 * 10, Since: t0}
			}
			for i := range pool {
				g := i / 6 * 6
				for j := g; j < min(g+6, k); j++ {
					pool[i].Last = append(pool[i].Last, pool[j].ID)
				}
			}
			rules := Rules{Min: 4, Max: 6, Wait: DefaultWait}
			b.ReportAllocs()
			for i := 0; b.Loop(); i++ {
				if _, err := Pair(pool, rules, t0, uint64(i)); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkStandings ranks an arena of 2,000 entrants after 20 games each,
// from the results and from a tally kept as they came.
func BenchmarkStandings(b *testing.B) {
	rng := rand.New(rand.NewPCG(6, 6))
	results := make([]Result, 40000)
	for i := range results {
		seats := 4 + rng.IntN(3)
		results[i] = Result{Entrant: fmt.Sprintf("p%d", rng.IntN(2000)), Seats: seats, Place: 1 + rng.IntN(seats), Ended: t0.Add(time.Duration(i) * time.Second)}
	}
	b.Run("results", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			Standings(results)
		}
	})
	b.Run("tally", func(b *testing.B) {
		var t Tally
		for _, r := range results {
			t.Add(r)
		}
		b.ReportAllocs()
		for b.Loop() {
			t.Standings()
		}
	})
}
