package sim

import (
	"context"
	"fmt"
	"math/rand/v2"

	"bullshit/engine"
	"bullshit/engine/bot"
)

// Config sets the size of a run. Every game's seed is derived from Seed and
// the game's place in the run, so a run is the same whatever Workers is.
type Config struct {
	Seed uint64
	// Games is the number of games a cell of the length, sneak and anchor
	// tables plays; KnobGames a cell of the knob sweep (zero: Games).
	Games, KnobGames int
	// OptionGames is the number of games a cell of the playing-on table
	// plays (zero: Games).
	OptionGames int
	// PeopleGames is the number of games a cell of the people panel and
	// the stronger-bot table plays (zero: Games).
	PeopleGames int
	// PeopleOnly measures the length table, the people panel and the
	// stronger-bot table alone.
	PeopleOnly bool
	// Workers is the number of goroutines playing (zero: every core).
	Workers int
}

// Report is the simulator's measurements, the way docs/bullshit.md shows them.
type Report struct {
	Config Config
	Length []LengthRow
	Sneak  []SneakRow
	Knobs  []KnobRow
	// Shouts are the calls made together in the length table's games, at
	// ShoutSeats and up.
	Shouts []ShoutRow
	// PlayOn is the length table again with the table playing on for
	// places.
	PlayOn []PlayOnRow
	// People is the people panel: each strategy against each level at
	// each of PeopleSeats; Strong one stronger bot among weaker ones at
	// every table size.
	People []PeopleRow
	Strong []StrongRow
}

// ShoutSeats is the smallest table the shouts table measures.
const ShoutSeats = 4

// ShoutRow is how often, at one table size, a called play had a second bot
// calling it, and how soon after the first.
type ShoutRow struct {
	Seats int
	// Called counts the called plays measured.
	Called int
	// Together is the share of called plays a second bot would have called
	// too; Within the share whose second call came within each of
	// ShoutGaps.
	Together Estimate
	Within   [len(ShoutGaps)]Estimate
}

// PlayOnRow is a LengthRow of games played on for places, with how many
// plays were made by the first seat out.
type PlayOnRow struct {
	LengthRow
	FirstOut Estimate
}

// LengthRow is how long games last at one table size, and whether the leader
// can be caught, with the site's bots at standard settings.
type LengthRow struct {
	Seats int
	Games int
	// Plays is the mean plays per game; Minutes its length on the
	// driver's clock, which the live tables keep too.
	Plays, Minutes Estimate
	// LeaderLoses is how often the first seat down to LeaderCards cards does
	// not win.
	LeaderLoses Estimate
	// Called is the share of plays that were called (a game's share, averaged).
	Called Estimate
	// Capped counts the games that reached the play cap.
	Capped int
}

// Share is a seat's wins as a share of its fair share: 1 wins as often as
// a seat at that table should, 0 never.
type Share = Estimate

// SneakRow is one sneaker among honest players at one table size: its share
// against readers of each level.
type SneakRow struct {
	Style        bot.Style
	Seats        int
	Medium, Hard Share
	// Sneaks and Caught are its sneaks and caught sneaks per game, against
	// medium and hard readers.
	Sneaks, Caught [2]float64
}

// KnobRow is one penalty and sneak limit: a careful sneaker's share and an
// every-play sneaker's at four seats, against medium and hard readers.
type KnobRow struct {
	Penalty engine.Penalty
	Limit   int
	// Careful and Always are indexed by reader: 0 medium, 1 hard.
	Careful, Always [2]Share
}

// KnobSeats is the table size of the knob sweep.
const KnobSeats = 4

// Sneakers are the styles the sneak table puts among honest players.
var Sneakers = []bot.Style{bot.Careful, bot.Sometimes, bot.Always, bot.Bold, bot.Cautious}

// SneakSeats are the table sizes of the sneak table.
var SneakSeats = []int{4, 6}

// Penalties are the knob sweep's penalties, in the order it shows them.
var Penalties = []engine.Penalty{{}, {Cards: 1}, {Cards: 2}, {Cards: 1, PerCard: true}}

// PenaltyName says a penalty in words.
func PenaltyName(p engine.Penalty) string {
	switch {
	case p.Cards == 0:
		return "none"
	case p.PerCard && p.Cards == 1:
		return "a card per card sneaked"
	case p.PerCard:
		return fmt.Sprintf("%d cards per card sneaked", p.Cards)
	case p.Cards == 1:
		return "one card"
	}
	return fmt.Sprintf("%d cards", p.Cards)
}

var readers = [2]bot.Level{bot.Medium, bot.Hard}

// plan is a run's cells, each a run of games that are measured together.
type plan struct {
	games []Game
	cells [][2]int // each cell's first game and end
}

