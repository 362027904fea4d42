package store

import (
	"context"
	"fmt"
	"time"

	"github.com/uptrace/bun"
)

// Rating is an account's current rating.
type Rating struct {
	bun.BaseModel `bun:"table:ratings,alias:r"`
	PlayerID      int64   `bun:"player_id,pk"`
	Rating        float64 `bun:"rating"`
	Deviation     float64 `bun:"deviation"`
	Volatility    float64 `bun:"volatility"`
	// Games counts the rated games.
	Games int `bun:"games"`
	// RatedAt is when the last rated game ended.
	RatedAt time.Time `bun:"rated_at"`
}

// PlayerGame is one account's seat in a game that is over: its place, its
// play in numbers and, when the game was rated, its rating before and after.
type PlayerGame struct {
	bun.BaseModel `bun:"table:player_games,alias:pg"`
	GameID        string `bun:"game_id,pk"`
	Seat          int    `bun:"seat,pk"`
	PlayerID      int64  `bun:"player_id"`
	// At is when the game ended; Seats how many sat at it.
	At    time.Time `bun:"at"`
	Seats int       `bun:"seats"`
	Place int       `bun:"place"`
	Left  int       `bun:"cards_left"`
	// Calls counts its calls, Right those that caught a lie; Lies its
	// lies, Sneaks its plays with cards sneaked and Caught those called.
	Calls  int  `bun:"calls"`
	Right  int  `bun:"right_calls"`
	Lies   int  `bun:"lies"`
	Sneaks int  `bun:"sneaks"`
	Caught int  `bun:"caught"`
	Rated  bool `bun:"rated"`
	// The rating before and after; equal when the game was not rated.
	BeforeRating    float64 `bun:"before_rating"`
	BeforeDeviation float64 `bun:"before_deviation"`
	AfterRating     float64 `bun:"after_rating"`
	AfterDeviation  float64 `bun:"after_deviation"`
}

// Rater decides what a finishing game writes for its accounts: FinishGame
// reads the accounts' ratings inside its transaction and hands them to
// Rate, so two games finishing at once for one player cannot lose either's
// change.
type Rater struct {
	// Players are the accounts seated in the game.
	Players []int64
	// Rate returns a row for each account's seat and the accounts' new
	// ratings, given their ratings before the game (an account never rated
	// is missing from current).
	Rate func(current map[int64]Rating) ([]PlayerGame, []Rating, error)
}

// writeRatings reads the players' ratings, rates the game and writes the
// rows, in the finishing transaction.
func writeRatings(ctx context.Context, tx bun.Tx, dialect, id string, rater *Rater) error {
	current := make(map[int64]Rating)
	if len(rater.Players) > 0 {
		var rows []Rating
		q := tx.NewSelect().Model(&rows).Where("r.player_id IN (?)", bun.In(rater.Players))
		if dialect == Postgres {
			q = q.For("UPDATE")
		}
		if err := q.Scan(ctx); err != nil {
			return fmt.Errorf("read the ratings of game %s: %w", id, err)
		}
		for _, r := range rows {
			r.RatedAt = utc(r.RatedAt)
			current[r.PlayerID] = r
		}
	}
	games, ratings, err := rater.Rate(current)
	if err != nil {
		return fmt.Errorf("rate game %s: %w", id, err)
	}
	if len(games) > 0 {
		for i := range games {
			games[i].GameID = id
		}
		if _, err := tx.NewInsert().Model(&games).Returning("NULL").Exec(ctx); err != nil {
			return fmt.Errorf("store the players of game %s: %w", id, classify(err))
		}
	}
	if len(ratings) > 0 {
		_, err := tx.NewInsert().Model(&ratings).Returning("NULL").
			On("CONFLICT (player_id) DO UPDATE").
			Set("rating = EXCLUDED.rating").
			Set("deviation = EXCLUDED.deviation").
			Set("volatility = EXCLUDED.volatility").
			Set("games = EXCLUDED.games").
			Set("rated_at = EXCLUDED.rated_at").
			Exec(ctx)
		if err != nil {
			return fmt.Errorf("store the ratings of game %s: %w", id, classify(err))
		}
	}
	return nil
}

// Ratings reads the accounts' current ratings; an account never rated is
// missing.
func (s *Store) Ratings(ctx context.Context, players []int64) (map[int64]Rating, error) {
	out := make(map[int64]Rating)
	if len(players) == 0 {
		return out, nil
	}
	var rows []Rating
	if err := s.db.NewSelect().Model(&rows).Where("r.player_id IN (?)", bun.In(players)).Scan(ctx); err != nil {
		return nil, fmt.Errorf("read ratings: %w", err)
	}
	for _, r := range rows {
		r.RatedAt = utc(r.RatedAt)
		out[r.PlayerID] = r
	}
	return out, nil
}

// Ranked is one line of the leaderboard.
type Ranked struct {
	Rating
	Name string `bun:"name"`
	Bot  bool   `bun:"bot"`
}

// Who picks the accounts a leaderboard lists.
type Who int

// The leaderboard's filters.
const (
	Everyone Who = iota
	People       // accounts not marked as bots
	Programs     // accounts marked as bots: the rated programs
)

