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

// Several servers ("nodes") may share one PostgreSQL database. The database
// alone says who runs each game's table:
//   - each node holds a lease, a row of nodes renewed in the database's own
//     time (RenewLease), so no two machines' clocks are compared;
//   - each open or live game has an owner and an owner epoch; a node takes
//     the games whose owner's lease ran out (ClaimOrphans), bumping the
//     epoch, and rebuilds them from their logs;
//   - every write a table makes of its game is fenced in the same statement
//     on the owner and epoch it believes it holds (a Fence): a node that
//     lost the game is refused with ErrFenced and writes nothing, however
//     late its write arrives.
// The fence takes a share lock on the game's row, which a claim's update
// waits for, so an append either commits before the claim (and the new
// owner replays it) or sees the new epoch and is refused.
//
// SQLite is one writer and so one node: the leases and claims answer
// ErrSingleNode, and its games keep owner "" and epoch 0, the zero Fence.

// Fence is the owner and epoch a writer believes a game has. Fenced writes
// take it as a parameter; appends on Action.Fence, as a batch spans games.
type Fence struct {
	Owner string
	Epoch int64
}

// Errors of the cluster's ownership.
var (
	// ErrFenced is a write of a game by a server that no longer holds it:
	// its owner or epoch changed (another server claimed it).
	ErrFenced = errors.New("the game is held by another server")
	// ErrSingleNode is a lease or a claim asked of SQLite, which one
	// server alone writes.
	ErrSingleNode = errors.New("several servers need PostgreSQL: a SQLite database has one writer, so one server")
)

// lockShare is the lock a fence takes on the game's row: on PostgreSQL a
// share lock, which a claim's update waits for and which, if a claim is
// under way, waits for it and checks the fence again on the row it left.
// SQLite writes one statement at a time, so it needs none.
func (s *Store) lockShare() string { return s.lockShareOf("") }

// lockShareOf is lockShare for the rows of one table of a join.
func (s *Store) lockShareOf(table string) string {
	switch {
	case s.dialect != Postgres:
		return ""
	case table != "":
		return " FOR SHARE OF " + table
	}
	return " FOR SHARE"
}

// fenced says why a fenced write of the game id changed nothing: the game
// does not exist (ErrNotFound), its owner or epoch are not f's
// (ErrFenced), or nil when the fence holds and the write's own condition
// refused it.
func fenced(ctx context.Context, db bun.IDB, id string, f Fence) error {
	var owner string
	var epoch int64
	err := db.NewSelect().Model((*gameRow)(nil)).Column("owner", "epoch").Where("id = ?", id).Scan(ctx, &owner, &epoch)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return ErrNotFound
	case err != nil:
		return err
	case owner != f.Owner || epoch != f.Epoch:
		return fmt.Errorf("%w (held by %q at epoch %d, not %q at %d)", ErrFenced, owner, epoch, f.Owner, f.Epoch)
	}
	return nil
}

// nodeRow is a server's lease.
type nodeRow struct {
	bun.BaseModel `bun:"table:nodes,alias:n"`
	ID            string    `bun:"id,pk"`
	LeaseUntil    time.Time `bun:"lease_until"`
	Draining      bool      `bun:"draining"`
	StartedAt     time.Time `bun:"started_at"`
}

// RenewLease holds node's lease for ttl from now by the database's clock
// (clock_timestamp(), not the transaction's start), creating its row the
// first time, and returns when it ends. A renewal is never refused: a node
// whose lease ran out holds a new one, but the games claimed meanwhile
// have a new epoch, so its old tables' writes are fenced.
func (s *Store) RenewLease(ctx context.Context, node string, ttl time.Duration) (time.Time, error) {
	if s.dialect != Postgres {
		return time.Time{}, ErrSingleNode
	}
	var until time.Time
	err := s.db.NewRaw(`INSERT INTO nodes (id, lease_until, draining, started_at)
		VALUES (?, clock_timestamp() + ? * interval '1 microsecond', FALSE, clock_timestamp())
		ON CONFLICT (id) DO UPDATE SET lease_until = EXCLUDED.lease_until, draining = FALSE,
			started_at = CASE WHEN nodes.draining OR nodes.lease_until <= clock_timestamp()
				THEN clock_timestamp() ELSE nodes.started_at END
		RETURNING lease_until`, node, ttl.Microseconds()).Scan(ctx, &until)
	if err != nil {
		return time.Time{}, fmt.Errorf("renew the lease of node %s: %w", node, err)
	}
	return until.UTC(), nil
}

