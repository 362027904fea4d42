package store

import (
	"context"
	"time"
)

// ArenaClaim is an arena a node took over to direct.
type ArenaClaim struct {
	Arena int64
	// Epoch is the arena's new owner epoch, the claimer's Fence with it.
	Epoch int64
	// LeaseEnded and Orphaned are as a game's Claim's.
	LeaseEnded time.Time
	Orphaned   time.Duration
}

// ClaimArenas takes up to limit arenas not closed whose owner's lease has
// run out (or that have no owner) for node, bumping each one's epoch, the
// soonest to start first, while node's own lease is running. It is
// ClaimOrphans for arenas, on the same leases: a node that lost its lease
// loses its arenas with its tables.
func (s *Store) ClaimArenas(ctx context.Context, node string, limit int) ([]ArenaClaim, error) {
	if s.dialect != Postgres {
		return nil, ErrSingleNode
	}
	// As in ClaimOrphans, the lease is read by subqueries of the arena's
	// row, so a row another claimer changed is checked again as it left it.
	return s.claimArenas(ctx, node, `WITH c AS (
			SELECT a.id, (SELECT o.lease_until FROM nodes AS o WHERE o.id = a.owner) AS ended
			FROM arenas AS a
			WHERE a.done_at IS NULL AND a.owner <> $1
				AND NOT EXISTS (SELECT 1 FROM nodes AS o WHERE o.id = a.owner AND o.lease_until > clock_timestamp())
				AND EXISTS (SELECT 1 FROM nodes AS me WHERE me.id = $1 AND me.lease_until > clock_timestamp())
			ORDER BY a.starts_at, a.id
			LIMIT $2
			FOR UPDATE OF a SKIP LOCKED
		)
		UPDATE arenas AS a SET owner = $1, epoch = a.epoch + 1
		FROM c WHERE a.id = c.id
		RETURNING a.id, a.epoch, c.ended, (extract(epoch FROM clock_timestamp() - c.ended) * 1000000)::bigint`, node, limit)
}

// ReclaimArenas takes back the arenas not closed that node owns already,
// the listed ones or, when arenas is nil, all, bumping each one's epoch,
// while node's lease is running: Reclaim for arenas, for a node restarted
// under its own name.
func (s *Store) ReclaimArenas(ctx context.Context, node string, arenas []int64) ([]ArenaClaim, error) {
	if s.dialect != Postgres {
		return nil, ErrSingleNode
	}
	all := arenas == nil
	if all {
		arenas = []int64{}
	}
	return s.claimArenas(ctx, node, `UPDATE arenas AS a SET epoch = a.epoch + 1
		WHERE a.owner = $1 AND a.done_at IS NULL AND ($3 OR a.id = ANY($2))
			AND EXISTS (SELECT 1 FROM nodes AS me WHERE me.id = $1 AND me.lease_until > clock_timestamp())
		RETURNING a.id, a.epoch, NULL::timestamptz, NULL::bigint`, node, arenas, all)
}

// claimArenas runs a claim's statement, which returns each arena's id, new
// epoch, and old lease's end and age, or NULLs.
func (s *Store) claimArenas(ctx context.Context, node, query string, args ...any) ([]ArenaClaim, error) {
	return scanClaims(ctx, s, "arenas", node, query, args, func(id int64, epoch int64, ended time.Time, orphaned time.Duration) ArenaClaim {
		return ArenaClaim{Arena: id, Epoch: epoch, LeaseEnded: ended, Orphaned: orphaned}
	})
}
