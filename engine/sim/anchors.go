package sim

import (
	"context"
	"fmt"
	"math/rand/v2"

	"bullshit/engine"
	"bullshit/engine/bot"
)

// AnchorSeats are the table sizes the level pairings are measured at.
var AnchorSeats = []int{3, 4, 6, 8, 10}

// Pairings are the level pairings the anchors measure, stronger first.
var Pairings = [][2]bot.Level{{bot.Medium, bot.Easy}, {bot.Hard, bot.Medium}}

// AnchorRow is one level pairing at one table size. Half its games put one
// bot of the stronger level among the weaker, half one of the weaker among
// the stronger, with the seats turning from game to game and every bot in a
// site style drawn at random. Score is the stronger level's share of its meetings with
// the weaker (each pair of seats in a game is a meeting, won by the one
// with fewer cards left, ties halved), which is what a rating reads;
// Elo is the gap that score implies.
type AnchorRow struct {
	Strong, Weak bot.Level
	Seats, Games int
	Score, Elo   Estimate
	// Lineups are the two line-ups' win shares per bot.
	Lineups [2]Lineup
}

// Lineup is how often each bot of one line-up won its games: with one
// stronger bot among the weaker, or the other way round.
type Lineup struct {
	Strong, Weak int
	// StrongWins and WeakWins are one bot's chance of winning a game.
	StrongWins, WeakWins Estimate
}

// Anchors plays the level pairings.
func Anchors(ctx context.Context, cfg Config, progress func(done, total int)) ([]AnchorRow, error) {
	if cfg.Games <= 0 {
		return nil, fmt.Errorf("games a pairing must be positive, got %d", cfg.Games)
	}
	var p plan
	cfg.Seed = mix(cfg.Seed, 0xa5c)
	for _, pair := range Pairings {
		for _, n := range AnchorSeats {
			p.add(cfg, cfg.Games, func(i int, rng *rand.Rand) Game {
				strong := 1
				if i%2 == 1 {
					strong = n - 1
				}
				g := Game{Options: engine.Standard(n), Seats: make([]Seat, n)}
				// First come, as the anchors were first measured: at three
				// seats the bots' listening speeds all differ, so no two
				// calls ever tie and a grace changes no call there.
				g.Options.Grace = 0
				for s := range g.Seats {
					level := pair[1]
					// Seats turn with the game: the stronger sit from i/2 on.
					if (s-i/2%n+n)%n < strong {
						level = pair[0]
					}
					g.Seats[s] = siteBot(level, rng)
				}
				return g
			})
		}
	}
	outs, err := p.run(ctx, cfg, progress)
	if err != nil {
		return nil, err
	}
	var rows []AnchorRow
	for k, pair := range Pairings {
		for j, n := range AnchorSeats {
			c := p.cells[k*len(AnchorSeats)+j]
			rows = append(rows, anchorRow(pair, n, p.games[c[0]:c[1]], outs[c[0]:c[1]]))
		}
	}
	return rows, nil
}

func anchorRow(pair [2]bot.Level, seats int, games []Game, outs []Outcome) AnchorRow {
	row := AnchorRow{Strong: pair[0], Weak: pair[1], Seats: seats, Games: len(games)}
	scores := make([]float64, len(games))
	var wins [2][2]float64 // [line-up][strong, weak]: wins
	var bots [2][2]int     // [line-up][strong, weak]: bot-games
	for i, g := range games {
		o := outs[i]
		var score float64
		meetings := 0
		for a := range g.Seats {
			for b := range g.Seats {
				if g.Seats[a].Level != pair[0] || g.Seats[b].Level != pair[1] {
					continue
				}
				meetings++
				switch {
				case o.Places[a] < o.Places[b]:
					score++
				case o.Places[a] == o.Places[b]:
					score += 0.5
				}
			}
		}
		scores[i] = score / float64(meetings)
		lineup := i % 2
		for s, seat := range g.Seats {
			side := 1
			if seat.Level == pair[0] {
				side = 0
			}
			bots[lineup][side]++
			wins[lineup][side] += winShare(o, s)
		}
	}
	row.Score = mean(scores)
	row.Elo = elo(row.Score)
	for l := range 2 {
		strong := 1 + l*(seats-2)
		row.Lineups[l] = Lineup{Strong: strong, Weak: seats - strong,
			StrongWins: proportion(wins[l][0], bots[l][0]), WeakWins: proportion(wins[l][1], bots[l][1])}
	}
	return row
}