// LiveNode is a node whose lease is running.
type LiveNode struct {
	ID string
	// Since is when it took the lease it holds: a node restarted after its
	// lease ran out or was handed over holds a new one.
	Since time.Time
}

// LiveNodes are the nodes whose leases are running and that are not
// handing their tables over, longest-held first.
func (s *Store) LiveNodes(ctx context.Context) ([]LiveNode, error) {
	if s.dialect != Postgres {
		return nil, ErrSingleNode
	}
	var rows []nodeRow
	err := s.db.NewSelect().Model(&rows).
		Where("lease_until > clock_timestamp()").Where("NOT draining").
		OrderExpr("started_at, id").Scan(ctx)
	if err != nil {
		return nil, fmt.Errorf("read the live nodes: %w", err)
	}
	out := make([]LiveNode, len(rows))
	for i, r := range rows {
		out[i] = LiveNode{ID: r.ID, Since: r.StartedAt.UTC()}
	}
	return out, nil
}

// ReleaseLease ends node's lease now and marks it draining, so its peers
// claim its games at once rather than when the lease would have run out.
func (s *Store) ReleaseLease(ctx context.Context, node string) error {
	if s.dialect != Postgres {
		return ErrSingleNode
	}
	_, err := s.db.NewRaw(`UPDATE nodes SET lease_until = clock_timestamp(), draining = TRUE WHERE id = ?`, node).Exec(ctx)
	if err != nil {
		return fmt.Errorf("release the lease of node %s: %w", node, err)
	}
	return nil
}

// Claim is a game a node took over.
type Claim struct {
	Game string
	// Epoch is the game's new owner epoch, the claimer's Fence with it.
	Epoch int64
	// LeaseEnded is when the old owner's lease ran out: the last moment the
	// game was known running. Zero for a game that had no owner or whose
	// owner has no lease row, and for a game taken back (Reclaim).
	LeaseEnded time.Time
	// Orphaned is how long before the claim the lease ended, by the
	// database's clock, for a claimer to reckon in its own clock.
	Orphaned time.Duration
}

// ClaimOrphans takes up to limit open or live games whose owner's lease has
// run out (or that have no owner) for node, bumping each one's epoch, oldest
// game first. It claims nothing unless node's own lease is still running.
// Games another claimer has locked are skipped (FOR UPDATE SKIP LOCKED), so
// two claimers never take the same game, and neither waits.
func (s *Store) ClaimOrphans(ctx context.Context, node string, limit int) ([]Claim, error) {
	if s.dialect != Postgres {
		return nil, ErrSingleNode
	}
	// The owner's lease is read by subqueries of the game's row, not by a
	// join: a game another claimer took while this one waited to lock it
	// is checked again on the row that claimer left (PostgreSQL re-runs
	// the conditions on it), and a joined row would still be the old
	// owner's.
	return s.claim(ctx, node, `WITH c AS (
			SELECT g.id, (SELECT o.lease_until FROM nodes AS o WHERE o.id = g.owner) AS ended
			FROM games AS g
			WHERE g.status IN ('open', 'live') AND g.owner <> $1
				AND NOT EXISTS (SELECT 1 FROM nodes AS o WHERE o.id = g.owner AND o.lease_until > clock_timestamp())
				AND EXISTS (SELECT 1 FROM nodes AS me WHERE me.id = $1 AND me.lease_until > clock_timestamp())
			ORDER BY g.created_at, g.id
			LIMIT $2
			FOR UPDATE OF g SKIP LOCKED
		)
		UPDATE games AS g SET owner = $1, epoch = g.epoch + 1
		FROM c WHERE g.id = c.id
		RETURNING g.id, g.epoch, c.ended, (extract(epoch FROM clock_timestamp() - c.ended) * 1000000)::bigint`, node, limit)
}

