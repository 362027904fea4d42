package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"

	"github.com/uptrace/bun"
)

// A game's log is written by appends that each say which sequence number
// they expect to be next, and an append whose outcome is unknown (its
// answer lost with the connection, or timed out) is settled by reading that
// number back (Settle). Nothing else writes actions.

// The append rule: an action is appended only as the next of its game's
// log, its sequence number one past the last the game has stored, and only
// while its game is held by the owner and epoch it says (its Fence, see
// nodes.go); a batch is appended all or none. A number that is not the next
// is ErrNotNext, a fence that does not hold ErrFenced, a game missing
// ErrNotFound. PostgreSQL checks it in the statement that inserts
// (appendNext), under a lock on the games' rows; SQLite, whose one writer
// holds the whole file, checks it in Go after reading each game's last
// number and holder (appendSQLite).

// appendNext is the append rule in SQL for an action w: w.after is the last
// sequence number the caller saw stored, and f the games whose fence holds,
// locked.
const appendNext = `w.after = (SELECT coalesce(max(a.seq), 0) FROM actions AS a WHERE a.game_id = w.game_id)` +
	` AND w.game_id IN (SELECT f.id FROM f)`

// AppendAction stores an accepted action as the next of its game's log.
// A sequence number that is not the next (one already used, or past the
// end) is ErrNotNext; a game held by another owner or epoch than the
// action's Fence is ErrFenced; a game that does not exist is ErrNotFound.
func (s *Store) AppendAction(ctx context.Context, a Action) error {
	return s.AppendActions(ctx, []Action{a})
}

// AppendActions stores accepted actions, of one game or several, all or
// none, by the append rule: each game's actions must run on from the last
// one it has stored (else ErrNotNext), and its fence must hold (else
// ErrFenced). A server batches its tables' actions this way so they share
// one commit (and one sync to disk) instead of one each.
func (s *Store) AppendActions(ctx context.Context, actions []Action) error {
	if len(actions) == 0 {
		return nil
	}
	b, err := planBatch(actions)
	if err != nil {
		return err
	}
	if s.dialect == SQLite {
		err = s.appendSQLite(ctx, b)
	} else {
		err = s.appendFenced(ctx, b)
	}
	if err = classify(err); errors.Is(err, ErrDuplicate) {
		// Another append took the number at the same moment.
		err = fmt.Errorf("%w: %w", ErrNotNext, err)
	}
	switch {
	case err == nil:
		return nil
	case len(actions) == 1:
		return fmt.Errorf("store action %d of game %s: %w", actions[0].Seq, actions[0].GameID, err)
	}
	return fmt.Errorf("store %d actions: %w", len(actions), err)
}

// batch is a batch of actions as rows, with what it expects of each game.
type batch struct {
	rows []actionRow
	// games are the batch's games in the order they first come in it.
	games []string
	// first is the sequence number of each game's first action in the
	// batch, so the log must end just before it.
	first  map[string]int
	fences map[string]Fence
}

// planBatch encodes the actions and checks what the batch says of itself:
// a game's actions in it run on from one another, under one fence.
func planBatch(actions []Action) (batch, error) {
	b := batch{rows: make([]actionRow, len(actions)), first: make(map[string]int, 1), fences: make(map[string]Fence, 1)}
	last := make(map[string]int, 1)
	for i, a := range actions {
		row, err := toActionRow(a)
		if err != nil {
			return batch{}, err
		}
		if prev, ok := last[a.GameID]; ok && a.Seq != prev+1 {
			return batch{}, fmt.Errorf("store action %d of game %s after %d: %w", a.Seq, a.GameID, prev, ErrNotNext)
		}
		if f, ok := b.fences[a.GameID]; ok && f != a.Fence {
			return batch{}, fmt.Errorf("store action %d of game %s: two fences in one batch: %w", a.Seq, a.GameID, ErrFenced)
		}
		if _, ok := b.first[a.GameID]; !ok {
			b.first[a.GameID] = a.Seq
			b.games = append(b.games, a.GameID)
		}
		last[a.GameID], b.fences[a.GameID] = a.Seq, a.Fence
		b.rows[i] = row
	}
	return b, nil
}

