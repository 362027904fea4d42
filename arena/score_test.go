package arena

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"time"
)

func TestBase(t *testing.T) {
	tests := []struct {
		seats, place, shared, want int
	}{
		{4, 1, 1, 100},
		{4, 2, 1, 67},
		{4, 3, 1, 33},
		{4, 4, 1, 0},
		{10, 1, 1, 100},
		{10, 2, 1, 89},
		{10, 10, 1, 0},
		{9, 2, 1, 88}, // 87.5, to even
		{9, 4, 1, 62}, // 62.5, to even
		{3, 2, 1, 50},
		{4, 2, 2, 50}, // 1, 2, 2, 4: beats one, ties one
		{4, 2, 3, 33}, // beats none, ties two
		{4, 1, 0, 100},
		{4, 5, 1, 0},  // no such place
		{4, 3, 3, 0},  // a tie past the last seat
		{1, 1, 1, 0},  // no table
		{5, 0, 1, 0},  // no place
		{6, 1, 6, 50}, // everyone tied
	}
	for _, tt := range tests {
		if got := Base(tt.seats, tt.place, tt.shared); got != tt.want {
			t.Errorf("Base(%d, %d, %d) = %d, want %d", tt.seats, tt.place, tt.shared, got, tt.want)
		}
	}
}

// A table's points without ties add up to half of Win a seat at every
// size: the rounding takes from no size to give to another.
func TestBaseSums(t *testing.T) {
	for n := MinSeats; n <= MaxSeats; n++ {
		sum := 0
		for p := 1; p <= n; p++ {
			sum += Base(n, p, 1)
		}
		if want := n * Win / 2; sum != want {
			t.Errorf("a table of %d: points add up to %d, want %d", n, sum, want)
		}
		good, bad := 0, 0
		for p := 1; p <= n; p++ {
			switch GradeOf(Result{Seats: n, Place: p, Shared: 1}) {
			case Good:
				good++
			case Bad:
				bad++
			}
		}
		if good != bad {
			t.Errorf("a table of %d: %d good places and %d bad, want as many", n, good, bad)
		}
	}
}

// On fire, an even player's bonus a game (each place as likely) is much the
// same at every size: were a middle result not paid half the bonus, an odd
// table's would be a sixth less than an even one's.
func TestStreakBonusBySize(t *testing.T) {
	lo, hi := 100.0, 0.0
	for n := MinSeats; n <= MaxSeats; n++ {
		bonus := 0
		for p := 1; p <= n; p++ {
			r := Result{Seats: n, Place: p}
			on, _ := Score(r, Fire)
			bonus += on - Base(n, p, 1)
		}
		mean := float64(bonus) / float64(n)
		lo, hi = min(lo, mean), max(hi, mean)
	}
	if hi-lo > 3 {
		t.Errorf("the bonus a game on fire runs from %.1f to %.1f across sizes, want within 3", lo, hi)
	}
}

func TestScoreStreak(t *testing.T) {
	win := Result{Seats: 4, Place: 1}
	second := Result{Seats: 4, Place: 2}
	last := Result{Seats: 4, Place: 4}
	middle := Result{Seats: 5, Place: 3}
	left := Result{Seats: 4, Place: 1, Left: true}
	tests := []struct {
		name    string
		results []Result
		want    []int
		streak  int
	}{
		{"two wins then doubled", []Result{win, win, win, win}, []int{100, 100, 200, 200}, 4},
		{"a second place extends it", []Result{win, second, second}, []int{100, 67, 134}, 3},
		{"a middle neither extends nor breaks", []Result{win, middle, win, win}, []int{100, 50, 100, 200}, 3},
		{"a middle on fire earns half the bonus", []Result{win, win, middle, win}, []int{100, 100, 75, 200}, 3},
		{"last breaks it", []Result{win, win, last, win}, []int{100, 100, 0, 100}, 1},
		{"leaving scores nothing and breaks it", []Result{win, win, left, win}, []int{100, 100, 0, 100}, 1},
	}
	for _, tt := range tests {
		streak := 0
		var got []int
		for _, r := range tt.results {
			var p int
			p, streak = Score(r, streak)
			got = append(got, p)
		}
		if !slices.Equal(got, tt.want) || streak != tt.streak {
			t.Errorf("%s: points %v, streak %d, want %v, %d", tt.name, got, streak, tt.want, tt.streak)
		}
	}
}

var t0 = time.Date(2026, 12, 1, 20, 0, 0, 0, time.UTC)