// LeaderboardQuery selects the leaderboard's lines.
type LeaderboardQuery struct {
	// Who: everyone, people's accounts or programs'.
	Who Who
	// MaxDeviation leaves out ratings less certain than it (the
	// provisional ones), MinDeviation those as certain as it or more (the
	// settled ones); zero keeps every rating.
	MaxDeviation float64
	MinDeviation float64
	Limit        int
	Offset       int
}

// Leaderboard lists accounts by rating, best first, in one query: it walks
// the ratings_rank index and stops at the page's end. The join is written
// as a CROSS JOIN because SQLite then keeps ratings as the outer loop;
// otherwise, filtered by accounts.bot, it scans every account and sorts
// them all (PostgreSQL plans it as any inner join).
func (s *Store) Leaderboard(ctx context.Context, q LeaderboardQuery) ([]Ranked, error) {
	var out []Ranked
	sel := s.db.NewSelect().
		TableExpr("ratings AS r").
		Join("CROSS JOIN accounts AS acc").
		Where("acc.id = r.player_id").
		ColumnExpr("r.player_id, r.rating, r.deviation, r.volatility, r.games, r.rated_at, acc.name, acc.bot").
		OrderExpr("r.rating DESC, r.player_id").
		Limit(int64(q.Limit)).Offset(int64(q.Offset))
	sel = q.filter(sel)
	if err := sel.Scan(ctx, &out); err != nil {
		return nil, fmt.Errorf("read the leaderboard: %w", err)
	}
	for i := range out {
		out[i].RatedAt = utc(out[i].RatedAt)
	}
	return out, nil
}

// filter adds the query's conditions on the account and the deviation.
func (q LeaderboardQuery) filter(sel *bun.SelectQuery) *bun.SelectQuery {
	switch q.Who {
	case People:
		sel = sel.Where("acc.bot = ?", false)
	case Programs:
		sel = sel.Where("acc.bot = ?", true)
	}
	if q.MaxDeviation > 0 {
		sel = sel.Where("r.deviation <= ?", q.MaxDeviation)
	}
	if q.MinDeviation > 0 {
		sel = sel.Where("r.deviation > ?", q.MinDeviation)
	}
	return sel
}

// LeaderboardCount counts the leaderboard's lines, Limit and Offset aside.
func (s *Store) LeaderboardCount(ctx context.Context, q LeaderboardQuery) (int, error) {
	sel := s.db.NewSelect().
		TableExpr("ratings AS r").
		Join("CROSS JOIN accounts AS acc").
		Where("acc.id = r.player_id")
	n, err := q.filter(sel).Count(ctx)
	if err != nil {
		return 0, fmt.Errorf("count the leaderboard: %w", err)
	}
	return int(n), nil
}

// PlayerGames reads an account's games, newest first; limit 0 reads all.
func (s *Store) PlayerGames(ctx context.Context, player int64, limit int) ([]PlayerGame, error) {
	var out []PlayerGame
	q := s.db.NewSelect().Model(&out).Where("pg.player_id = ?", player).Order("pg.at DESC", "pg.game_id DESC")
	if limit > 0 {
		q = q.Limit(int64(limit))
	}
	if err := q.Scan(ctx); err != nil {
		return nil, fmt.Errorf("read the games of player %d: %w", player, err)
	}
	for i := range out {
		out[i].At = utc(out[i].At)
	}
	return out, nil
}

// PlayerTotals is an account's play summed over its games.
type PlayerTotals struct {
	Games  int `bun:"games"`
	Wins   int `bun:"wins"`
	Calls  int `bun:"calls"`
	Right  int `bun:"right_calls"`
	Lies   int `bun:"lies"`
	Sneaks int `bun:"sneaks"`
	Caught int `bun:"caught"`
}

// Totals sums an account's games in one query.
func (s *Store) Totals(ctx context.Context, player int64) (PlayerTotals, error) {
	var t PlayerTotals
	err := s.db.NewSelect().TableExpr("player_games AS pg").
		ColumnExpr("COUNT(*) AS games").
		ColumnExpr("COALESCE(SUM(CASE WHEN pg.place = 1 THEN 1 ELSE 0 END), 0) AS wins").
		ColumnExpr("COALESCE(SUM(pg.calls), 0) AS calls").
		ColumnExpr("COALESCE(SUM(pg.right_calls), 0) AS right_calls").
		ColumnExpr("COALESCE(SUM(pg.lies), 0) AS lies").
		ColumnExpr("COALESCE(SUM(pg.sneaks), 0) AS sneaks").
		ColumnExpr("COALESCE(SUM(pg.caught), 0) AS caught").
		Where("pg.player_id = ?", player).
		Scan(ctx, &t)
	if err != nil {
		return PlayerTotals{}, fmt.Errorf("sum the games of player %d: %w", player, err)
	}
	return t, nil
}

// GamePlayers reads the accounts' rows of one game, by seat.
func (s *Store) GamePlayers(ctx context.Context, id string) ([]PlayerGame, error) {
	var out []PlayerGame
	if err := s.db.NewSelect().Model(&out).Where("pg.game_id = ?", id).Order("pg.seat").Scan(ctx); err != nil {
		return nil, fmt.Errorf("read the players of game %s: %w", id, err)
	}
	for i := range out {
		out[i].At = utc(out[i].At)
	}
	return out, nil
}
