package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/uptrace/bun"

	"bullshit/game"
)

// CreateGame stores a new game and its seats, all or nothing. A game id
// already taken is ErrDuplicate, so the caller can draw another.
func (s *Store) CreateGame(ctx context.Context, g *Game, seats []Seat) error {
	row, err := toGameRow(g)
	if err != nil {
		return err
	}
	rows := withGameID(seats, g.ID)
	if s.dialect == Postgres && len(rows) > 0 {
		// One statement, the game's insert in a WITH: a third of the
		// round trips of a transaction of two.
		err := s.write(ctx, func(ctx context.Context, db bun.IDB) error {
			_, err := db.NewInsert().With("g", db.NewInsert().Model(&row).Returning("NULL")).
				Model(&rows).Returning("NULL").Exec(ctx)
			return err
		})
		if err != nil {
			return fmt.Errorf("create game %s: %w", g.ID, classify(err))
		}
		return nil
	}
	return s.writeTx(ctx, func(ctx context.Context, tx bun.Tx) error {
		if _, err := tx.NewInsert().Model(&row).Returning("NULL").Exec(ctx); err != nil {
			return fmt.Errorf("create game %s: %w", g.ID, classify(err))
		}
		if len(rows) == 0 {
			return nil
		}
		if _, err := tx.NewInsert().Model(&rows).Returning("NULL").Exec(ctx); err != nil {
			return fmt.Errorf("create the seats of game %s: %w", g.ID, classify(err))
		}
		return nil
	})
}

// withGameID copies seats, setting each one's game.
func withGameID(seats []Seat, id string) []Seat {
	out := make([]Seat, len(seats))
	for i, seat := range seats {
		seat.GameID = id
		out[i] = seat
	}
	return out
}

// Game reads a game and its seats, ordered by seat number. A game that does
// not exist is ErrNotFound.
func (s *Store) Game(ctx context.Context, id string) (*Game, []Seat, error) {
	if !storable(id) {
		return nil, nil, fmt.Errorf("read game %q: %w", id, ErrNotFound)
	}
	var (
		row   gameRow
		seats []Seat
	)
	// One read-only transaction, so the seats match the game. On SQLite a
	// read-only transaction begins deferred, not as a writer, so it does
	// not wait for other writers.
	err := s.db.RunInTx(ctx, &sql.TxOptions{ReadOnly: true}, func(ctx context.Context, tx bun.Tx) error {
		err := tx.NewSelect().Model(&row).Where("g.id = ?", id).Scan(ctx)
		if errors.Is(err, sql.ErrNoRows) {
			return ErrNotFound
		}
		if err != nil {
			return err
		}
		return tx.NewSelect().Model(&seats).Where("game_id = ?", id).Order("seat").Scan(ctx)
	})
	if err != nil {
		return nil, nil, fmt.Errorf("read game %s: %w", id, err)
	}
	g, err := row.game()
	if err != nil {
		return nil, nil, err
	}
	return &g, seats, nil
}

// Games lists games with the given status ("" for all), newest first, at
// most limit of them (all when limit is not positive).
func (s *Store) Games(ctx context.Context, status game.Status, limit int) ([]Game, error) {
	q := s.db.NewSelect().Model((*gameRow)(nil)).OrderExpr("g.created_at DESC, g.id DESC")
	if status != "" {
		q = q.Where("g.status = ?", status)
	}
	if limit > 0 {
		q = q.Limit(int64(limit))
	}
	return s.games(ctx, q)
}

// Unfinished lists the games being played, oldest first: those to rebuild
// after a restart.
func (s *Store) Unfinished(ctx context.Context) ([]Game, error) {
	q := s.db.NewSelect().Model((*gameRow)(nil)).Where("g.status = ?", game.StatusLive).OrderExpr("g.created_at, g.id")
	return s.games(ctx, q)
}

func (s *Store) games(ctx context.Context, q *bun.SelectQuery) ([]Game, error) {
	var rows []gameRow
	if err := q.Scan(ctx, &rows); err != nil {
		return nil, fmt.Errorf("list games: %w", err)
	}
	games := make([]Game, 0, len(rows))
	for i := range rows {
		g, err := rows[i].game()
		if err != nil {
			return nil, err
		}
		games = append(games, g)
	}
	return games, nil
}

