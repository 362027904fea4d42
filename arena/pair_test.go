package arena

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"
)

// waiting is a pool of fresh entrants named by letters, each waited ago.
func waiting(names string, ago time.Duration) []Entrant {
	var out []Entrant
	for _, c := range names {
		out = append(out, Entrant{ID: string(c), Since: t0.Add(-ago)})
	}
	return out
}

// shape is a pairing as sorted tables of ids ("." for a bot) and the
// waiting: "abcd.. | ef".
func shape(p Pairing) string {
	var parts []string
	for _, t := range p.Tables {
		s := slices.Clone(t.Seats)
		slices.Sort(s)
		parts = append(parts, strings.Join(s, "")+strings.Repeat(".", t.Bots()))
	}
	slices.Sort(parts)
	w := slices.Clone(p.Waiting)
	return strings.Join(parts, " ") + " | " + strings.Join(w, "")
}

func TestPair(t *testing.T) {
	fresh, old := time.Second, 6*time.Second
	r46 := Rules{Min: 4, Max: 6, Wait: DefaultWait}
	bots := r46
	bots.Bots = true
	ended := r46
	ended.End = t0
	mates := func(pool []Entrant, groups ...string) []Entrant {
		for i := range pool {
			for _, g := range groups {
				if strings.Contains(g, pool[i].ID) {
					pool[i].Last = strings.Split(g, "")
				}
			}
		}
		return pool
	}
	scored := func(pool []Entrant, points ...int) []Entrant {
		for i := range pool {
			pool[i].Points = points[i]
		}
		return pool
	}
	tests := []struct {
		name  string
		pool  []Entrant
		rules Rules
		want  string
	}{
		{"six fresh make a full table", waiting("abcdef", fresh), r46, "abcdef | "},
		{"five fresh wait for a sixth", waiting("abcde", fresh), r46, " | abcde"},
		{"five who have waited sit at five", waiting("abcde", old), r46, "abcde | "},
		{"three who have waited wait on without bots", waiting("abc", old), r46, " | abc"},
		{"bots fill three who have waited to four", waiting("abc", old), bots, "abc. | "},
		{"bots fill one to four", waiting("a", old), bots, "a... | "},
		{"none waited: no bots", waiting("abc", fresh), bots, " | abc"},
		{"seven fresh: the seventh waits", append(waiting("abcdef", old-time.Second), waiting("g", 0)...), r46, "abcdef | g"},
		{"seven who have waited: six sit, the newest waits", append(waiting("abcdef", old), waiting("g", fresh)...), r46, "abcdef | g"},
		{"nine who have waited sit at five and four", scored(waiting("abcdefghi", old), 9, 8, 7, 6, 5, 4, 3, 2, 1), r46, "abcde fghi | "},
		{"nothing at the end", waiting("abcdef", old), ended, " | abcdef"},
		{"by points", scored(waiting("abcdefghijkl", fresh), 0, 9, 0, 9, 0, 9, 0, 9, 0, 9, 0, 9), r46, "acegik bdfhjl | "},
		{"a repeat undone", mates(scored(waiting("abcdefghijkl", fresh), 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1), "ab", "gh"),
			r46, "ahijkl bcdefg | "},
		// Three of one last table and three of another cannot all be
		// parted at two tables.
		{"repeats that cannot be undone wait", mates(scored(waiting("abcdefghijkl", fresh), 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1), "abc", "ghi"),
			r46, " | abcdefghijkl"},
		{"repeats that cannot be undone, after a wait", mates(scored(waiting("abcdefghijkl", old), 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1), "abc", "ghi"),
			r46, "ahijkl bcdefg | "},
		{"a table back together waits", mates(waiting("abcdef", fresh), "abcdef"), r46, " | abcdef"},
		{"a table back together sits again after a wait", mates(waiting("abcdef", old), "abcdef"), r46, "abcdef | "},
		{"one table waits, the other sits", mates(scored(waiting("abcdefghijkl", fresh), 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1), "abcdef"),
			r46, "ahijkl | bcdefg"},
		{"a repeat undone with one waiting", mates(waiting("abcdefg", fresh), "ab"), r46, "acdefg | b"},
	}
	for _, tt := range tests {
		p, err := Pair(tt.pool, tt.rules, t0, 1)
		if err != nil {
			t.Errorf("%s: %v", tt.name, err)
			continue
		}
		if got := shape(p); got != tt.want {
			t.Errorf("%s: %q, want %q", tt.name, got, tt.want)
		}
	}
}

