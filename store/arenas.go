package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/uptrace/bun"

	"bullshit/engine"
)

// An arena is a timed event whose entrants are seated at table after table
// (see issue 27). The store keeps what must survive a crash and read the
// same on every node: the arena, its entries in whatever state they are,
// and the link of each game formed in it, written in the transaction that
// creates the game. Points and standings are not stored: they are computed
// from the linked games' results (ArenaResults).
//
// One node at a time directs an arena (pairs its waiting entrants): the
// arena has an owner and an epoch as a game has, taken over through the
// same node leases (ClaimArenas, ReclaimArenas), and the director's writes
// are fenced on them (CreateArenaGame, CloseArena).

// Entrants says who may enter an arena.
type Entrants string

// The kinds of entrant.
const (
	EntrantsPeople   Entrants = "people"   // accounts not marked as bots
	EntrantsPrograms Entrants = "programs" // accounts marked as bots
	EntrantsBoth     Entrants = "both"
)

// Errors of arenas; match them with errors.Is.
var (
	// ErrArenaScheduled is an arena created with a schedule key another
	// arena has: the house schedule's arena of that slot exists already.
	// It is also ErrDuplicate.
	ErrArenaScheduled = errors.New("an arena of that schedule key is already stored")
	// ErrArenaOver is a change asked of an arena that has ended or is done.
	ErrArenaOver = errors.New("the arena is over")
	// ErrArenaFull is a join of an arena with as many entrants as it takes.
	ErrArenaFull = errors.New("the arena is full")
	// ErrEntryLeft is a pause or a return of an entrant who left.
	ErrEntryLeft = errors.New("the entrant has left the arena")
	// ErrArenaBusy is a table formed with an entrant already seated at
	// another of the arena's tables still in play.
	ErrArenaBusy = errors.New("an entrant is already at a table of the arena")
)

// Arena is an arena's settings and who directs it.
type Arena struct {
	// ID is set by CreateArena.
	ID   int64
	Name string
	// CreatedBy is the account that created it; 0 for the house schedule's.
	CreatedBy int64
	CreatedAt time.Time
	// Tables are formed from StartsAt until EndsAt; those in play at the
	// end finish and count.
	StartsAt time.Time
	EndsAt   time.Time
	// MinSeats and MaxSeats bound a table's size.
	MinSeats int
	MaxSeats int
	// Options are the tables' options as a game keeps them, Options.Seats
	// aside (each table has its own size); Options.Rules must be set.
	Options   engine.Options
	AwayAfter time.Duration
	Rated     bool
	Entrants  Entrants
	// RatingFloor and RatingCeiling bound an entrant's rating; 0 for none.
	RatingFloor   float64
	RatingCeiling float64
	// HouseBots lets bots fill a table's seats (they never score).
	HouseBots bool
	// MaxEntrants bounds the entries not left; 0 for no bound.
	MaxEntrants int
	// ScheduleKey names the house schedule's slot ("hourly 2026-12-07
	// 18:00"), unique among arenas; "" for an account's arena.
	ScheduleKey string
	// Owner and Epoch are the directing node and how many times the arena
	// changed hands (see nodes.go); "" and 0 on one server.
	Owner string
	Epoch int64
	// DoneAt is when its director closed it (CloseArena): its last game
	// over, its standings final. Zero until then.
	DoneAt time.Time
}

// Fence is the fence of the arena's director.
func (a *Arena) Fence() Fence { return Fence{Owner: a.Owner, Epoch: a.Epoch} }

