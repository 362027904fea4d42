package arena

import (
	"cmp"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"time"
)

// The sizes a table may have, as the engine deals them.
const (
	MinSeats = 3
	MaxSeats = 10
)

// DefaultWait is how long an entrant waits for a full table before a
// smaller one is formed, or house bots fill seats: a person should wait a
// few seconds, and a full table is worth little more than a smaller one
// (see Base).
const DefaultWait = 5 * time.Second

// Rules are how an arena pairs.
type Rules struct {
	// Min and Max are the table sizes, Max filled when enough wait.
	Min, Max int
	// Bots: house bots may fill seats when too few wait.
	Bots bool
	// Wait is how long the longest waiting entrant waits for a full table
	// before a smaller one forms (zero: at once).
	Wait time.Duration
	// End is the arena's end: no table forms at or after it (zero: none).
	End time.Time
}

// Check says what is wrong with the rules, or nil.
func (r Rules) Check() error {
	switch {
	case r.Min < MinSeats || r.Max > MaxSeats:
		return fmt.Errorf("arena: table sizes %d-%d: they must be within %d-%d", r.Min, r.Max, MinSeats, MaxSeats)
	case r.Min > r.Max:
		return fmt.Errorf("arena: table sizes %d-%d: the least is more than the most", r.Min, r.Max)
	case r.Wait < 0:
		return errors.New("arena: the wait for a full table is negative")
	}
	return nil
}

// Entrant is one entrant waiting in an arena's pool.
type Entrant struct {
	ID string
	// Points are its arena points so far, and Rating its rating when the
	// arena began: tables gather entrants near each other in points, and
	// in rating when points are equal.
	Points int
	Rating float64
	// Since is when it began to wait.
	Since time.Time
	// Last are the entrants of its last game (ids not in the pool are
	// ignored): it is not seated with them again where the pool allows.
	Last []string
}

// Table is a table to open: its seats in order, each an entrant's id, or
// "" for a house bot.
type Table struct {
	Seats []string
}

// Bots is how many of the table's seats are house bots.
func (t Table) Bots() int {
	n := 0
	for _, s := range t.Seats {
		if s == "" {
			n++
		}
	}
	return n
}

// Pairing is what to do with a pool now: the tables to open and who keeps
// waiting.
type Pairing struct {
	Tables []Table
	// Waiting are the entrants left waiting, in the pool's order.
	Waiting []string
}

// Pair pairs the pool at now by the rules, seating each table at random
// from seed. Full tables (Max) form as soon as enough wait, the longest
// waiting seated first; once anyone has waited Wait, everyone who can be
// is seated: at smaller tables within the range, and, when the rules allow
// bots, at tables that bots fill up to Min. Each table gathers entrants
// near each other in points; then seats are exchanged, nearest tables
// first, wherever that moves an entrant away from its last tablemates
// without giving anyone else a repeat; a table that still seats last
// tablemates together waits until one of it has waited Wait. The work is a
// sort and a pass over the pool, and an exchange's search for each repeat.
func Pair(pool []Entrant, r Rules, now time.Time, seed uint64) (Pairing, error) {
	if err := r.Check(); err != nil {
		return Pairing{}, err
	}
	p := pairer{pool: pool, seed: seed, now: now, wait: r.Wait}
	if err := p.index(); err != nil {
		return Pairing{}, err
	}
	if !r.End.IsZero() && !now.Before(r.End) {
		return Pairing{Waiting: ids(pool)}, nil
	}
	seated, tables := p.count(r)
	if tables == 0 {
		return Pairing{Waiting: ids(pool)}, nil
	}
	p.place(seated, tables)
	p.repair()
	return p.result(r), nil
}

// pairer is one pairing's working state, entrants named by their index in
// the pool.
type pairer struct {
	pool []Entrant
	seed uint64
	now  time.Time
	wait time.Duration
	ids  map[string]int32
	tie  []uint64
	// mates[start[i]:start[i+1]] are entrant i's last tablemates in the
	// pool, in both directions (those it names, those naming it).
	mates, start []int32
	// at holds the seated, table by table, then those left waiting; table
	// t is at[lo[t]:lo[t+1]], and the waiting are the last "table".
	at  []int32
	lo  []int
	tab []int32
}