func TestPairRefuses(t *testing.T) {
	ok := Rules{Min: 4, Max: 6}
	tests := []struct {
		name  string
		pool  []Entrant
		rules Rules
		want  string
	}{
		{"too small", nil, Rules{Min: 2, Max: 6}, "within 3-10"},
		{"too big", nil, Rules{Min: 4, Max: 11}, "within 3-10"},
		{"upside down", nil, Rules{Min: 6, Max: 4}, "the least is more"},
		{"negative wait", nil, Rules{Min: 4, Max: 6, Wait: -1}, "negative"},
		{"no id", []Entrant{{ID: "a"}, {}}, ok, "entrant 1 of the pool has no id"},
		{"twice", []Entrant{{ID: "a"}, {ID: "b"}, {ID: "a"}}, ok, `"a" is in the pool twice`},
	}
	for _, tt := range tests {
		_, err := Pair(tt.pool, tt.rules, t0, 1)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: error %v, want one saying %q", tt.name, err, tt.want)
		}
	}
}

// randomPool is a pool as an arena's might be: entrants back from tables
// whose others are partly back too, with few distinct points and ratings so
// that ties are common, some waiting long and some not, and some last
// tablemates still playing.
func randomPool(rng *rand.Rand, k int, now time.Time) []Entrant {
	pool := make([]Entrant, k)
	for i := range pool {
		pool[i] = Entrant{
			ID:     fmt.Sprintf("p%d", i),
			Points: 50 * rng.IntN(1+rng.IntN(20)),
			Rating: float64(1500 + 100*rng.IntN(5)),
			Since:  now.Add(-time.Duration(rng.IntN(12000)) * time.Millisecond),
		}
	}
	perm := rng.Perm(k)
	for len(perm) > 0 {
		g := min(len(perm), MinSeats+rng.IntN(MaxSeats-MinSeats+1))
		last := []string{fmt.Sprintf("gone%d", rng.IntN(1000))}
		for _, i := range perm[:g] {
			last = append(last, pool[i].ID)
		}
		for _, i := range perm[:g] {
			if rng.IntN(8) > 0 {
				pool[i].Last = last
			}
		}
		perm = perm[g:]
	}
	return pool
}

func randomRules(rng *rand.Rand, now time.Time) Rules {
	lo := MinSeats + rng.IntN(MaxSeats-MinSeats+1)
	r := Rules{Min: lo, Max: lo + rng.IntN(MaxSeats-lo+1), Bots: rng.IntN(2) == 0,
		Wait: time.Duration(rng.IntN(10)) * time.Second}
	if rng.IntN(10) == 0 {
		r.End = now.Add(time.Duration(rng.IntN(3)-1) * time.Second)
	}
	return r
}

// TestPairProperty pairs thousands of seeded pools and checks what a
// pairing promises:
//   - every table is within the range, bots only where allowed, only to
//     bring a table up to Min, and none after the end;
//   - every entrant is seated once or left waiting, nobody invented;
//   - fewer than Max are left waiting, and once anyone has waited its time
//     only those who cannot be seated are (none where bots may fill),
//     unless a table is held back: one that seats last tablemates together
//     and none of whom has waited its time;
//   - nobody who has waited its time waits while one who has not is seated;
//   - a repeat of last tablemates is unavoidable: no exchange of two seats,
//     or of a seat with a waiting entrant who may be seated, moves an
//     entrant with a repeat to where it has none without giving the other
//     one.
func TestPairProperty(t *testing.T) {
	for seed := range uint64(4000) {
		rng := rand.New(rand.NewPCG(seed, 2))
		k := rng.IntN(40)
		if seed%10 == 0 {
			k = rng.IntN(400)
		}
		pool := randomPool(rng, k, t0)
		rules := randomRules(rng, t0)
		p, err := Pair(pool, rules, t0, seed)
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		checkPairing(t, fmt.Sprintf("seed %d", seed), pool, rules, t0, p)
	}
}