// SaveSeat stores a seat, replacing the one with the same game and number,
// fenced on f: a game held by another owner or epoch is ErrFenced. A seat
// of a game that does not exist is ErrNotFound.
func (s *Store) SaveSeat(ctx context.Context, f Fence, seat Seat) error {
	var saved int64
	err := s.write(ctx, func(ctx context.Context, db bun.IDB) error {
		// One statement: the game's row, locked if the fence holds, is
		// what the seat's row is inserted from.
		res, err := db.NewRaw(`WITH f AS (SELECT id FROM games WHERE id = ? AND owner = ? AND epoch = ?`+s.lockShare()+`)
			INSERT INTO seats (game_id, seat, kind, name, bot_level, bot_style, token_hash, away, covered, player_id)
			SELECT f.id, ?, ?, ?, ?, ?, ?, ?, ?, ? FROM f WHERE TRUE
			ON CONFLICT (game_id, seat) DO UPDATE SET kind = EXCLUDED.kind, name = EXCLUDED.name,
				bot_level = EXCLUDED.bot_level, bot_style = EXCLUDED.bot_style, token_hash = EXCLUDED.token_hash,
				away = EXCLUDED.away, covered = EXCLUDED.covered, player_id = EXCLUDED.player_id`,
			seat.GameID, f.Owner, f.Epoch, seat.No, seat.Kind, seat.Name, seat.BotLevel, seat.BotStyle,
			nullBytes(seat.TokenHash), seat.Away, seat.Covered, nullInt(seat.PlayerID)).Exec(ctx)
		if err != nil {
			return classify(err)
		}
		if saved, err = res.RowsAffected(); err != nil || saved > 0 {
			return err
		}
		if err := fenced(ctx, db, seat.GameID, f); err != nil {
			return err
		}
		return fmt.Errorf("no row written")
	})
	if err != nil {
		return fmt.Errorf("save seat %d of game %s: %w", seat.No, seat.GameID, err)
	}
	return nil
}

// nullBytes and nullInt are a column stored NULL when empty, as the seats'
// model's nullzero columns are.
func nullBytes(b []byte) any {
	if len(b) == 0 {
		return nil
	}
	return b
}

func nullInt(n int64) any {
	if n == 0 {
		return nil
	}
	return n
}

// upsertSeats inserts seats or, for those already there, replaces every
// column but the key.
func upsertSeats(ctx context.Context, db bun.IDB, seats []Seat) error {
	_, err := db.NewInsert().Model(&seats).Returning("NULL").
		On("CONFLICT (game_id, seat) DO UPDATE").
		Set("kind = EXCLUDED.kind").
		Set("name = EXCLUDED.name").
		Set("bot_level = EXCLUDED.bot_level").
		Set("bot_style = EXCLUDED.bot_style").
		Set("token_hash = EXCLUDED.token_hash").
		Set("away = EXCLUDED.away").
		Set("covered = EXCLUDED.covered").
		Set("player_id = EXCLUDED.player_id").
		Exec(ctx)
	return classify(err)
}

// StartGame marks an open game live from at and stores the seats the start
// changed (filled with bots, or numbered afresh), in one transaction,
// fenced on f (else ErrFenced). A game that is not open is ErrNotOpen.
func (s *Store) StartGame(ctx context.Context, f Fence, id string, at time.Time, seats []Seat) error {
	start := func(ctx context.Context, db bun.IDB) error {
		res, err := db.NewUpdate().Model((*gameRow)(nil)).
			Set("status = ?", game.StatusLive).
			Set("started_at = ?", at).
			Where("id = ?", id).
			Where("status = ?", game.StatusOpen).
			Where("owner = ?", f.Owner).
			Where("epoch = ?", f.Epoch).
			Exec(ctx)
		if err != nil {
			return fmt.Errorf("start game %s: %w", id, err)
		}
		if err := changedOne(ctx, db, res, id, f, ErrNotOpen); err != nil {
			return fmt.Errorf("start game %s: %w", id, err)
		}
		return nil
	}
	if len(seats) == 0 {
		return s.write(ctx, start)
	}
	return s.writeTx(ctx, func(ctx context.Context, tx bun.Tx) error {
		if err := start(ctx, tx); err != nil {
			return err
		}
		if err := upsertSeats(ctx, tx, withGameID(seats, id)); err != nil {
			return fmt.Errorf("save the seats of game %s: %w", id, err)
		}
		return nil
	})
}