// index maps the ids, refusing an empty or repeated one, and links the
// last tablemates.
func (p *pairer) index() error {
	k := len(p.pool)
	p.ids = make(map[string]int32, k)
	p.tie = make([]uint64, k)
	for i, e := range p.pool {
		if e.ID == "" {
			return fmt.Errorf("arena: entrant %d of the pool has no id", i)
		}
		if _, ok := p.ids[e.ID]; ok {
			return fmt.Errorf("arena: entrant %q is in the pool twice", e.ID)
		}
		p.ids[e.ID] = int32(i)
		p.tie[i] = mix(p.seed ^ hash(e.ID))
	}
	// The links in both directions, then counted into one array.
	var edges []int32
	for i, e := range p.pool {
		for _, id := range e.Last {
			if j, ok := p.ids[id]; ok && int(j) != i {
				edges = append(edges, int32(i), j)
			}
		}
	}
	p.start = make([]int32, k+1)
	for _, i := range edges {
		p.start[i+1]++
	}
	for i := range k {
		p.start[i+1] += p.start[i]
	}
	p.mates = make([]int32, len(edges))
	fill := slices.Clone(p.start[:k])
	for e := 0; e < len(edges); e += 2 {
		i, j := edges[e], edges[e+1]
		p.mates[fill[i]], p.mates[fill[j]] = j, i
		fill[i]++
		fill[j]++
	}
	return nil
}

// count is how many entrants to seat now and at how many tables.
func (p *pairer) count(r Rules) (seated, tables int) {
	k := len(p.pool)
	expired := false
	for i := range p.pool {
		expired = expired || p.due(int32(i))
	}
	switch {
	case !expired:
		return k / r.Max * r.Max, k / r.Max
	case r.Bots:
		return k, (k + r.Max - 1) / r.Max
	}
	// The most that sizes within the range can seat: m fits at t tables
	// when t*Min <= m <= t*Max, and the fewest tables is the likeliest fit.
	for m := k; m >= r.Min; m-- {
		if t := (m + r.Max - 1) / r.Max; t*r.Min <= m {
			return m, t
		}
	}
	return 0, 0
}

// place seats the seated: the longest waiting, gathered by points into
// tables as even as the count allows.
func (p *pairer) place(seated, tables int) {
	k := len(p.pool)
	p.at = make([]int32, k)
	for i := range p.at {
		p.at[i] = int32(i)
	}
	if seated < k {
		slices.SortFunc(p.at, func(a, b int32) int {
			if c := p.pool[a].Since.Compare(p.pool[b].Since); c != 0 {
				return c
			}
			return cmp.Compare(p.tie[a], p.tie[b])
		})
	}
	// The order by points is sorted on keys side by side, not through
	// the pool, which the comparisons would wander over.
	keys := make([]key, seated)
	for n, i := range p.at[:seated] {
		keys[n] = key{points: p.pool[i].Points, rating: p.pool[i].Rating, tie: p.tie[i], i: i}
	}
	slices.SortFunc(keys, func(a, b key) int {
		if c := cmp.Compare(b.points, a.points); c != 0 {
			return c
		}
		if c := cmp.Compare(b.rating, a.rating); c != 0 {
			return c
		}
		return cmp.Compare(a.tie, b.tie)
	})
	for n, kk := range keys {
		p.at[n] = kk.i
	}
	p.lo = make([]int, tables+2)
	size, extra := seated/tables, seated%tables
	for t := range tables {
		p.lo[t+1] = p.lo[t] + size
		if t < extra {
			p.lo[t+1]++
		}
	}
	p.lo[tables+1] = k
	p.tab = make([]int32, k)
	for t := range tables + 1 {
		for _, i := range p.at[p.lo[t]:p.lo[t+1]] {
			p.tab[i] = int32(t)
		}
	}
}

// key is what the seated are ordered by.
type key struct {
	points int
	rating float64
	tie    uint64
	i      int32
}

// tables is how many tables are formed (the waiting are one more).
func (p *pairer) tables() int { return len(p.lo) - 2 }