func checkPairing(t *testing.T, name string, pool []Entrant, r Rules, now time.Time, p Pairing) {
	t.Helper()
	byID := map[string]Entrant{}
	for _, e := range pool {
		byID[e.ID] = e
	}
	where := map[string]int{} // table index, -1 waiting
	for ti, tb := range p.Tables {
		people := len(tb.Seats) - tb.Bots()
		switch {
		case len(tb.Seats) < r.Min || len(tb.Seats) > r.Max:
			t.Fatalf("%s: table %d has %d seats, outside %d-%d", name, ti, len(tb.Seats), r.Min, r.Max)
		case tb.Bots() > 0 && (!r.Bots || len(tb.Seats) != r.Min || people == 0):
			t.Fatalf("%s: table %d has %d bots to %d entrants (bots %v, min %d)", name, ti, tb.Bots(), people, r.Bots, r.Min)
		case !r.End.IsZero() && !now.Before(r.End):
			t.Fatalf("%s: a table at the end", name)
		}
		for _, id := range tb.Seats {
			if id == "" {
				continue
			}
			if _, ok := byID[id]; !ok {
				t.Fatalf("%s: table %d seats %q, not in the pool", name, ti, id)
			}
			if _, ok := where[id]; ok {
				t.Fatalf("%s: %q seated twice", name, id)
			}
			where[id] = ti
		}
	}
	for _, id := range p.Waiting {
		if _, ok := where[id]; ok || byID[id].ID == "" {
			t.Fatalf("%s: %q waiting, and seated or not in the pool", name, id)
		}
		where[id] = -1
	}
	if len(where) != len(pool) {
		t.Fatalf("%s: %d entrants placed, %d in the pool", name, len(where), len(pool))
	}
	due := func(id string) bool { return now.Sub(byID[id].Since) >= r.Wait }
	if !r.End.IsZero() && !now.Before(r.End) {
		return
	}
	// Without a table held back, fewer than Max wait, and once anyone has
	// waited its time, only those who cannot be seated (none where bots
	// may fill). A table held back seats last tablemates together, and
	// none of it has waited its time.
	anyDue := slices.ContainsFunc(pool, func(e Entrant) bool { return due(e.ID) })
	want := len(pool) % r.Max
	if anyDue {
		want = 0
		if !r.Bots {
			want = len(pool) - seatable(len(pool), r.Min, r.Max)
		}
	}
	held := len(p.Waiting) != want
	if len(p.Waiting) < want {
		t.Fatalf("%s: %d of %d waiting, want at least %d (%d-%d, due %v)", name, len(p.Waiting), len(pool), want, r.Min, r.Max, anyDue)
	}
	waitingDue := 0
	for _, w := range p.Waiting {
		if due(w) {
			waitingDue++
		}
	}
	if held && waitingDue > want {
		t.Fatalf("%s: %d waiting who waited their time, at most %d may", name, waitingDue, want)
	}
	for _, w := range p.Waiting {
		if !due(w) {
			continue
		}
		for id, ti := range where {
			if ti >= 0 && !due(id) {
				t.Fatalf("%s: %q waits its time out while %q, newer, is seated", name, w, id)
			}
		}
	}
	mates := func(a, b string) bool {
		return a != b && (slices.Contains(byID[a].Last, b) || slices.Contains(byID[b].Last, a))
	}
	// repeat: would id sit at table ti with a last tablemate, but aside?
	repeat := func(id string, ti int, but string) bool {
		if ti < 0 {
			return false
		}
		return slices.ContainsFunc(p.Tables[ti].Seats, func(o string) bool { return o != "" && o != but && mates(id, o) })
	}
	for ti, tb := range p.Tables {
		if slices.ContainsFunc(tb.Seats, func(a string) bool { return a != "" && repeat(a, ti, "") }) &&
			!slices.ContainsFunc(tb.Seats, func(a string) bool { return a != "" && due(a) }) {
			t.Fatalf("%s: table %d seats last tablemates together, and none of it has waited", name, ti)
		}
		for _, a := range tb.Seats {
			if a == "" || !repeat(a, ti, "") {
				continue
			}
			for b, u := range where {
				// A held table's entrants were seated when the exchanges
				// were looked for, and are not counted.
				if u == ti || u < 0 && (due(a) || held) {
					continue
				}
				if !repeat(a, u, b) && !repeat(b, ti, a) {
					t.Fatalf("%s: %q sits with a last tablemate at table %d, and could change with %q", name, a, ti, b)
				}
			}
		}
	}
}

// seatable is the most of k entrants that tables within min-max can seat,
// counted the slow way.
func seatable(k, lo, hi int) int {
	best := 0
	for m := 0; m <= k; m++ {
		for t := 1; t <= m; t++ {
			if t*lo <= m && m <= t*hi {
				best = m
			}
		}
	}
	return best
}

// Pairing is a pure function of its input and seed.
func TestPairDeterministic(t *testing.T) {
	for seed := range uint64(200) {
		rng := rand.New(rand.NewPCG(seed, 3))
		pool := randomPool(rng, rng.IntN(100), t0)
		rules := randomRules(rng, t0)
		a, _ := Pair(pool, rules, t0, seed)
		b, _ := Pair(slices.Clone(pool), rules, t0, seed)
		if fmt.Sprint(a) != fmt.Sprint(b) {
			t.Fatalf("seed %d: two pairings differ:\n%v\n%v", seed, a, b)
		}
	}
}
