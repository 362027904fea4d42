package sim

import (
	"context"
	"fmt"
	"math/rand/v2"

	"bullshit/engine"
	"bullshit/engine/bot"
)

// AnchorSeats is the table size the level pairings are measured at.
const AnchorSeats = 3

// Pairings are the level pairings the anchors measure, stronger first.
var Pairings = [][2]bot.Level{{bot.Medium, bot.Easy}, {bot.Hard, bot.Medium}}

// AnchorRow is one level pairing at three seats. Half its games put one
// bot of the stronger level among two of the weaker, half two among one,
// with the seats turning from game to game and every bot in a site style
// drawn at random. Score is the stronger level's share of its meetings with
// the weaker (each pair of seats in a game is a meeting, won by the one
// with fewer cards left, ties halved), which is what a rating reads;
// Elo is the gap that score implies.
type AnchorRow struct {
	Strong, Weak bot.Level
	Games        int
	Score, Elo   Estimate
	// Lineups are the two line-ups' win shares per bot.
	Lineups [2]Lineup
}

// Lineup is how often each bot of one line-up won its games: with one
// stronger bot and two weaker, or two and one. A fair share is a third.
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
		p.add(cfg, cfg.Games, func(i int, rng *rand.Rand) Game {
			strong := 1 + i%2
			g := Game{Options: engine.Standard(AnchorSeats), Seats: make([]Seat, AnchorSeats)}
			// First come, as the anchors were measured: at three seats the
			// bots' listening speeds all differ, so no two calls ever tie
			// and a grace changes no call; it would only shift the bots'
			// random draws (a call held open for the grace is one more
			// change of the table) and so deal them other games.
			g.Options.Grace = 0
			for s := range g.Seats {
				level := pair[1]
				// Seats turn with the game: the stronger sit at i, (i+1).
				if (s-i/2%AnchorSeats+AnchorSeats)%AnchorSeats < strong {
					level = pair[0]
				}
				g.Seats[s] = siteBot(level, rng)
			}
			return g
		})
	}
	outs, err := p.run(ctx, cfg, progress)
	if err != nil {
		return nil, err
	}
	var rows []AnchorRow
	for k, pair := range Pairings {
		c := p.cells[k]
		rows = append(rows, anchorRow(pair, p.games[c[0]:c[1]], outs[c[0]:c[1]]))
	}
	return rows, nil
}

func anchorRow(pair [2]bot.Level, games []Game, outs []Outcome) AnchorRow {
	row := AnchorRow{Strong: pair[0], Weak: pair[1], Games: len(games)}
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
		row.Lineups[l] = Lineup{Strong: l + 1, Weak: AnchorSeats - l - 1,
			StrongWins: proportion(wins[l][0], bots[l][0]), WeakWins: proportion(wins[l][1], bots[l][1])}
	}
	return row
}
