package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/uptrace/bun"
)

// EntryState is where an entrant is in an arena. An entry is never
// deleted: one that left stays, so the arena's history shows it.
type EntryState string

// The states of an entry.
const (
	EntryActive EntryState = "active" // paired whenever waiting
	EntryPaused EntryState = "paused" // not paired until they come back
	EntryLeft   EntryState = "left"   // gone; joining again makes it active
)

// ArenaEntry is an account's entry in an arena.
type ArenaEntry struct {
	bun.BaseModel `bun:"table:arena_entries,alias:ae"`
	ArenaID       int64      `bun:"arena_id,pk"`
	PlayerID      int64      `bun:"player_id,pk"`
	State         EntryState `bun:"state"`
	// JoinedAt is the first join; ChangedAt the last change of state.
	JoinedAt  time.Time `bun:"joined_at"`
	ChangedAt time.Time `bun:"changed_at"`
	// Name and Bot are the account's, read by ArenaEntries only.
	Name string `bun:"name,scanonly"`
	Bot  bool   `bun:"bot,scanonly"`
}

func (e *ArenaEntry) utc() { e.JoinedAt, e.ChangedAt = utc(e.JoinedAt), utc(e.ChangedAt) }

// JoinArena enters an account in an arena at at, or makes its entry active
// again (a pause or a leave undone), keeping its first join's time. It
// returns the entry and whether it changed: joining an active entry again
// changes nothing. An arena ended by at or closed is ErrArenaOver; one with
// MaxEntrants entries not left is ErrArenaFull; an arena or account that
// does not exist is ErrNotFound. Kinds and ratings are the caller's to
// check.
func (s *Store) JoinArena(ctx context.Context, arena, player int64, at time.Time) (ArenaEntry, bool, error) {
	var (
		entry   ArenaEntry
		changed bool
	)
	err := s.writeTx(ctx, func(ctx context.Context, tx bun.Tx) error {
		entry, changed = ArenaEntry{}, false
		// The arena's row is locked so that joins racing for its last
		// places are counted one after the other (SQLite has one writer);
		// FOR NO KEY UPDATE, as a director's tables lock it (holdArena).
		var row arenaRow
		lock := ""
		if s.dialect == Postgres {
			lock = " FOR NO KEY UPDATE"
		}
		err := tx.NewRaw(`SELECT id, ends_at, done_at, max_entrants FROM arenas WHERE id = ?`+lock, arena).Scan(ctx, &row)
		if errors.Is(err, sql.ErrNoRows) {
			return ErrNotFound
		}
		if err != nil {
			return err
		}
		if !at.Before(row.EndsAt) || !row.DoneAt.IsZero() {
			return ErrArenaOver
		}
		err = tx.NewSelect().Model(&entry).Where("arena_id = ?", arena).Where("player_id = ?", player).Scan(ctx)
		found := err == nil
		if err != nil && !errors.Is(err, sql.ErrNoRows) {
			return err
		}
		if found && entry.State != EntryLeft {
			if entry.State == EntryActive {
				return nil
			}
			// A pause ended: the entry holds its place already.
			changed = true
			return setEntry(ctx, tx, &entry, EntryActive, at)
		}
		if row.MaxEntrants > 0 {
			n, err := tx.NewSelect().Model((*ArenaEntry)(nil)).
				Where("arena_id = ?", arena).Where("state <> ?", EntryLeft).Count(ctx)
			if err != nil {
				return err
			}
			if n >= int64(row.MaxEntrants) {
				return ErrArenaFull
			}
		}
		changed = true
		if found {
			return setEntry(ctx, tx, &entry, EntryActive, at)
		}
		entry = ArenaEntry{ArenaID: arena, PlayerID: player, State: EntryActive, JoinedAt: at, ChangedAt: at}
		_, err = tx.NewInsert().Model(&entry).Returning("NULL").Exec(ctx)
		return classify(err)
	})
	if err != nil {
		return ArenaEntry{}, false, fmt.Errorf("enter account %d in arena %d: %w", player, arena, err)
	}
	entry.utc()
	return entry, changed, nil
}

// setEntry changes a read entry's state in its transaction.
func setEntry(ctx context.Context, tx bun.Tx, e *ArenaEntry, state EntryState, at time.Time) error {
	e.State, e.ChangedAt = state, at
	_, err := tx.NewUpdate().Model(e).Column("state", "changed_at").WherePK().Exec(ctx)
	return err
}

// PauseEntry pauses an active entry at at. It reports whether it changed:
// pausing a paused entry changes nothing.
func (s *Store) PauseEntry(ctx context.Context, arena, player int64, at time.Time) (bool, error) {
	return s.setEntryState(ctx, arena, player, EntryPaused, at, EntryActive)
}

// ResumeEntry makes a paused entry active again at at: the entrant came
// back. It reports whether it changed.
func (s *Store) ResumeEntry(ctx context.Context, arena, player int64, at time.Time) (bool, error) {
	return s.setEntryState(ctx, arena, player, EntryActive, at, EntryPaused)
}

