package arenasim

import (
	"cmp"
	"errors"
	"fmt"
	"slices"
	"time"

	"bullshit/arena"
	"bullshit/engine"
	"bullshit/engine/bot"
)

// Behaviour is how a simulated entrant goes about an arena.
type Behaviour string

// The behaviours the simulator compares.
const (
	// Normal takes every table it is given and plays it out.
	Normal Behaviour = "normal"
	// Biggest declines every table smaller than the arena's biggest and
	// waits again.
	Biggest Behaviour = "waits for the biggest table"
	// Leaves leaves a game it is losing (see losing) and waits again.
	Leaves Behaviour = "leaves a losing game"
	// Pauses pauses for a while after each win.
	Pauses Behaviour = "pauses after a win"
)

// Entrant is a simulated entrant: a bot's level and style for its strength,
// a rating for the pairing's order at the start, and a behaviour.
type Entrant struct {
	ID        string
	Level     bot.Level
	Style     bot.Style
	Rating    float64
	Behaviour Behaviour
}

// Config is one simulated arena.
type Config struct {
	// Rules are the arena's; End is set from Length.
	Rules  arena.Rules
	Length time.Duration
	// Options are the tables' options (Seats set for each table).
	Options  engine.Options
	Entrants []Entrant
	Seed     uint64
	// Between is how long an entrant takes from a game's end, or from
	// leaving it, to waiting again: the results' countdown.
	Between time.Duration
	// Pause is how much longer a pauser waits after a win.
	Pause time.Duration
	// Tick is how often the director pairs, besides whenever someone
	// begins to wait.
	Tick time.Duration
	// LeaverWaits is the rule that an entrant who leaves a game is not
	// paired again until that game ends.
	LeaverWaits bool
	// House is the level and style of the house bots filling seats.
	House Entrant
}

// Default is an hour's arena at 4-6 seats, no house bots, the standard
// table, a five-second countdown between games, a director pairing every
// second, and a pauser's pause of a minute.
func Default() Config {
	return Config{
		Rules:   arena.Rules{Min: 4, Max: 6, Wait: arena.DefaultWait},
		Length:  time.Hour,
		Options: engine.Standard(4),
		Between: 5 * time.Second,
		Pause:   time.Minute,
		Tick:    time.Second,
		House:   Entrant{Level: bot.Medium, Style: bot.Cautious},
	}
}

// Report is how a simulated arena went.
type Report struct {
	// Results are every entrant's results in the order they were recorded.
	Results []arena.Result
	// Standings are computed from them.
	Standings []arena.Standing
	// Games counts the games played, Seats the seats they had, Bots the
	// house bots among them.
	Games, Seats, Bots int
	// Tables are every table, in the order opened.
	Tables []Table
	// Waited is each entrant's total time waiting in the pool, and Waits
	// every wait from joining the pool to being seated, in seating order.
	Waited map[string]time.Duration
	Waits  []time.Duration
	// Points are each entrant's points as the arena counted them, game by
	// game, which the standings recompute from the results.
	Points map[string]int
}

// Table is one table a simulated arena opened.
type Table struct {
	Game        string
	Opened, End time.Time
	// Seats are the entrants' ids in seat order, "" for a house bot; Left
	// is when each left (zero: it played to the end).
	Seats []string
	Left  []time.Time
}

// start is the fixed fake time simulated arenas start at.
var start = time.Date(2026, 12, 1, 20, 0, 0, 0, time.UTC)

// event is something due at a moment: an entrant begins to wait, leaves
// its game, or a game ends.
type event struct {
	at   time.Time
	seq  int
	kind kind
	id   string
	g    *game
}

type kind int

const (
	back kind = iota
	left
	over
)

// game is a table in play.
type game struct {
	Table
	played
}

// entrant is an entrant's running state.
type entrant struct {
	Entrant
	points, streak int
	last           []string
	since          time.Time
}

