package arenasim

import (
	"fmt"
	"math"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"

	"bullshit/arena"
	"bullshit/engine/bot"
)

// Rule scores a result after streak good results in a row, as arena.Score
// does; the simulator weighs other rules against it.
type Rule struct {
	Name  string
	Score func(r arena.Result, streak int) (points, next int)
}

// Rules are the scoring rules the measurement compares: the arena's, and
// the first rule tried, points for each seat beaten, which pays a place at
// a big table more than the same share of a small one.
var Rules = []Rule{
	{Name: "share beaten", Score: arena.Score},
	{Name: "seats beaten", Score: seatsBeaten},
}

// seatsBeaten is 25 points a seat beaten (a tie half), doubled on fire as
// the arena's rule is.
func seatsBeaten(r arena.Result, streak int) (int, int) {
	_, next := arena.Score(r, streak)
	if r.Left {
		return 0, next
	}
	shared := max(r.Shared, 1)
	p := 25 * (2*r.Seats - 2*r.Place - shared + 1) / 2
	if arena.GradeOf(r) == arena.Good && streak >= arena.Fire {
		p *= 2
	}
	return p, next
}

// Field is a field of 24 for the measurement: six easy, six hard and six
// medium entrants playing normally, and two medium entrants of each other
// behaviour, all of the cautious style, rated by level.
func Field() []Entrant {
	var out []Entrant
	add := func(n int, l bot.Level, b Behaviour) {
		rating := map[bot.Level]float64{bot.Easy: 1200, bot.Medium: 1500, bot.Hard: 1800}[l]
		for range n {
			out = append(out, Entrant{ID: fmt.Sprintf("e%02d", len(out)), Level: l, Style: bot.Cautious, Rating: rating, Behaviour: b})
		}
	}
	add(6, bot.Easy, Normal)
	add(6, bot.Hard, Normal)
	add(6, bot.Medium, Normal)
	add(2, bot.Medium, Biggest)
	add(2, bot.Medium, Leaves)
	add(2, bot.Medium, Pauses)
	return out
}

// Group is a level and behaviour: the entrants the measurement averages.
type Group struct {
	Level     bot.Level
	Behaviour Behaviour
}

// Figure is a mean over arenas with its 95% interval's half-width.
type Figure struct{ Mean, Half float64 }

func (f Figure) String() string { return fmt.Sprintf("%.0f ± %.0f", f.Mean, f.Half) }

// Row is one group's figures under one rule over every arena.
type Row struct {
	Group Group
	Rule  string
	// PerHour and PerGame are the group's points an hour and a game;
	// Gain is its points an hour less those of the normal entrants of its
	// level in the same arena (zero for them).
	PerHour, PerGame, Gain Figure
	// Games is the games an hour, Waited the seconds waiting a game.
	Games, Waited Figure
	// Sizes is the mean size of the group's tables.
	Sizes Figure
}

// Measure plays arenas arenas of c (each seeded from c.Seed and its number)
// on every core, and gives each group's figures under each rule.
func Measure(c Config, arenas int) ([]Row, error) {
	reps := make([]Report, arenas)
	errs := make([]error, arenas)
	var wg sync.WaitGroup
	next := make(chan int)
	for range runtime.GOMAXPROCS(0) {
		wg.Go(func() {
			for i := range next {
				ci := c
				ci.Seed = mix(c.Seed, uint64(i))
				reps[i], errs[i] = Run(ci)
			}
		})
	}
	for i := range arenas {
		next <- i
	}
	close(next)
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			return nil, fmt.Errorf("arena %d: %w", i, err)
		}
	}
	group := map[string]Group{}
	var groups []Group
	for _, e := range c.Entrants {
		g := Group{e.Level, e.Behaviour}
		group[e.ID] = g
		if !slices.Contains(groups, g) {
			groups = append(groups, g)
		}
	}
	hours := c.Length.Hours()
	var rows []Row
	for _, rule := range Rules {
		type acc struct{ hour, game, gain, games, waited, size []float64 }
		accs := map[Group]*acc{}
		for _, g := range groups {
			accs[g] = &acc{}
		}
		for _, rep := range reps {
			points, games, seats := map[Group]float64{}, map[Group]float64{}, map[Group]float64{}
			waited, count := map[Group]float64{}, map[Group]float64{}
			streak := map[string]int{}
			for _, r := range rep.Results {
				p, n := rule.Score(r, streak[r.Entrant])
				streak[r.Entrant] = n
				g := group[r.Entrant]
				points[g] += float64(p)
				games[g]++
				seats[g] += float64(r.Seats)
			}
			for _, e := range c.Entrants {
				g := group[e.ID]
				count[g]++
				waited[g] += rep.Waited[e.ID].Seconds()
			}
			for _, g := range groups {
				a := accs[g]
				hour := points[g] / count[g] / hours
				a.hour = append(a.hour, hour)
				a.gain = append(a.gain, hour-points[Group{g.Level, Normal}]/count[Group{g.Level, Normal}]/hours)
				a.games = append(a.games, games[g]/count[g]/hours)
				if games[g] > 0 {
					a.game = append(a.game, points[g]/games[g])
					a.size = append(a.size, seats[g]/games[g])
					a.waited = append(a.waited, waited[g]/games[g])
				}
			}
		}
		for _, g := range groups {
			a := accs[g]
			rows = append(rows, Row{Group: g, Rule: rule.Name, PerHour: figure(a.hour), PerGame: figure(a.game),
				Gain: figure(a.gain), Games: figure(a.games), Waited: figure(a.waited), Sizes: figure(a.size)})
		}
	}
	return rows, nil
}