// repeat reports whether entrant i, at table t, would sit there with one
// of its last tablemates other than but. The waiting never do.
func (p *pairer) repeat(i int32, t int32, but int32) bool {
	if int(t) == p.tables() {
		return false
	}
	for _, j := range p.mates[p.start[i]:p.start[i+1]] {
		if j != but && p.tab[j] == t {
			return true
		}
	}
	return false
}

// repair exchanges seats while any exchange moves an entrant with a repeat
// to where it has none and gives the other none. Each exchange removes a
// repeat and makes none, so it ends.
func (p *pairer) repair() {
	for changed := true; changed; {
		changed = false
		for t := range int32(p.tables()) {
			for pos := p.lo[t]; pos < p.lo[t+1]; pos++ {
				if i := p.at[pos]; p.repeat(i, t, -1) && p.exchange(pos, t) {
					changed = true
				}
			}
		}
	}
}

// exchange finds, nearest tables first and the waiting last, someone to
// change seats with the entrant at pos of table t, and does it.
func (p *pairer) exchange(pos int, t int32) bool {
	n := int32(p.tables())
	i := p.at[pos]
	try := func(u int32) bool {
		for q := p.lo[u]; q < p.lo[u+1]; q++ {
			j := p.at[q]
			if !p.repeat(i, u, j) && !p.repeat(j, t, i) {
				p.at[pos], p.at[q] = j, i
				p.tab[i], p.tab[j] = u, t
				return true
			}
		}
		return false
	}
	for d := int32(1); d < n; d++ {
		if t-d >= 0 && try(t-d) || t+d < n && try(t+d) {
			return true
		}
	}
	// One who has waited its time is never sent back to wait, so an
	// entrant whose last tablemates keep waiting too is not passed over.
	return !p.due(i) && try(n)
}

// due reports whether entrant i has waited its time for a full table.
func (p *pairer) due(i int32) bool { return p.now.Sub(p.pool[i].Since) >= p.wait }

// result is the pairing: each table seated at random, bots filling it to
// Min, and the waiting in the pool's order.
func (p *pairer) result(r Rules) Pairing {
	rng := rand.New(rand.NewPCG(p.seed, 0x6172656e61))
	n := p.tables()
	var out Pairing
	waiting := slices.Clone(p.at[p.lo[n]:])
	for t := range n {
		people := p.at[p.lo[t]:p.lo[t+1]]
		if p.held(int32(t)) {
			waiting = append(waiting, people...)
			continue
		}
		seats := make([]string, max(len(people), r.Min))
		for s, i := range people {
			seats[s] = p.pool[i].ID
		}
		rng.Shuffle(len(seats), func(a, b int) { seats[a], seats[b] = seats[b], seats[a] })
		out.Tables = append(out.Tables, Table{Seats: seats})
	}
	slices.Sort(waiting)
	for _, i := range waiting {
		out.Waiting = append(out.Waiting, p.pool[i].ID)
	}
	return out
}

// held reports whether table t waits: it still seats last tablemates
// together and none of it has waited its time. A table that ends sends its
// players back together, and when they are all the pool holds they would
// sit down again as they were; waiting a little lets others come between.
func (p *pairer) held(t int32) bool {
	people := p.at[p.lo[t]:p.lo[t+1]]
	if slices.ContainsFunc(people, p.due) {
		return false
	}
	return slices.ContainsFunc(people, func(i int32) bool { return p.repeat(i, t, -1) })
}

func ids(pool []Entrant) []string {
	out := make([]string, len(pool))
	for i, e := range pool {
		out[i] = e.ID
	}
	return out
}

// hash is the id's FNV-1a hash, which with the seed breaks ties between
// equal entrants differently each pairing.
func hash(s string) uint64 {
	h := uint64(14695981039346656037)
	for i := 0; i < len(s); i++ {
		h ^= uint64(s[i])
		h *= 1099511628211
	}
	return h
}

// mix is SplitMix64's finaliser, spreading a seed's bits.
func mix(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9
	x = (x ^ (x >> 27)) * 0x94d049bb133111eb
	return x ^ (x >> 31)
}
