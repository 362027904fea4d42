package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"math/bits"
	"strings"

	"github.com/uptrace/bun"
)

// SQLite appends a batch in a few prepared statements rather than the one
// PostgreSQL takes: one query reads the last sequence number and holder of
// each of the batch's games, the append rule is checked in Go, and the rows
// go in by multi-row inserts. One statement of a thousand rows would be
// parsed and planned afresh every batch, and it would look up each row's
// game and its last number again for every row. The write lock SQLite's
// one writer holds stands in for PostgreSQL's row locks: no claim can move
// a game on between the read and the inserts.

// maxInsertRows is the most rows one insert statement carries. A batch goes
// in by chunks of powers of two up to it, so a few statements, each
// prepared once per connection, insert any number of rows.
const maxInsertRows = 64

// insertSizes is how many insert statements there are: one for each power
// of two up to maxInsertRows.
var insertSizes = bits.Len(maxInsertRows)

// sqliteAppend holds the statements of SQLite's appends, prepared once and
// re-prepared by database/sql on each connection that first runs them.
type sqliteAppend struct {
	// heads reads, for a JSON array of game ids, each existing game's id,
	// owner, epoch and last sequence number (0 with none).
	heads *sql.Stmt
	// inserts[k] inserts 1<<k rows.
	inserts []*sql.Stmt
}

const sqliteHeads = `SELECT g.id, g.owner, g.epoch,` +
	` coalesce((SELECT a.seq FROM actions AS a WHERE a.game_id = g.id ORDER BY a.seq DESC LIMIT 1), 0)` +
	` FROM json_each(?) AS j JOIN games AS g ON g.id = j.value`

func prepareSQLiteAppend(ctx context.Context, db *sql.DB) (*sqliteAppend, error) {
	p := &sqliteAppend{}
	var err error
	if p.heads, err = db.PrepareContext(ctx, sqliteHeads); err != nil {
		p.close()
		return nil, fmt.Errorf("prepare the appends' look-up: %w", err)
	}
	for k := range insertSizes {
		st, err := db.PrepareContext(ctx, insertRows(1<<k))
		if err != nil {
			p.close()
			return nil, fmt.Errorf("prepare an insert of %d actions: %w", 1<<k, err)
		}
		p.inserts = append(p.inserts, st)
	}
	return p, nil
}

func (p *sqliteAppend) close() {
	if p.heads != nil {
		p.heads.Close()
	}
	for _, st := range p.inserts {
		st.Close()
	}
}

// insertRows is an insert of n actions' rows.
func insertRows(n int) string {
	var q strings.Builder
	q.WriteString("INSERT INTO actions (game_id, seq, at_ns, action) VALUES ")
	for i := range n {
		if i > 0 {
			q.WriteString(", ")
		}
		q.WriteString("(?, ?, ?, ?)")
	}
	return q.String()
}

// appendSQLite appends a batch on SQLite by the append rule, all or none.
func (s *Store) appendSQLite(ctx context.Context, b batch) error {
	for _, id := range b.games {
		// No stored game has such an id (see storable), and the look-up's
		// JSON would carry another string than it.
		if !storable(id) {
			return ErrNotFound
		}
	}
	ids, err := json.Marshal(b.games)
	if err != nil {
		return err
	}
	return s.write(ctx, func(ctx context.Context, db bun.IDB) error {
		tx, ok := db.(bun.Tx)
		if !ok {
			return errors.New("store: a SQLite append outside the committer's transaction")
		}
		if err := s.checkHeads(ctx, tx.Tx, b, ids); err != nil {
			return err
		}
		return s.insertBatch(ctx, tx.Tx, b.rows)
	})
}

// checkHeads reads the batch's games' last numbers and holders and checks
// the append rule: a game missing or fenced says so before any number does.
func (s *Store) checkHeads(ctx context.Context, tx *sql.Tx, b batch, ids []byte) error {
	rows, err := tx.StmtContext(ctx, s.sqliteAppend.heads).QueryContext(ctx, ids)
	if err != nil {
		return err
	}
	defer rows.Close()
	found, notNext := 0, ""
	for rows.Next() {
		var id, owner string
		var epoch int64
		var last int
		if err := rows.Scan(&id, &owner, &epoch, &last); err != nil {
			return err
		}
		f, ok := b.fences[id]
		if !ok {
			// An id that matched by the database's comparison but is not
			// one of the batch's (none should).
			return fmt.Errorf("store: the appends' look-up found game %q, not asked for", id)
		}
		found++
		if owner != f.Owner || epoch != f.Epoch {
			return fmt.Errorf("%w (held by %q at epoch %d, not %q at %d)", ErrFenced, owner, epoch, f.Owner, f.Epoch)
		}
		if first := b.first[id]; last != first-1 && notNext == "" {
			notNext = fmt.Sprintf("game %s has stored %d, the batch starts at %d", id, last, first)
		}
	}
	if err := rows.Err(); err != nil {
		return err
	}
	switch {
	case found < len(b.games):
		return ErrNotFound
	case notNext != "":
		return fmt.Errorf("%w (%s)", ErrNotNext, notNext)
	}
	return nil
}

// insertBatch inserts the rows in chunks of powers of two, the largest
// first.
func (s *Store) insertBatch(ctx context.Context, tx *sql.Tx, rows []actionRow) error {
	args := make([]any, 0, 4*maxInsertRows)
	for k := insertSizes - 1; k >= 0 && len(rows) > 0; k-- {
		n := 1 << k
		if len(rows) < n {
			continue
		}
		st := tx.StmtContext(ctx, s.sqliteAppend.inserts[k])
		for ; len(rows) >= n; rows = rows[n:] {
			args = args[:0]
			for _, r := range rows[:n] {
				args = append(args, r.GameID, r.Seq, r.AtNS, r.Action)
			}
			if _, err := st.ExecContext(ctx, args...); err != nil {
				return err
			}
		}
	}
	return nil
}
