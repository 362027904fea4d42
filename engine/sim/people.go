package sim

import (
	"math/rand/v2"

	"bullshit/engine"
	"bullshit/engine/bot"
)

// PeopleSeats are the table sizes the people panel plays at.
var PeopleSeats = []int{3, 4, 6, 8, 10}

// PeopleRow is one scripted person among bots of one level (each in a site
// style drawn at random), at one table size.
type PeopleRow struct {
	Strategy Strategy
	Level    bot.Level
	Seats    int
	// Share is the person's wins as a share of a fair share.
	Share Share
	// Minutes is a game's length on the driver's clock (a live table's).
	Minutes Estimate
	// Called is the share of all plays that were called; Turned the share
	// of the person's true plays that were called, Caught of its lies.
	Called, Turned, Caught Estimate
}

// StrongRow is one bot of a stronger level among bots of the weaker, at
// one table size: its share of a fair share.
type StrongRow struct {
	Seats                            int
	HardAmongMedium, MediumAmongEasy Share
}

// seatTally is what the finished game's log says of each seat's plays: how
// many it made, how many were true, and how many of each kind were called.
type seatTally struct {
	Played, True, TrueCalled, LiesCalled []int
}

// tallySeats reads the seats' plays from the finished game's log, which is
// public once the game is over.
func tallySeats(s *engine.State, n int) seatTally {
	t := seatTally{make([]int, n), make([]int, n), make([]int, n), make([]int, n)}
	log := s.Log(engine.Spectator)
	for i, e := range log {
		switch e.Kind {
		case engine.EventPlay:
			t.Played[e.Seat]++
		case engine.EventCalled:
			if e.Showdown.Truth {
				t.TrueCalled[e.Seat]++
			} else {
				t.LiesCalled[e.Seat]++
			}
		case engine.EventMine:
			// The player's own cards, after the play line they follow.
			if i > 0 && log[i-1].Kind == engine.EventPlay && truthful(e.Cards, *log[i-1].Rank, log[i-1].Claim) {
				t.True[e.Seat]++
			}
		}
	}
	return t
}

// truthful reports whether cards are exactly claim cards of rank.
func truthful(cards []engine.Card, rank engine.Rank, claim int) bool {
	if len(cards) != claim {
		return false
	}
	for _, c := range cards {
		if c.Rank() != rank {
			return false
		}
	}
	return true
}

// peopleCells are the panel's cells and the stronger-bot table's, in a plan.
type peopleCells struct {
	panel  [][2][]int // [strategy][level][seats index]: cell
	strong [][2]int   // [seats - MinSeats][hard among medium, medium among easy]
}

// addPeople adds the people panel's cells, games each, and the stronger-bot
// table's, to p.
func addPeople(p *plan, cfg Config, games int) peopleCells {
	var pc peopleCells
	siteBots := func(level bot.Level, seats int, rng *rand.Rand) Game {
		g := Game{Options: engine.Standard(seats), Seats: make([]Seat, seats)}
		for s := range g.Seats {
			g.Seats[s] = siteBot(level, rng)
		}
		return g
	}
	for _, st := range Strategies {
		var cells [2][]int
		for r, level := range readers {
			for _, seats := range PeopleSeats {
				p.add(cfg, games, func(i int, rng *rand.Rand) Game {
					g := siteBots(level, seats, rng)
					// The person moves round the table from game to game.
					g.Seats[i%seats] = Seat{Person: st.Name}
					return g
				})
				cells[r] = append(cells[r], len(p.cells)-1)
			}
		}
		pc.panel = append(pc.panel, cells)
	}
	for seats := engine.MinSeats; seats <= engine.MaxSeats; seats++ {
		var cells [2]int
		for k, pair := range Pairings {
			p.add(cfg, games, func(i int, rng *rand.Rand) Game {
				g := siteBots(pair[1], seats, rng)
				g.Seats[i%seats].Level = pair[0]
				return g
			})
			cells[k] = len(p.cells) - 1
		}
		pc.strong = append(pc.strong, cells)
	}
	return pc
}

// rows reads the panel's and the stronger-bot table's rows from the outcomes.
func (pc peopleCells) rows(p *plan, outs []Outcome) ([]PeopleRow, []StrongRow) {
	var people []PeopleRow
	for k, st := range Strategies {
		for r, level := range readers {
			for j, seats := range PeopleSeats {
				c := p.cells[pc.panel[k][r][j]]
				people = append(people, personRow(st.Name, level, seats, outs[c[0]:c[1]]))
			}
		}
	}
	var strong []StrongRow
	for j, cells := range pc.strong {
		seats := engine.MinSeats + j
		row := StrongRow{Seats: seats}
		for k, cell := range cells {
			c := p.cells[cell]
			share, _, _ := sneakerShare(outs[c[0]:c[1]], seats)
			if k == 0 {
				row.MediumAmongEasy = share
			} else {
				row.HardAmongMedium = share
			}
		}
		strong = append(strong, row)
	}
	return people, strong
}

func personRow(st Strategy, level bot.Level, seats int, outs []Outcome) PeopleRow {
	row := PeopleRow{Strategy: st, Level: level, Seats: seats}
	row.Share, _, _ = sneakerShare(outs, seats)
	minutes := make([]float64, len(outs))
	called := make([]float64, len(outs))
	trues, turned, plays, caught := 0, 0, 0, 0
	for i, o := range outs {
		s := i % seats
		minutes[i] = o.Length.Minutes()
		called[i] = float64(o.Calls) / float64(max(1, o.Plays))
		trues += o.Seats.True[s]
		turned += o.Seats.TrueCalled[s]
		plays += o.Seats.Played[s]
		caught += o.Seats.LiesCalled[s]
	}
	row.Minutes, row.Called = mean(minutes), mean(called)
	row.Turned = proportion(float64(turned), trues)
	row.Caught = proportion(float64(caught), plays-trues)
	return row
}

// siteBot is a bot of the level in a site style drawn from rng.
func siteBot(level bot.Level, rng *rand.Rand) Seat {
	return Seat{Level: level, Style: bot.SiteStyles()[rng.IntN(3)]}
}