// LeaveArena marks an entry left at at; it stays stored. It reports whether
// it changed.
func (s *Store) LeaveArena(ctx context.Context, arena, player int64, at time.Time) (bool, error) {
	return s.setEntryState(ctx, arena, player, EntryLeft, at, EntryActive, EntryPaused)
}

// setEntryState moves an entry from one of the states from to state, in
// one statement conditional on the arena not being over at at. Refused, it
// says why: no entry (ErrNotFound), the arena over (ErrArenaOver), the
// entry already in state (no change, no error), or left (ErrEntryLeft).
func (s *Store) setEntryState(ctx context.Context, arena, player int64, state EntryState, at time.Time, from ...EntryState) (bool, error) {
	var n int64
	err := s.write(ctx, func(ctx context.Context, db bun.IDB) error {
		res, err := db.NewUpdate().Model((*ArenaEntry)(nil)).
			Set("state = ?", state).Set("changed_at = ?", at).
			Where("arena_id = ?", arena).Where("player_id = ?", player).
			Where("state IN (?)", bun.In(from)).
			Where("EXISTS (SELECT 1 FROM arenas WHERE id = ? AND ends_at > ? AND done_at IS NULL)", arena, at).
			Exec(ctx)
		if err != nil {
			return err
		}
		n, err = res.RowsAffected()
		return err
	})
	what := fmt.Sprintf("mark account %d %s in arena %d", player, state, arena)
	if err != nil {
		return false, fmt.Errorf("%s: %w", what, err)
	}
	if n == 1 {
		return true, nil
	}
	var e ArenaEntry
	if err := s.db.NewSelect().Model(&e).Where("arena_id = ?", arena).Where("player_id = ?", player).Scan(ctx); err != nil {
		if errors.Is(err, sql.ErrNoRows) {
			err = ErrNotFound
		}
		return false, fmt.Errorf("%s: %w", what, err)
	}
	a, err := s.Arena(ctx, arena)
	if err != nil {
		return false, fmt.Errorf("%s: %w", what, err)
	}
	switch {
	case !at.Before(a.EndsAt) || !a.DoneAt.IsZero():
		return false, fmt.Errorf("%s: %w", what, ErrArenaOver)
	case e.State == state:
		return false, nil
	}
	return false, fmt.Errorf("%s: %w", what, ErrEntryLeft)
}

// ArenaEntries lists an arena's entries, in every state, with their
// accounts' names, in the order they joined.
func (s *Store) ArenaEntries(ctx context.Context, arena int64) ([]ArenaEntry, error) {
	var out []ArenaEntry
	err := s.db.NewSelect().Model(&out).
		ColumnExpr("ae.*, acc.name, acc.bot").
		Join("JOIN accounts AS acc ON acc.id = ae.player_id").
		Where("ae.arena_id = ?", arena).
		OrderExpr("ae.joined_at, ae.player_id").Scan(ctx)
	if err != nil {
		return nil, fmt.Errorf("list the entries of arena %d: %w", arena, err)
	}
	for i := range out {
		out[i].utc()
	}
	return out, nil
}

// EnteredArena is one of an account's arenas with its entry.
type EnteredArena struct {
	Arena Arena
	Entry ArenaEntry
}

// AccountArenas lists a page of the arenas an account entered, the latest
// joined first, in two queries: the page of entries off the
// arena_entries_player index, then their arenas.
func (s *Store) AccountArenas(ctx context.Context, player int64, limit, offset int) ([]EnteredArena, error) {
	var entries []ArenaEntry
	q := s.db.NewSelect().Model(&entries).Where("ae.player_id = ?", player).
		OrderExpr("ae.joined_at DESC, ae.arena_id DESC")
	if limit > 0 {
		q = q.Limit(int64(limit))
	}
	if offset > 0 {
		q = q.Offset(int64(offset))
	}
	if err := q.Scan(ctx); err != nil {
		return nil, fmt.Errorf("list the arenas of account %d: %w", player, err)
	}
	if len(entries) == 0 {
		return nil, nil
	}
	ids := make([]int64, len(entries))
	for i, e := range entries {
		ids[i] = e.ArenaID
	}
	arenas, err := s.arenas(ctx, s.db.NewSelect().Model((*arenaRow)(nil)).Where("ar.id IN (?)", bun.In(ids)))
	if err != nil {
		return nil, fmt.Errorf("list the arenas of account %d: %w", player, err)
	}
	byID := make(map[int64]Arena, len(arenas))
	for _, a := range arenas {
		byID[a.ID] = a
	}
	out := make([]EnteredArena, len(entries))
	for i, e := range entries {
		e.utc()
		out[i] = EnteredArena{Arena: byID[e.ArenaID], Entry: e}
	}
	return out, nil
}