// add appends a cell of n games. Game i of every cell has the same seed (the
// same deal and the same bots' choices where nothing else differs), so the
// cells of a table differ only in what the table varies: a sneak limit of 0,
// for one, plays the very same games whatever the penalty.
func (p *plan) add(cfg Config, n int, game func(i int, rng *rand.Rand) Game) [2]int {
	id := uint64(len(p.cells))
	start := len(p.games)
	for i := range n {
		seed := mix(cfg.Seed, uint64(i)+1)
		g := game(i, rand.New(rand.NewPCG(seed, id)))
		g.Seed = seed
		p.games = append(p.games, g)
	}
	c := [2]int{start, len(p.games)}
	p.cells = append(p.cells, c)
	return c
}

// run plays the plan; progress gets the games done and the total.
func (p *plan) run(ctx context.Context, cfg Config, progress func(done, total int)) ([]Outcome, error) {
	var each func(int)
	if progress != nil {
		each = func(done int) { progress(done, len(p.games)) }
	}
	return Run(ctx, p.games, cfg.Workers, each)
}

// Measure plays the report's tables: with cfg.PeopleOnly, the length
// table, the people panel and the stronger-bot table alone.
func Measure(ctx context.Context, cfg Config, progress func(done, total int)) (*Report, error) {
	if cfg.Games <= 0 {
		return nil, fmt.Errorf("games a cell must be positive, got %d", cfg.Games)
	}
	if cfg.KnobGames <= 0 {
		cfg.KnobGames = cfg.Games
	}
	if cfg.PeopleGames <= 0 {
		cfg.PeopleGames = cfg.Games
	}
	var p plan
	var lengthCells [][2]int
	for seats := engine.MinSeats; seats <= engine.MaxSeats; seats++ {
		lengthCells = append(lengthCells, p.add(cfg, cfg.Games, func(_ int, rng *rand.Rand) Game {
			g := Game{Options: engine.Standard(seats), Seats: make([]Seat, seats)}
			for s := range g.Seats {
				g.Seats[s] = siteBot(readers[rng.IntN(2)], rng)
			}
			return g
		}))
	}
	var sneakCells [][2][2]int
	var playOnCells [][2]int
	var knobCells [][2][2][2]int // [careful, always][reader]
	if !cfg.PeopleOnly {
		sneakCells, playOnCells, knobCells = addSneaks(&p, cfg)
	}
	people := addPeople(&p, cfg, cfg.PeopleGames)

	outs, err := p.run(ctx, cfg, progress)
	if err != nil {
		return nil, err
	}
	r := &Report{Config: cfg}
	r.People, r.Strong = people.rows(&p, outs)
	for i, c := range lengthCells {
		seats := engine.MinSeats + i
		r.Length = append(r.Length, lengthRow(seats, outs[c[0]:c[1]]))
		if seats >= ShoutSeats && !cfg.PeopleOnly {
			r.Shouts = append(r.Shouts, shoutRow(seats, outs[c[0]:c[1]]))
		}
	}
	if cfg.PeopleOnly {
		return r, nil
	}
	for i, c := range playOnCells {
		games := outs[c[0]:c[1]]
		row := PlayOnRow{LengthRow: lengthRow(engine.MinSeats+i, games)}
		first := make([]float64, 0, len(games))
		for _, o := range games {
			if o.FirstOut > 0 {
				first = append(first, float64(o.FirstOut))
			}
		}
		row.FirstOut = mean(first)
		r.PlayOn = append(r.PlayOn, row)
	}
	i := 0
	for _, seats := range SneakSeats {
		for _, style := range Sneakers {
			c := sneakCells[i]
			row := SneakRow{Style: style, Seats: seats}
			row.Medium, row.Sneaks[0], row.Caught[0] = sneakerShare(outs[c[0][0]:c[0][1]], seats)
			row.Hard, row.Sneaks[1], row.Caught[1] = sneakerShare(outs[c[1][0]:c[1][1]], seats)
			r.Sneak = append(r.Sneak, row)
			i++
		}
	}
	i = 0
	for _, pen := range Penalties {
		for limit := 0; limit <= engine.MaxSneakLimit; limit++ {
			c := knobCells[i]
			row := KnobRow{Penalty: pen, Limit: limit}
			for rd := range readers {
				row.Careful[rd], _, _ = sneakerShare(outs[c[0][rd][0]:c[0][rd][1]], KnobSeats)
				row.Always[rd], _, _ = sneakerShare(outs[c[1][rd][0]:c[1][rd][1]], KnobSeats)
			}
			r.Knobs = append(r.Knobs, row)
			i++
		}
	}
	return r, nil
}

