package store

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/uptrace/bun"

	"bullshit/game"
)

// GameQuery picks games for a list, newest first.
type GameQuery struct {
	// Status is the games' status; "" for any.
	Status game.Status
	// Player is a seat's name, matched without regard to case (on SQLite
	// only ASCII letters fold); "" for any.
	Player string
	// Offset skips that many games; Limit takes at most that many, 0 all.
	Offset, Limit int
}

// SearchGames lists the games the query picks, each with its seats and
// results, and says whether more follow the page. It reads in a fixed number
// of queries however many games it lists, in one read-only transaction so
// the three agree. A player's games are found through the index on the
// seats' folded names (seats_name_key), the rest through the games' index
// on status and creation time.
func (s *Store) SearchGames(ctx context.Context, gq GameQuery) ([]Listed, bool, error) {
	if !storable(gq.Player) || !storable(string(gq.Status)) {
		return nil, false, nil
	}
	var (
		rows    []gameRow
		seats   []Seat
		results []Result
		more    bool
	)
	err := s.db.RunInTx(ctx, &sql.TxOptions{ReadOnly: true}, func(ctx context.Context, tx bun.Tx) error {
		const newestFirst = "g.created_at DESC, g.id DESC"
		// pageOf limits a query to the page, and one game more to learn
		// whether another page follows.
		pageOf := func(q *bun.SelectQuery) *bun.SelectQuery {
			if gq.Limit > 0 {
				q = q.Limit(int64(gq.Limit + 1))
			}
			if gq.Offset > 0 {
				q = q.Offset(int64(gq.Offset))
			}
			return q
		}
		q := tx.NewSelect().Model(&rows).OrderExpr(newestFirst)
		if gq.Player == "" {
			// The status's index is read in order, up to the page's end.
			if gq.Status != "" {
				q = q.Where("g.status = ?", gq.Status)
			}
			q = pageOf(q)
		} else {
			// A player's games are found through the seats' index, and
			// sorted by their times and ids alone: only the page's games
			// are read whole.
			named := tx.NewSelect().Table("seats").Column("game_id").Where("lower(name) = lower(?)", gq.Player)
			ids := tx.NewSelect().TableExpr("games AS g").Column("g.id").Where("g.id IN (?)", named).OrderExpr(newestFirst)
			switch {
			case gq.Status != "" && s.dialect == SQLite:
				// Left to itself SQLite walks every game of the status
				// newest first, checking each against the player's, which
				// reads them all for a player with few games. The unary
				// plus keeps it off the status's index.
				ids = ids.Where("+g.status = ?", gq.Status)
			case gq.Status != "":
				ids = ids.Where("g.status = ?", gq.Status)
			}
			q = q.Where("g.id IN (?)", pageOf(ids))
		}
		if err := q.Scan(ctx); err != nil {
			return err
		}
		if gq.Limit > 0 && len(rows) > gq.Limit {
			rows, more = rows[:gq.Limit], true
		}
		if len(rows) == 0 {
			return nil
		}
		ids := make([]string, len(rows))
		for i, r := range rows {
			ids[i] = r.ID
		}
		if err := tx.NewSelect().Model(&seats).Where("game_id IN (?)", bun.In(ids)).Order("game_id", "seat").Scan(ctx); err != nil {
			return err
		}
		return tx.NewSelect().Model(&results).Where("game_id IN (?)", bun.In(ids)).Order("game_id", "place", "seat").Scan(ctx)
	})
	if err != nil {
		return nil, false, fmt.Errorf("list games: %w", err)
	}
	seatsOf := make(map[string][]Seat, len(rows))
	for _, seat := range seats {
		seatsOf[seat.GameID] = append(seatsOf[seat.GameID], seat)
	}
	resultsOf := make(map[string][]Result, len(rows))
	for _, r := range results {
		resultsOf[r.GameID] = append(resultsOf[r.GameID], r)
	}
	out := make([]Listed, 0, len(rows))
	for i := range rows {
		g, err := rows[i].game()
		if err != nil {
			return nil, false, err
		}
		out = append(out, Listed{Game: g, Seats: seatsOf[g.ID], Results: resultsOf[g.ID]})
	}
	return out, more, nil
}