// figure is the mean of xs and its 95% interval's half-width.
func figure(xs []float64) Figure {
	if len(xs) == 0 {
		return Figure{}
	}
	var sum, sq float64
	for _, x := range xs {
		sum += x
	}
	mean := sum / float64(len(xs))
	for _, x := range xs {
		sq += (x - mean) * (x - mean)
	}
	if len(xs) < 2 {
		return Figure{Mean: mean}
	}
	return Figure{Mean: mean, Half: 1.96 * math.Sqrt(sq/float64(len(xs)-1)/float64(len(xs)))}
}

// Markdown is rows as a table for docs/arena.md.
func Markdown(rows []Row) string {
	var b strings.Builder
	b.WriteString("| rule | level | behaviour | points an hour | gain an hour | points a game | games an hour | table size | wait a game (s) |\n")
	b.WriteString("|---|---|---|---|---|---|---|---|---|\n")
	for _, r := range rows {
		size := fmt.Sprintf("%.2f ± %.2f", r.Sizes.Mean, r.Sizes.Half)
		games := fmt.Sprintf("%.1f ± %.1f", r.Games.Mean, r.Games.Half)
		fmt.Fprintf(&b, "| %s | %s | %s | %v | %v | %v | %s | %s | %v |\n", r.Rule, r.Group.Level, r.Group.Behaviour,
			r.PerHour, r.Gain, r.PerGame, games, size, r.Waited)
	}
	return b.String()
}

// Describe says what c is, for a report's heading.
func Describe(c Config, arenas int) string {
	leave := "paired again as soon as they leave"
	if c.LeaverWaits {
		leave = "paired again only when the game they left ends"
	}
	return fmt.Sprintf("%d arenas of %d entrants, %v long, %d-%d seats, bots %v, %v between games, seed %d; leavers %s",
		arenas, len(c.Entrants), c.Length, c.Rules.Min, c.Rules.Max, c.Rules.Bots, c.Between.Round(time.Second), c.Seed, leave)
}

// SizeRow is a level's mean Base a game at one table size, its streak
// left out, with the games it is over.
type SizeRow struct {
	Level bot.Level
	Seats int
	Base  Figure
	Games int
}

// BySize plays arenas arenas of c as Measure does and gives, for the
// entrants playing normally, the mean Base a game at each table size: the
// share rule means it to be the same at every size for one strength.
func BySize(c Config, arenas int) ([]SizeRow, error) {
	level := map[string]bot.Level{}
	for _, e := range c.Entrants {
		if e.Behaviour == Normal {
			level[e.ID] = e.Level
		}
	}
	type k struct {
		l bot.Level
		n int
	}
	bases := map[k][]float64{}
	for i := range arenas {
		ci := c
		ci.Seed = mix(c.Seed, uint64(i))
		rep, err := Run(ci)
		if err != nil {
			return nil, fmt.Errorf("arena %d: %w", i, err)
		}
		for _, r := range rep.Results {
			if l, ok := level[r.Entrant]; ok && !r.Left {
				kk := k{l, r.Seats}
				bases[kk] = append(bases[kk], float64(arena.Base(r.Seats, r.Place, r.Shared)))
			}
		}
	}
	var rows []SizeRow
	for _, l := range bot.Levels() {
		for n := arena.MinSeats; n <= arena.MaxSeats; n++ {
			if xs := bases[k{l, n}]; len(xs) > 0 {
				rows = append(rows, SizeRow{Level: l, Seats: n, Base: figure(xs), Games: len(xs)})
			}
		}
	}
	return rows, nil
}

// Controlled is BySize without the pairing: games of each size from 3 to
// 10 seats with one seat of each level and the others drawn at random from
// the levels, the same field at every size, so that any difference between
// sizes is the rule's and not who the tables gathered. It gives each
// level's mean Base a game at each size over games games.
func Controlled(c Config, games int) ([]SizeRow, error) {
	var rows []SizeRow
	levels := bot.Levels()
	for _, l := range levels {
		for n := arena.MinSeats; n <= arena.MaxSeats; n++ {
			xs := make([]float64, games)
			for g := range games {
				seed := mix(c.Seed, uint64(g)<<8|uint64(n)<<4|uint64(slices.Index(levels, l)))
				seats := make([]seat, n)
				for i := range seats {
					seats[i] = seat{Level: levels[mix(seed, uint64(i)+100)%3], Style: bot.Cautious}
				}
				me := int(seed % uint64(n))
				seats[me].Level = l
				pl, err := playGame(c.Options, seats, seed, start)
				if err != nil {
					return nil, err
				}
				xs[g] = float64(arena.Base(n, pl.Places[me], pl.Shared[me]))
			}
			rows = append(rows, SizeRow{Level: l, Seats: n, Base: figure(xs), Games: games})
		}
	}
	return rows, nil
}