// addSneaks adds the sneak table's, the playing-on table's and the knob
// sweep's cells to p.
func addSneaks(p *plan, cfg Config) (sneakCells [][2][2]int, playOnCells [][2]int, knobCells [][2][2][2]int) {
	sneakAt := func(style bot.Style, reader bot.Level, opts engine.Options) func(int, *rand.Rand) Game {
		return func(i int, _ *rand.Rand) Game {
			g := Game{Options: opts, Seats: make([]Seat, opts.Seats)}
			for s := range g.Seats {
				g.Seats[s] = Seat{Level: reader, Style: bot.Honest}
			}
			// The sneaker moves round the table from game to game.
			g.Seats[i%opts.Seats].Style = style
			return g
		}
	}
	for _, seats := range SneakSeats {
		for _, style := range Sneakers {
			var c [2][2]int
			for r, reader := range readers {
				c[r] = p.add(cfg, cfg.Games, sneakAt(style, reader, engine.Standard(seats)))
			}
			sneakCells = append(sneakCells, c)
		}
	}
	optionGames := cfg.OptionGames
	if optionGames <= 0 {
		optionGames = cfg.Games
	}
	for seats := engine.MinSeats; seats <= engine.MaxSeats; seats++ {
		playOnCells = append(playOnCells, p.add(cfg, optionGames, func(_ int, rng *rand.Rand) Game {
			g := Game{Options: engine.Standard(seats), Seats: make([]Seat, seats)}
			g.Options.PlayOn = true
			for s := range g.Seats {
				g.Seats[s] = siteBot(readers[rng.IntN(2)], rng)
			}
			return g
		}))
	}
	for _, pen := range Penalties {
		for limit := 0; limit <= engine.MaxSneakLimit; limit++ {
			opts := engine.Standard(KnobSeats)
			opts.Penalty, opts.Sneak = pen, limit
			var c [2][2][2]int
			for k, style := range []bot.Style{bot.Careful, bot.Always} {
				for r, reader := range readers {
					c[k][r] = p.add(cfg, cfg.KnobGames, sneakAt(style, reader, opts))
				}
			}
			knobCells = append(knobCells, c)
		}
	}
	return sneakCells, playOnCells, knobCells
}

// Games is the number of games the report played.
func (r *Report) Games() int {
	n := r.Config.Games*(len(r.Length)+2*len(r.Sneak)) + 4*r.Config.KnobGames*len(r.Knobs) +
		r.Config.PeopleGames*(len(r.People)+2*len(r.Strong))
	for _, row := range r.PlayOn {
		n += row.Games
	}
	return n
}

func shoutRow(seats int, outs []Outcome) ShoutRow {
	row := ShoutRow{Seats: seats}
	together := 0
	var within [len(ShoutGaps)]int
	for _, o := range outs {
		row.Called += o.Calls
		together += o.Together
		for i := range within {
			within[i] += o.Within[i]
		}
	}
	row.Together = proportion(float64(together), row.Called)
	for i := range within {
		row.Within[i] = proportion(float64(within[i]), row.Called)
	}
	return row
}

func lengthRow(seats int, outs []Outcome) LengthRow {
	row := LengthRow{Seats: seats, Games: len(outs)}
	plays := make([]float64, len(outs))
	minutes := make([]float64, len(outs))
	called := make([]float64, len(outs))
	led, lost := 0, 0
	for i, o := range outs {
		plays[i] = float64(o.Plays)
		minutes[i] = o.Length.Minutes()
		called[i] = float64(o.Calls) / float64(max(1, o.Plays))
		if o.Capped {
			row.Capped++
		}
		if o.Leader >= 0 {
			led++
			if o.Winner != o.Leader {
				lost++
			}
		}
	}
	row.Plays = mean(plays)
	row.Minutes = mean(minutes)
	row.LeaderLoses = proportion(float64(lost), led)
	row.Called = mean(called)
	return row
}

// sneakerShare is the share of the sneaker (at seat i mod seats in game i),
// and its sneaks and caught sneaks per game.
func sneakerShare(outs []Outcome, seats int) (share Share, sneaks, caught float64) {
	wins := 0.0
	for i, o := range outs {
		s := i % seats
		wins += winShare(o, s)
		sneaks += float64(o.Sneaks[s])
		caught += float64(o.Caught[s])
	}
	n := float64(len(outs))
	return proportion(wins, len(outs)).Scale(float64(seats)), sneaks / n, caught / n
}

// winShare is the seat's part of the game's win: 1 for the winner, shared
// among seats tied first at the cap.
func winShare(o Outcome, seat int) float64 {
	if o.Places[seat] != 1 {
		return 0
	}
	tied := 0
	for _, p := range o.Places {
		if p == 1 {
			tied++
		}
	}
	return 1 / float64(tied)
}