// Run simulates one arena: everyone waits from the start, the director
// pairs by package arena every Tick and whenever someone begins to wait,
// each table is played out on the tables' clock, and results are recorded
// as games end (a leave when the entrant leaves). No table opens after the
// end; games in play then finish and count.
func Run(c Config) (Report, error) {
	if c.Length <= 0 || c.Tick <= 0 {
		return Report{}, errors.New("arenasim: the length and the tick must be positive")
	}
	c.Rules.End = start.Add(c.Length)
	if err := c.Rules.Check(); err != nil {
		return Report{}, err
	}
	r := runner{c: c, who: map[string]*entrant{}, rep: Report{Waited: map[string]time.Duration{}}}
	for _, e := range c.Entrants {
		if _, ok := r.who[e.ID]; ok || e.ID == "" {
			return Report{}, fmt.Errorf("arenasim: entrant %q is empty or twice", e.ID)
		}
		r.who[e.ID] = &entrant{Entrant: e}
		r.push(event{at: start, kind: back, id: e.ID})
	}
	now, tick := start, start
	for len(r.events) > 0 || now.Before(c.Rules.End) && len(r.pool) > 0 {
		// The next moment: the next event or the next tick, ticks only
		// while tables may open.
		next := time.Time{}
		if len(r.events) > 0 {
			next = r.events[0].at
		}
		paired := false
		if now.Before(c.Rules.End) && len(r.pool) > 0 && (next.IsZero() || !next.Before(tick)) {
			next, paired = tick, true
		}
		now = next
		for !tick.After(now) {
			tick = tick.Add(c.Tick)
		}
		for len(r.events) > 0 && !r.events[0].at.After(now) {
			e := r.events[0]
			r.events = r.events[1:]
			r.handle(e)
			paired = paired || e.kind == back
		}
		if paired {
			if err := r.pair(now); err != nil {
				return Report{}, err
			}
		}
	}
	r.rep.Standings = arena.Standings(r.rep.Results)
	r.rep.Points = map[string]int{}
	for id, en := range r.who {
		r.rep.Points[id] = en.points
	}
	return r.rep, nil
}

// runner is one simulated arena's state.
type runner struct {
	c      Config
	who    map[string]*entrant
	pool   []string
	events []event
	seq    int
	pairs  uint64
	rep    Report
}

// push schedules e, the events kept in order of time, then of scheduling.
func (r *runner) push(e event) {
	r.seq++
	e.seq = r.seq
	i, _ := slices.BinarySearchFunc(r.events, e, func(a, b event) int {
		if c := a.at.Compare(b.at); c != 0 {
			return c
		}
		return cmp.Compare(a.seq, b.seq)
	})
	r.events = slices.Insert(r.events, i, e)
}

// handle does what an event says.
func (r *runner) handle(e event) {
	switch e.kind {
	case back:
		en := r.who[e.id]
		en.since = e.at
		r.pool = append(r.pool, e.id)
	case left:
		r.record(e.id, e.g, e.at)
		if !r.c.LeaverWaits {
			r.push(event{at: e.at.Add(r.c.Between), kind: back, id: e.id})
		}
	case over:
		for i, id := range e.g.Seats {
			if id == "" {
				continue
			}
			en := r.who[id]
			if e.g.played.Left[i].IsZero() {
				r.record(id, e.g, e.at)
			} else if !r.c.LeaverWaits {
				continue
			}
			at := e.at.Add(r.c.Between)
			if en.Behaviour == Pauses && e.g.Places[i] == 1 && e.g.played.Left[i].IsZero() {
				at = at.Add(r.c.Pause)
			}
			r.push(event{at: at, kind: back, id: id})
		}
	}
}

