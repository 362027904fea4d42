package live

import (
	"slices"
	"time"

	"bullshit/engine"
	"bullshit/engine/glicko"
	"bullshit/game"
	"bullshit/store"
)

// rater is what a game that is over writes for the accounts seated in it:
// each one's place and play in numbers and, when rated, the rating change.
// Only a finished game is rated (not one the host ended, nor any practice
// table, whose creator chose the deal), and in it only an account's seat
// that no bot ever covered; the others take part as fixed sides: bots at
// their level's anchor, guests and covered seats as they stand. The places
// are the game's result: with playing on, the real order out.
func (t *table) rater(s *engine.State, at time.Time, finished bool) *store.Rater {
	if s == nil {
		return nil
	}
	if s.Options().Practice {
		// Written like a host-ended game's: each account's place and play
		// in numbers, marked unrated, its rating unchanged.
		finished = false
	}
	n := s.Seats()
	var players []int64
	for _, seat := range t.seats[:n] {
		if seat.PlayerID != 0 {
			players = append(players, seat.PlayerID)
		}
	}
	if len(players) == 0 {
		return nil
	}
	seats := t.seats[:n]
	final := s.View(engine.Spectator)
	return &store.Rater{Players: players, Rate: func(current map[int64]store.Rating) ([]store.PlayerGame, []store.Rating, error) {
		field := make([]glicko.Side, n)
		for _, row := range final.Result {
			field[row.Seat].Place = row.Place.Place
		}
		for i, seat := range seats {
			side := &field[i]
			side.Fixed = true
			switch {
			case seat.PlayerID != 0: // a bot may have taken it over: still theirs
				side.Rating = glicko.New()
				if r, ok := current[seat.PlayerID]; ok {
					side.Rating = glicko.Rating{R: r.Rating, Deviation: r.Deviation, Volatility: r.Volatility}
					side.DaysAway = int(at.Sub(r.RatedAt) / (24 * time.Hour))
				}
				side.Fixed = !finished || seat.Covered
			case seat.Kind == game.SeatBot:
				side.Rating = glicko.Anchor(glicko.AnchorsAt(n)[string(seat.BotLevel)])
			default:
				side.Rating = glicko.New() // a guest
			}
		}
		after := sidesRatings(field)
		if finished {
			var err error
			if after, err = glicko.Rate(field); err != nil {
				return nil, nil, err
			}
		}
		var games []store.PlayerGame
		var ratings []store.Rating
		for _, row := range final.Result {
			seat := seats[row.Seat]
			if seat.PlayerID == 0 {
				continue
			}
			side := field[row.Seat]
			before := side.Rating
			if !side.Fixed {
				before = before.Aged(side.DaysAway)
			}
			g := store.PlayerGame{Seat: row.Seat, PlayerID: seat.PlayerID, At: at, Seats: n,
				Place: row.Place.Place, Left: row.Left, Calls: row.Calls, Right: row.Right,
				Lies: final.Seats[row.Seat].Lies, Sneaks: row.Sneaked + row.Caught, Caught: row.Caught,
				Rated:        !side.Fixed,
				BeforeRating: before.R, BeforeDeviation: before.Deviation,
				AfterRating: after[row.Seat].R, AfterDeviation: after[row.Seat].Deviation}
			games = append(games, g)
			if side.Fixed {
				continue
			}
			ratings = append(ratings, store.Rating{PlayerID: seat.PlayerID, Rating: after[row.Seat].R,
				Deviation: after[row.Seat].Deviation, Volatility: after[row.Seat].Volatility,
				Games: current[seat.PlayerID].Games + 1, RatedAt: at})
		}
		return games, ratings, nil
	}}
}

func sidesRatings(field []glicko.Side) []glicko.Rating {
	out := make([]glicko.Rating, len(field))
	for i, s := range field {
		out[i] = s.Rating
	}
	return out
}

// ratingChanges are the accounts' rows of a game as its record and its
// result sheet show them.
func ratingChanges(rows []store.PlayerGame) []game.RatingChange {
	var out []game.RatingChange
	for _, p := range rows {
		out = append(out, game.RatingChange{Seat: p.Seat, Rated: p.Rated, Before: p.BeforeRating,
			BeforeDeviation: p.BeforeDeviation, After: p.AfterRating, AfterDeviation: p.AfterDeviation})
	}
	return out
}

// keepRatings wraps a rater so that the rows it last wrote can be read
// back through the pointer once the finish has committed. The finish runs
// on the table's goroutine, so nothing else reads or writes them meanwhile.
func (t *table) keepRatings(r *store.Rater) (*store.Rater, *[]game.RatingChange) {
	kept := new([]game.RatingChange)
	if r == nil {
		return nil, kept
	}
	rate := r.Rate
	return &store.Rater{Players: r.Players, Rate: func(current map[int64]store.Rating) ([]store.PlayerGame, []store.Rating, error) {
		games, ratings, err := rate(current)
		if err == nil {
			rows := ratingChanges(games)
			slices.SortFunc(rows, func(a, b game.RatingChange) int { return a.Seat - b.Seat })
			*kept = rows
		}
		return games, ratings, err
	}}, kept
}