// arenaRow is an Arena as stored: the options as a game's are, the away
// time in milliseconds, and the optional columns NULL when unset.
type arenaRow struct {
	bun.BaseModel `bun:"table:arenas,alias:ar"`
	ID            int64     `bun:"id,pk,autoincrement"`
	Name          string    `bun:"name"`
	CreatedBy     int64     `bun:"created_by,nullzero"`
	CreatedAt     time.Time `bun:"created_at"`
	StartsAt      time.Time `bun:"starts_at"`
	EndsAt        time.Time `bun:"ends_at"`
	MinSeats      int       `bun:"min_seats"`
	MaxSeats      int       `bun:"max_seats"`
	Options       string    `bun:"options"`
	Rules         int       `bun:"rules"`
	AwayAfterMS   int64     `bun:"away_after_ms"`
	Rated         bool      `bun:"rated"`
	Entrants      string    `bun:"entrants"`
	RatingFloor   float64   `bun:"rating_floor,nullzero"`
	RatingCeiling float64   `bun:"rating_ceiling,nullzero"`
	HouseBots     bool      `bun:"house_bots"`
	MaxEntrants   int       `bun:"max_entrants"`
	ScheduleKey   string    `bun:"schedule_key,nullzero"`
	Owner         string    `bun:"owner"`
	Epoch         int64     `bun:"epoch"`
	DoneAt        time.Time `bun:"done_at,nullzero"`
}

func toArenaRow(a *Arena) (arenaRow, error) {
	switch {
	case a.Options.Rules <= 0:
		return arenaRow{}, fmt.Errorf("arena %q: no rules version", a.Name)
	case a.MinSeats < 1 || a.MaxSeats < a.MinSeats:
		return arenaRow{}, fmt.Errorf("arena %q: seats %d to %d is not a range", a.Name, a.MinSeats, a.MaxSeats)
	case !a.EndsAt.After(a.StartsAt):
		return arenaRow{}, fmt.Errorf("arena %q: ends at %v, not after its start %v", a.Name, a.EndsAt, a.StartsAt)
	case a.Entrants != EntrantsPeople && a.Entrants != EntrantsPrograms && a.Entrants != EntrantsBoth:
		return arenaRow{}, fmt.Errorf("arena %q: entrants %q are not a kind", a.Name, a.Entrants)
	}
	opts, err := encodeOptions(a.Options)
	if err != nil {
		return arenaRow{}, fmt.Errorf("encode the options of arena %q: %w", a.Name, err)
	}
	return arenaRow{
		ID: a.ID, Name: a.Name, CreatedBy: a.CreatedBy, CreatedAt: a.CreatedAt,
		StartsAt: a.StartsAt, EndsAt: a.EndsAt, MinSeats: a.MinSeats, MaxSeats: a.MaxSeats,
		Options: opts, Rules: a.Options.Rules, AwayAfterMS: a.AwayAfter.Milliseconds(),
		Rated: a.Rated, Entrants: string(a.Entrants), RatingFloor: a.RatingFloor, RatingCeiling: a.RatingCeiling,
		HouseBots: a.HouseBots, MaxEntrants: a.MaxEntrants, ScheduleKey: a.ScheduleKey,
		Owner: a.Owner, Epoch: a.Epoch, DoneAt: a.DoneAt,
	}, nil
}

func (r *arenaRow) arena() (Arena, error) {
	if r.Rules <= 0 {
		return Arena{}, fmt.Errorf("arena %d: rules version %d is not one", r.ID, r.Rules)
	}
	opts, err := decodeOptions(r.Options, r.Rules)
	if err != nil {
		return Arena{}, fmt.Errorf("decode the options of arena %d: %w", r.ID, err)
	}
	return Arena{
		ID: r.ID, Name: r.Name, CreatedBy: r.CreatedBy, CreatedAt: utc(r.CreatedAt),
		StartsAt: utc(r.StartsAt), EndsAt: utc(r.EndsAt), MinSeats: r.MinSeats, MaxSeats: r.MaxSeats,
		Options: opts, AwayAfter: time.Duration(r.AwayAfterMS) * time.Millisecond,
		Rated: r.Rated, Entrants: Entrants(r.Entrants), RatingFloor: r.RatingFloor, RatingCeiling: r.RatingCeiling,
		HouseBots: r.HouseBots, MaxEntrants: r.MaxEntrants, ScheduleKey: r.ScheduleKey,
		Owner: r.Owner, Epoch: r.Epoch, DoneAt: utc(r.DoneAt),
	}, nil
}