func TestStandingsOrder(t *testing.T) {
	at := func(s int) time.Time { return t0.Add(time.Duration(s) * time.Second) }
	results := []Result{
		// a and b both reach 100 points; a with the better mean.
		{Entrant: "a", Seats: 4, Place: 1, Ended: at(1)},
		{Entrant: "b", Seats: 4, Place: 2, Ended: at(2)},
		{Entrant: "b", Seats: 4, Place: 3, Ended: at(3)},
		// c and d: 67 each, same mean; d reached it first.
		{Entrant: "c", Seats: 4, Place: 2, Ended: at(7)},
		{Entrant: "d", Seats: 4, Place: 2, Ended: at(6)},
		// e and f: 67 each, same mean, same moment: by id.
		{Entrant: "f", Seats: 4, Place: 2, Ended: at(6)},
		{Entrant: "e", Seats: 4, Place: 2, Ended: at(6)},
		// g only left: nothing.
		{Entrant: "g", Seats: 4, Place: 1, Left: true, Ended: at(8)},
		// h played to the end for nothing: a mean of 0 too, then by id.
		{Entrant: "h", Seats: 4, Place: 4, Ended: at(9)},
	}
	var got []string
	for _, s := range Standings(results) {
		got = append(got, fmt.Sprintf("%d %s %d", s.Rank, s.Entrant, s.Points))
	}
	want := []string{"1 a 100", "2 b 100", "3 d 67", "4 e 67", "5 f 67", "6 c 67", "7 g 0", "8 h 0"}
	if !slices.Equal(got, want) {
		t.Errorf("standings\n%v\nwant\n%v", got, want)
	}
}

// The standings are a pure function of the results: each line is the
// entrant's total recomputed alone, the ranks run 1, 2, 3 in order, and
// every entrant with a result is listed once.
func TestStandingsProperty(t *testing.T) {
	for seed := range uint64(3000) {
		rng := rand.New(rand.NewPCG(seed, 1))
		results := randomResults(rng)
		st := Standings(results)
		seen := map[string]bool{}
		for _, r := range results {
			seen[r.Entrant] = true
		}
		if len(st) != len(seen) {
			t.Fatalf("seed %d: %d lines, want %d", seed, len(st), len(seen))
		}
		for i, s := range st {
			total := Total(results, s.Entrant)
			total.Rank = s.Rank
			if fmt.Sprint(total) != fmt.Sprint(s) || s.Rank != i+1 {
				t.Fatalf("seed %d: line %d is %+v, recomputed %+v", seed, i, s, total)
			}
			if i > 0 && compare(st[i-1], s) >= 0 {
				t.Fatalf("seed %d: line %d (%+v) not after line %d (%+v)", seed, i, s, i-1, st[i-1])
			}
			if s.Points < s.Sum || s.Points > 2*s.Sum {
				// Every result earns its Base, and at most as much again.
				t.Fatalf("seed %d: %s has %d points from %d base", seed, s.Entrant, s.Points, s.Sum)
			}
		}
	}
}

// A tally fed the results one by one says what Standings says of them all,
// at every step.
func TestTally(t *testing.T) {
	for seed := range uint64(300) {
		rng := rand.New(rand.NewPCG(seed, 5))
		results := randomResults(rng)
		var tally Tally
		for i, r := range results {
			tally.Add(r)
			if i%17 != 0 && i != len(results)-1 {
				continue
			}
			if got, want := fmt.Sprint(tally.Standings()), fmt.Sprint(Standings(results[:i+1])); got != want {
				t.Fatalf("seed %d, after %d results: the tally says\n%s\nStandings say\n%s", seed, i+1, got, want)
			}
			s, ok := tally.Of(r.Entrant)
			if want := Total(results[:i+1], r.Entrant); !ok || fmt.Sprint(s) != fmt.Sprint(want) {
				t.Fatalf("seed %d: %s is %+v in the tally, %+v recounted", seed, r.Entrant, s, want)
			}
		}
		if _, ok := tally.Of("nobody"); ok {
			t.Fatalf("seed %d: a standing for an entrant with no result", seed)
		}
	}
}

func randomResults(rng *rand.Rand) []Result {
	n := rng.IntN(200)
	entrants := 1 + rng.IntN(30)
	out := make([]Result, n)
	for i := range out {
		seats := MinSeats + rng.IntN(MaxSeats-MinSeats+1)
		place := 1 + rng.IntN(seats)
		out[i] = Result{
			Entrant: fmt.Sprintf("e%d", rng.IntN(entrants)),
			Seats:   seats, Place: place, Shared: 1 + rng.IntN(seats-place+1),
			Left:  rng.IntN(10) == 0,
			Ended: t0.Add(time.Duration(i/3) * time.Second),
		}
	}
	return out
}