// appendFenced appends a batch on PostgreSQL in one statement, which
// checks the append rule (appendNext) with the games' rows locked.
func (s *Store) appendFenced(ctx context.Context, b batch) error {
	var q strings.Builder
	q.WriteString("WITH v (game_id, seq, at_ns, action, after, owner, epoch) AS (VALUES ")
	args := make([]any, 0, 7*len(b.rows))
	for i, row := range b.rows {
		if i > 0 {
			q.WriteString(", ")
		}
		q.WriteString("(?, ?, ?, ?, ?, ?, ?)")
		f := b.fences[row.GameID]
		args = append(args, row.GameID, row.Seq, row.AtNS, row.Action, b.first[row.GameID]-1, f.Owner, f.Epoch)
	}
	// The games whose fence holds, locked so no claim moves them on until
	// the append has committed.
	// Driven by v, so each game is found by its key.
	q.WriteString("), f AS (SELECT g.id FROM v JOIN games AS g" +
		" ON g.id = v.game_id AND g.owner = v.owner AND g.epoch = v.epoch" + s.lockShareOf("g") + ")")
	// All or none: if any action is not the next, none is inserted.
	q.WriteString(" INSERT INTO actions (game_id, seq, at_ns, action) SELECT game_id, seq, at_ns, action FROM v" +
		" WHERE NOT EXISTS (SELECT 1 FROM v AS w WHERE NOT (" + appendNext + "))")
	return s.write(ctx, func(ctx context.Context, db bun.IDB) error {
		res, err := db.NewRaw(q.String(), args...).Exec(ctx)
		if err != nil {
			return err
		}
		if inserted, err := res.RowsAffected(); err != nil || inserted == int64(len(b.rows)) {
			return err
		}
		// Refused: by a game missing, a fence, or a number.
		for game, f := range b.fences {
			if err := fenced(ctx, db, game, f); err != nil {
				return err
			}
		}
		return ErrNotNext
	})
}

// Outcome is what Settle found at an append's sequence number.
type Outcome int8

const (
	// NotStored: nothing holds the number, so the append did not commit
	// (and, on PostgreSQL, none still running can).
	NotStored Outcome = iota
	// Stored: the number holds exactly the action appended: it committed.
	Stored
	// Taken: another action holds the number.
	Taken
)

func (o Outcome) String() string {
	return [...]string{NotStored: "not stored", Stored: "stored", Taken: "taken"}[o]
}

// Settle reads back the sequence number of an append whose outcome is
// unknown and says whether a is what holds it. With Taken it returns the
// action that does.
//
// On SQLite the committer answers a write only once its transaction has
// ended, so what the read finds is final. On PostgreSQL an append may still
// be running on the server after its client gave up (a time-out, a lost
// connection): until it ends it holds a key-share lock on its game's row
// (its foreign key's check), which locking the row for update waits out, so
// the number read is what that append left.
func (s *Store) Settle(ctx context.Context, a Action) (Outcome, Action, error) {
	want, err := toActionRow(a)
	if err != nil {
		return 0, Action{}, err
	}
	var got actionRow
	read := func(ctx context.Context, db bun.IDB) error {
		return db.NewSelect().Model(&got).Where("game_id = ?", a.GameID).Where("seq = ?", a.Seq).Scan(ctx)
	}
	if s.dialect == Postgres {
		err = s.db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
			var id string
			err := tx.NewSelect().Model((*gameRow)(nil)).Column("id").Where("id = ?", a.GameID).For("UPDATE").Scan(ctx, &id)
			if err != nil {
				return err
			}
			return read(ctx, tx)
		})
	} else {
		err = read(ctx, s.db)
	}
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return NotStored, Action{}, nil
	case err != nil:
		return 0, Action{}, fmt.Errorf("settle action %d of game %s: %w", a.Seq, a.GameID, err)
	case got == want:
		return Stored, a, nil
	}
	other, err := got.action()
	if err != nil {
		return 0, Action{}, err
	}
	return Taken, other, nil
}