// CreateArena stores a new arena and sets its ID. A schedule key another
// arena has is ErrArenaScheduled (and ErrDuplicate), so each slot of the
// house schedule is created once however many nodes try; an account that
// does not exist is ErrNotFound.
func (s *Store) CreateArena(ctx context.Context, a *Arena) error {
	row, err := toArenaRow(a)
	if err != nil {
		return err
	}
	row.ID = 0
	err = s.write(ctx, func(ctx context.Context, db bun.IDB) error {
		_, err := db.NewInsert().Model(&row).Returning("id").Exec(ctx)
		return err
	})
	if err = classify(err); errors.Is(err, ErrDuplicate) && a.ScheduleKey != "" {
		return fmt.Errorf("create arena %q: %w: %w", a.Name, ErrArenaScheduled, err)
	}
	if err != nil {
		return fmt.Errorf("create arena %q: %w", a.Name, err)
	}
	a.ID = row.ID
	return nil
}

// ArenasCreatedSince counts the arenas an account created at since or
// later, for its rate limit.
func (s *Store) ArenasCreatedSince(ctx context.Context, account int64, since time.Time) (int, error) {
	n, err := s.db.NewSelect().Model((*arenaRow)(nil)).
		Where("ar.created_by = ?", account).Where("ar.created_at >= ?", since).Count(ctx)
	if err != nil {
		return 0, fmt.Errorf("count the arenas of account %d: %w", account, err)
	}
	return int(n), nil
}

// Arena reads an arena. One that does not exist is ErrNotFound.
func (s *Store) Arena(ctx context.Context, id int64) (*Arena, error) {
	return s.arena(ctx, "ar.id = ?", id)
}

// ArenaBySchedule reads the arena of a schedule key. None is ErrNotFound.
func (s *Store) ArenaBySchedule(ctx context.Context, key string) (*Arena, error) {
	if key == "" || !storable(key) {
		return nil, fmt.Errorf("read the arena of schedule key %q: %w", key, ErrNotFound)
	}
	return s.arena(ctx, "ar.schedule_key = ?", key)
}

func (s *Store) arena(ctx context.Context, where string, arg any) (*Arena, error) {
	var row arenaRow
	err := s.db.NewSelect().Model(&row).Where(where, arg).Scan(ctx)
	if errors.Is(err, sql.ErrNoRows) {
		err = ErrNotFound
	}
	if err != nil {
		return nil, fmt.Errorf("read arena %v: %w", arg, err)
	}
	a, err := row.arena()
	if err != nil {
		return nil, err
	}
	return &a, nil
}

// ArenaPhase picks the arenas a list shows, by where now falls.
type ArenaPhase int

// The arenas' phases.
const (
	ArenasUpcoming ArenaPhase = iota // starting after now: the soonest first
	ArenasRunning                    // started, not ended: the soonest to end first
	ArenasFinished                   // ended at now or before: the latest first
)

// ArenaQuery selects a page of arenas.
type ArenaQuery struct {
	Phase  ArenaPhase
	Now    time.Time
	Limit  int
	Offset int
}

