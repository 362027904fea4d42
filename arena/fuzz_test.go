package arena

import (
	"fmt"
	"testing"
	"time"
)

// FuzzPair pairs pools read from arbitrary bytes and checks every promise
// the property test checks. The bytes say the rules (sizes, bots, wait,
// an end), then for each entrant its points, rating, wait and one last
// tablemate by number, some of which name no one or the entrant itself.
func FuzzPair(f *testing.F) {
	f.Add([]byte{4, 6, 1, 5, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12})
	f.Add([]byte{3, 10, 0, 0, 0, 9, 9, 9, 9, 9, 9, 9, 9})
	f.Add([]byte{5, 5, 1, 2, 1, 200, 100, 50, 3})
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) < 5 {
			return
		}
		lo := MinSeats + int(data[0])%(MaxSeats-MinSeats+1)
		r := Rules{Min: lo, Max: lo + int(data[1])%(MaxSeats-lo+1), Bots: data[2]%2 == 1,
			Wait: time.Duration(data[3]%12) * time.Second}
		if data[4]%7 == 0 {
			r.End = t0
		}
		data = data[5:]
		var pool []Entrant
		for i := 0; i+3 < len(data) && len(pool) < 200; i += 4 {
			pool = append(pool, Entrant{ID: fmt.Sprint(len(pool)), Points: int(data[i]) * 10, Rating: float64(data[i+1] % 4),
				Since: t0.Add(-time.Duration(data[i+2]) * 100 * time.Millisecond)})
		}
		for i := 0; i+3 < len(data) && i/4 < len(pool); i += 4 {
			pool[i/4].Last = []string{fmt.Sprint(int(data[i+3]) % (len(pool) + 2)), fmt.Sprint(int(data[i]) % (len(pool) + 1))}
		}
		p, err := Pair(pool, r, t0, uint64(len(data)))
		if err != nil {
			t.Fatal(err)
		}
		checkPairing(t, "fuzz", pool, r, t0, p)
	})
}
