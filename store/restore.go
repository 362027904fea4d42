package store

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/uptrace/bun"

	"bullshit/engine"
	"bullshit/game"
)

// Running is a game being played as a restart reads it: the game, its seats
// and its actions, still as stored, so that the costly part, decoding the
// actions, can be done on any goroutine (Actions, Timed).
type Running struct {
	Game    Game
	Seats   []Seat
	actions []actionRow
}

// Actions decodes the game's actions, in the order they were accepted.
func (r *Running) Actions() ([]Action, error) {
	actions := make([]Action, len(r.actions))
	for i := range r.actions {
		a, err := r.actions[i].action()
		if err != nil {
			return nil, err
		}
		actions[i] = a
	}
	return actions, nil
}

// Timed decodes the game's actions as the engine replays them, in the order
// they were accepted, without the rows' copy of them a restart would only
// throw away.
func (r *Running) Timed() ([]engine.Timed, error) {
	actions := make([]engine.Timed, len(r.actions))
	for i := range r.actions {
		a, err := r.actions[i].action()
		if err != nil {
			return nil, err
		}
		actions[i] = a.Timed()
	}
	return actions, nil
}

// EachRunning calls each with every game being played (status "live"), its
// seats and its actions, for a restart to rebuild them: a few queries in
// all, not three a game. The games and their seats are read first (a few
// rows a game). The actions, most of the rows, are streamed in game order,
// split by game into parts read side by side (up to parts of them, at least
// one), and each game is handed over as soon as its last action is read, so
// only a game's actions per part are held here at a time. each is called
// from as many goroutines at once as there are parts, one game at a time
// on each, in no particular order; an error from it stops the reading and
// is returned.
func (s *Store) EachRunning(ctx context.Context, parts int, each func(Running) error) error {
	var rows []gameRow
	err := s.db.NewSelect().Model(&rows).Where("g.status = ?", game.StatusLive).OrderExpr("g.id").Scan(ctx)
	if err != nil {
		return fmt.Errorf("read the games being played: %w", err)
	}
	if len(rows) == 0 {
		return nil
	}
	games := make(map[string]*Running, len(rows))
	for i := range rows {
		g, err := rows[i].game()
		if err != nil {
			return err
		}
		games[g.ID] = &Running{Game: g}
	}
	var seats []Seat
	err = s.db.NewSelect().Model(&seats).
		Where("game_id IN (SELECT id FROM games WHERE status = ?)", game.StatusLive).
		Order("game_id", "seat").Scan(ctx)
	if err != nil {
		return fmt.Errorf("read the seats of the games being played: %w", err)
	}
	for _, seat := range seats {
		if g := games[seat.GameID]; g != nil {
			g.Seats = append(g.Seats, seat)
		}
	}

	// The parts are runs of games in the database's own order of their
	// ids (rows came back in it), so each part's range of ids holds
	// exactly its games whatever the collation.
	parts = max(1, min(parts, len(rows)))
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	errs := make([]error, parts)
	var wg sync.WaitGroup
	for p := range parts {
		first, last := rows[p*len(rows)/parts].ID, rows[(p+1)*len(rows)/parts-1].ID
		wg.Go(func() {
			owned := make(map[string]*Running, len(rows)/parts+1)
			for i := p * len(rows) / parts; i < (p+1)*len(rows)/parts; i++ {
				owned[rows[i].ID] = games[rows[i].ID]
			}
			if errs[p] = s.eachRunningPart(ctx, first, last, owned, each); errs[p] != nil {
				cancel()
			}
		})
	}
	wg.Wait()
	return errors.Join(errs...)
}

// eachRunningPart streams the actions of the games with ids from first to
// last, which are those of games, handing each game to each as it is
// complete, then the games with no action yet.
func (s *Store) eachRunningPart(ctx context.Context, first, last string, games map[string]*Running, each func(Running) error) error {
	q, err := s.db.NewSelect().ColumnExpr("a.game_id, a.seq, a.at_ns, a.action").TableExpr("actions AS a").
		Where("a.game_id IN (SELECT id FROM games WHERE status = ? AND id >= ? AND id <= ?)", game.StatusLive, first, last).
		OrderExpr("a.game_id, a.seq").Rows(ctx)
	if err != nil {
		return fmt.Errorf("read the actions of the games being played: %w", err)
	}
	defer q.Close()
	var cur *Running
	hand := func() error {
		if cur == nil {
			return nil
		}
		g := cur
		cur = nil
		delete(games, g.Game.ID)
		return each(*g)
	}
	for q.Next() {
		var r actionRow
		if err := q.Scan(&r.GameID, &r.Seq, &r.AtNS, &r.Action); err != nil {
			return fmt.Errorf("read the actions of the games being played: %w", err)
		}
		if cur == nil || cur.Game.ID != r.GameID {
			if err := hand(); err != nil {
				return err
			}
			// An action of a game not live when the games were read
			// (none moves while the server starts) is left out.
			cur = games[r.GameID]
			if cur == nil {
				continue
			}
		}
		cur.actions = append(cur.actions, r)
	}
	if err := q.Err(); err != nil {
		return fmt.Errorf("read the actions of the games being played: %w", err)
	}
	if err := hand(); err != nil {
		return err
	}
	for _, g := range games {
		if err := each(*g); err != nil {
			return err
		}
	}
	return nil
}

// ReadGames reads the games ids, each with its seats and its actions, in
// three queries whatever their number, for a server taking them over (a
// claim). Games that don't exist are left out; the rest come in ids' order.
func (s *Store) ReadGames(ctx context.Context, ids []string) ([]Running, error) {
	if len(ids) == 0 {
		return nil, nil
	}
	var rows []gameRow
	if err := s.db.NewSelect().Model(&rows).Where("g.id IN (?)", bun.In(ids)).Scan(ctx); err != nil {
		return nil, fmt.Errorf("read %d games: %w", len(ids), err)
	}
	games := make(map[string]*Running, len(rows))
	for i := range rows {
		g, err := rows[i].game()
		if err != nil {
			return nil, err
		}
		games[g.ID] = &Running{Game: g}
	}
	var seats []Seat
	if err := s.db.NewSelect().Model(&seats).Where("game_id IN (?)", bun.In(ids)).Order("game_id", "seat").Scan(ctx); err != nil {
		return nil, fmt.Errorf("read the seats of %d games: %w", len(ids), err)
	}
	for _, seat := range seats {
		if g := games[seat.GameID]; g != nil {
			g.Seats = append(g.Seats, seat)
		}
	}
	var actions []actionRow
	if err := s.db.NewSelect().Model(&actions).Where("game_id IN (?)", bun.In(ids)).Order("game_id", "seq").Scan(ctx); err != nil {
		return nil, fmt.Errorf("read the actions of %d games: %w", len(ids), err)
	}
	for _, a := range actions {
		if g := games[a.GameID]; g != nil {
			g.actions = append(g.actions, a)
		}
	}
	out := make([]Running, 0, len(games))
	for _, id := range ids {
		if g := games[id]; g != nil {
			out = append(out, *g)
		}
	}
	return out, nil
}