// Arenas lists a page of the arenas of a phase at q.Now, read in the
// order of the arenas_starts or arenas_ends index.
func (s *Store) Arenas(ctx context.Context, q ArenaQuery) ([]Arena, error) {
	sel := s.db.NewSelect().Model((*arenaRow)(nil))
	switch q.Phase {
	case ArenasUpcoming:
		sel = sel.Where("ar.starts_at > ?", q.Now).OrderExpr("ar.starts_at, ar.id")
	case ArenasRunning:
		sel = sel.Where("ar.ends_at > ?", q.Now).Where("ar.starts_at <= ?", q.Now).OrderExpr("ar.ends_at, ar.id")
	case ArenasFinished:
		sel = sel.Where("ar.ends_at <= ?", q.Now).OrderExpr("ar.ends_at DESC, ar.id DESC")
	default:
		return nil, fmt.Errorf("list arenas: phase %d is not one", q.Phase)
	}
	if q.Limit > 0 {
		sel = sel.Limit(int64(q.Limit))
	}
	if q.Offset > 0 {
		sel = sel.Offset(int64(q.Offset))
	}
	return s.arenas(ctx, sel)
}

// UndoneArenas lists the arenas not yet closed, the soonest to start
// first: on one server, those to direct after a restart.
func (s *Store) UndoneArenas(ctx context.Context) ([]Arena, error) {
	return s.arenas(ctx, s.db.NewSelect().Model((*arenaRow)(nil)).Where("ar.done_at IS NULL").OrderExpr("ar.starts_at, ar.id"))
}

func (s *Store) arenas(ctx context.Context, sel *bun.SelectQuery) ([]Arena, error) {
	var rows []arenaRow
	if err := sel.Scan(ctx, &rows); err != nil {
		return nil, fmt.Errorf("list arenas: %w", err)
	}
	out := make([]Arena, 0, len(rows))
	for i := range rows {
		a, err := rows[i].arena()
		if err != nil {
			return nil, err
		}
		out = append(out, a)
	}
	return out, nil
}

// CloseArena marks an arena done at at, fenced on its director's f (else
// ErrFenced): no table is formed in it after, and no node claims it. One
// closed already is ErrArenaOver.
func (s *Store) CloseArena(ctx context.Context, f Fence, id int64, at time.Time) error {
	return s.writeTx(ctx, func(ctx context.Context, tx bun.Tx) error {
		res, err := tx.NewUpdate().Model((*arenaRow)(nil)).Set("done_at = ?", at).
			Where("id = ?", id).Where("owner = ?", f.Owner).Where("epoch = ?", f.Epoch).Where("done_at IS NULL").
			Exec(ctx)
		if err != nil {
			return fmt.Errorf("close arena %d: %w", id, err)
		}
		if n, err := res.RowsAffected(); err != nil || n == 1 {
			return err
		}
		if _, err := s.holdArena(ctx, tx, id, f); err != nil {
			return fmt.Errorf("close arena %d: %w", id, err)
		}
		return fmt.Errorf("close arena %d: %w", id, ErrArenaOver)
	})
}

// holdArena reads an arena's times in a director's transaction, or refuses
// it: ErrNotFound, ErrFenced when f is not the arena's fence. On
// PostgreSQL it locks the arena's row for the transaction: a claim skips
// the arena or waits, so a write either commits before the epoch changes
// or sees the new one; and the director's own tables are formed one after
// the other, so the check that no entrant sits at two of them is exact.
// (FOR NO KEY UPDATE, so entries written meanwhile, whose keys refer to
// the row, do not wait for it.) SQLite writes one transaction at a time.
func (s *Store) holdArena(ctx context.Context, tx bun.Tx, id int64, f Fence) (arenaRow, error) {
	lock := ""
	if s.dialect == Postgres {
		lock = " FOR NO KEY UPDATE"
	}
	var row arenaRow
	err := tx.NewRaw(`SELECT id, owner, epoch, starts_at, ends_at, done_at FROM arenas WHERE id = ?`+lock, id).Scan(ctx, &row)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return row, ErrNotFound
	case err != nil:
		return row, err
	case row.Owner != f.Owner || row.Epoch != f.Epoch:
		return row, fmt.Errorf("%w (arena held by %q at epoch %d, not %q at %d)", ErrFenced, row.Owner, row.Epoch, f.Owner, f.Epoch)
	}
	return row, nil
}