// Reclaim takes back up to limit open or live games node owns already (all
// of them when limit is not positive), the listed ones or, when games is
// nil, any, bumping each one's epoch, while node's lease is running. Taken
// back, a game is still the node's: a second call takes it again. A node runs no table for such a game after a
// restart under its own name, or after it stopped its tables when its
// lease seemed about to run out and then renewed it in time: nobody else
// would claim them while its lease holds.
func (s *Store) Reclaim(ctx context.Context, node string, games []string, limit int) ([]Claim, error) {
	if s.dialect != Postgres {
		return nil, ErrSingleNode
	}
	var lim any = limit // NULL: no limit
	if limit <= 0 {
		lim = nil
	}
	if games == nil {
		return s.claim(ctx, node, `UPDATE games AS g SET epoch = g.epoch + 1
			WHERE g.id IN (SELECT id FROM games WHERE owner = $1 AND status IN ('open', 'live') ORDER BY created_at, id LIMIT $2)
				AND g.owner = $1 AND g.status IN ('open', 'live')
				AND EXISTS (SELECT 1 FROM nodes AS me WHERE me.id = $1 AND me.lease_until > clock_timestamp())
			RETURNING g.id, g.epoch, NULL::timestamptz, NULL::bigint`, node, lim)
	}
	return s.claim(ctx, node, `UPDATE games AS g SET epoch = g.epoch + 1
		WHERE g.id IN (SELECT id FROM games WHERE id = ANY($2) AND owner = $1 AND status IN ('open', 'live') ORDER BY created_at, id LIMIT $3)
			AND g.owner = $1 AND g.status IN ('open', 'live')
			AND EXISTS (SELECT 1 FROM nodes AS me WHERE me.id = $1 AND me.lease_until > clock_timestamp())
		RETURNING g.id, g.epoch, NULL::timestamptz, NULL::bigint`, node, games, lim)
}

// claim runs a claim's statement, which returns each game's id, new epoch,
// and old lease's end and age, or NULLs.
func (s *Store) claim(ctx context.Context, node, query string, args ...any) ([]Claim, error) {
	return scanClaims(ctx, s, "games", node, query, args, func(id string, epoch int64, ended time.Time, orphaned time.Duration) Claim {
		return Claim{Game: id, Epoch: epoch, LeaseEnded: ended, Orphaned: orphaned}
	})
}

// scanClaims runs a claim's statement, of games or of arenas, which
// returns each claimed row's id, new epoch, and old lease's end and age, or
// NULLs; claim makes the caller's claim of each row.
func scanClaims[C, ID any](ctx context.Context, s *Store, what, node, query string, args []any,
	claim func(id ID, epoch int64, ended time.Time, orphaned time.Duration) C) ([]C, error) {
	rows, err := s.db.DB.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, fmt.Errorf("claim %s for node %s: %w", what, node, err)
	}
	defer rows.Close()
	var claims []C
	for rows.Next() {
		var id ID
		var epoch int64
		var ended sql.NullTime
		var age sql.NullInt64
		if err := rows.Scan(&id, &epoch, &ended, &age); err != nil {
			return nil, fmt.Errorf("claim %s for node %s: %w", what, node, err)
		}
		var endedAt time.Time
		if ended.Valid {
			endedAt = ended.Time.UTC()
		}
		var orphaned time.Duration
		if age.Valid {
			orphaned = max(0, time.Duration(age.Int64)*time.Microsecond)
		}
		claims = append(claims, claim(id, epoch, endedAt, orphaned))
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("claim %s for node %s: %w", what, node, err)
	}
	return claims, nil
}

// Owner reads who holds a game: its owner, epoch and status. A game that
// does not exist is ErrNotFound.
func (s *Store) Owner(ctx context.Context, id string) (node string, epoch int64, status game.Status, err error) {
	if !storable(id) {
		return "", 0, "", fmt.Errorf("read the owner of game %q: %w", id, ErrNotFound)
	}
	err = s.db.NewSelect().Model((*gameRow)(nil)).Column("owner", "epoch", "status").Where("id = ?", id).Scan(ctx, &node, &epoch, &status)
	if errors.Is(err, sql.ErrNoRows) {
		err = ErrNotFound
	}
	if err != nil {
		return "", 0, "", fmt.Errorf("read the owner of game %s: %w", id, err)
	}
	return node, epoch, status, nil
}