// record records id's result at g, a leave if it left.
func (r *runner) record(id string, g *game, at time.Time) {
	i := slices.Index(g.Seats, id)
	res := arena.Result{Entrant: id, Game: g.Game, Seats: len(g.Seats), Place: g.Places[i], Shared: g.Shared[i],
		Left: !g.played.Left[i].IsZero(), Ended: at}
	en := r.who[id]
	var p int
	p, en.streak = arena.Score(res, en.streak)
	en.points += p
	en.last = slices.DeleteFunc(slices.Clone(g.Seats), func(s string) bool { return s == "" || s == id })
	r.rep.Results = append(r.rep.Results, res)
}

// pair pairs the pool now and opens its tables.
func (r *runner) pair(now time.Time) error {
	if len(r.pool) == 0 || !now.Before(r.c.Rules.End) {
		return nil
	}
	pool := make([]arena.Entrant, len(r.pool))
	for i, id := range r.pool {
		en := r.who[id]
		pool[i] = arena.Entrant{ID: id, Points: en.points, Rating: en.Rating, Since: en.since, Last: en.last}
	}
	r.pairs++
	p, err := arena.Pair(pool, r.c.Rules, now, mix(r.c.Seed, r.pairs))
	if err != nil {
		return err
	}
	waiting := p.Waiting
	for _, t := range p.Tables {
		seats := t.Seats
		if len(seats) < r.c.Rules.Max {
			seats, waiting = r.decline(seats, waiting, now)
			if seats == nil {
				continue
			}
		}
		if err := r.open(seats, now); err != nil {
			return err
		}
	}
	r.pool = waiting
	return nil
}

// decline takes out of a table smaller than the biggest those who wait for
// the biggest, who begin to wait again now; if too few are left, house
// bots fill it where the arena allows, or the rest wait on as they were
// (no table: seats nil).
func (r *runner) decline(seats, waiting []string, now time.Time) ([]string, []string) {
	var keep []string
	declined := false
	for _, id := range seats {
		if id != "" && r.who[id].Behaviour == Biggest {
			r.who[id].since = now
			waiting = append(waiting, id)
			declined = true
			continue
		}
		keep = append(keep, id)
	}
	if !declined {
		return seats, waiting
	}
	people := slices.ContainsFunc(keep, func(s string) bool { return s != "" })
	switch {
	case people && len(keep) >= r.c.Rules.Min:
		return keep, waiting
	case people && r.c.Rules.Bots:
		for len(keep) < r.c.Rules.Min {
			keep = append(keep, "")
		}
		return keep, waiting
	}
	for _, id := range keep {
		if id != "" {
			waiting = append(waiting, id)
		}
	}
	return nil, waiting
}

// open plays the table opened now out and schedules its end and leaves.
func (r *runner) open(ids []string, now time.Time) error {
	n := r.rep.Games
	r.rep.Games++
	seats := make([]seat, len(ids))
	for i, id := range ids {
		if id == "" {
			seats[i] = seat{Level: r.c.House.Level, Style: r.c.House.Style}
			r.rep.Bots++
			continue
		}
		en := r.who[id]
		seats[i] = seat{Level: en.Level, Style: en.Style, Leaver: en.Behaviour == Leaves}
		r.rep.Waited[id] += now.Sub(en.since)
		r.rep.Waits = append(r.rep.Waits, now.Sub(en.since))
	}
	r.rep.Seats += len(ids)
	pl, err := playGame(r.c.Options, seats, mix(r.c.Seed, uint64(n)+1<<32), now)
	if err != nil {
		return fmt.Errorf("arenasim: game %d: %w", n, err)
	}
	g := &game{Table: Table{Game: fmt.Sprintf("g%d", n), Opened: now, End: pl.End, Seats: ids, Left: pl.Left}, played: pl}
	r.rep.Tables = append(r.rep.Tables, g.Table)
	for i, id := range ids {
		if id != "" && !pl.Left[i].IsZero() {
			r.push(event{at: pl.Left[i], kind: left, id: id, g: g})
		}
	}
	r.push(event{at: pl.End, kind: over, g: g})
	return nil
}