// changedOne checks that an update conditional on a game's status and
// fence f changed the game, telling a game that does not exist
// (ErrNotFound) and one held by another owner or epoch (ErrFenced) from one
// whose status refused the change (refused).
func changedOne(ctx context.Context, db bun.IDB, res sql.Result, id string, f Fence, refused error) error {
	n, err := res.RowsAffected()
	if err != nil {
		return err
	}
	if n == 1 {
		return nil
	}
	if err := fenced(ctx, db, id, f); err != nil {
		return err
	}
	return refused
}

// Actions reads a game's actions in the order they were accepted.
func (s *Store) Actions(ctx context.Context, gameID string) ([]Action, error) {
	var rows []actionRow
	if err := s.db.NewSelect().Model(&rows).Where("game_id = ?", gameID).Order("seq").Scan(ctx); err != nil {
		return nil, fmt.Errorf("read the actions of game %s: %w", gameID, err)
	}
	actions := make([]Action, 0, len(rows))
	for i := range rows {
		a, err := rows[i].action()
		if err != nil {
			return nil, err
		}
		actions = append(actions, a)
	}
	return actions, nil
}

// FinishGame marks a game over, with status "finished" or "ended", and
// stores its results, its entrants' results if it was formed in an arena
// (a finished game's only), and, when rater is not nil, its accounts' rows
// and ratings, in one transaction. A game already over is ErrOver, so a finish
// retried or replayed rates the game once. It is fenced on f (else
// ErrFenced).
func (s *Store) FinishGame(ctx context.Context, f Fence, id string, status game.Status, at time.Time, plays int, capped bool, results []Result, rater *Rater) error {
	if status != game.StatusFinished && status != game.StatusEnded {
		return fmt.Errorf("finish game %s: status %q is not %q or %q", id, status, game.StatusFinished, game.StatusEnded)
	}
	return s.writeTx(ctx, func(ctx context.Context, tx bun.Tx) error {
		res, err := tx.NewUpdate().Model((*gameRow)(nil)).
			Set("status = ?", status).
			Set("ended_at = ?", at).
			Set("plays = ?", plays).
			Set("capped = ?", capped).
			Where("id = ?", id).
			Where("status IN (?)", bun.In([]game.Status{game.StatusOpen, game.StatusLive})).
			Where("owner = ?", f.Owner).
			Where("epoch = ?", f.Epoch).
			Exec(ctx)
		if err != nil {
			return fmt.Errorf("finish game %s: %w", id, err)
		}
		if err := changedOne(ctx, tx, res, id, f, ErrOver); err != nil {
			return fmt.Errorf("finish game %s: %w", id, err)
		}
		if len(results) > 0 {
			rs := make([]Result, len(results))
			for i, r := range results {
				r.GameID = id
				rs[i] = r
			}
			if _, err := tx.NewInsert().Model(&rs).Returning("NULL").Exec(ctx); err != nil {
				return fmt.Errorf("store the results of game %s: %w", id, classify(err))
			}
			if status == game.StatusFinished {
				if err := storeArenaResults(ctx, tx, id, at); err != nil {
					return fmt.Errorf("store the arena results of game %s: %w", id, err)
				}
			}
		}
		if rater == nil {
			return nil
		}
		return writeRatings(ctx, tx, s.dialect, id, rater)
	})
}

// Results reads a game's results, best place first (seats sharing a place
// by seat number). A game without results has none, whether or not it exists.
func (s *Store) Results(ctx context.Context, id string) ([]Result, error) {
	var results []Result
	if err := s.db.NewSelect().Model(&results).Where("game_id = ?", id).Order("place", "seat").Scan(ctx); err != nil {
		return nil, fmt.Errorf("read the results of game %s: %w", id, err)
	}
	return results, nil
}
