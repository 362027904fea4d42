package arena

import (
	"fmt"
	"math/rand/v2"
	"testing"
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
