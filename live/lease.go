package live

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"bullshit/store"
)

// Cluster runs the Manager as one of several servers ("nodes") on one
// PostgreSQL database: the database says which node runs each table (see
// store/nodes.go). The node holds a lease, renewed every Lease/4 in the
// database's time; it claims the games whose owner's lease ran out, every
// ClaimEvery, and rebuilds them as a restart does; and every write of a
// table is fenced on the owner epoch it was claimed at, so a table this
// node lost is refused and stops (its request answered errcode.Moved).
type Cluster struct {
	// Node names this server; each node of the cluster has its own name,
	// kept across restarts so a node takes its own games back at once.
	Node string
	// Lease is how long a renewal holds the lease (the TTL): the longest
	// a dead node's tables wait before a peer claims them.
	Lease time.Duration
	// ClaimEvery is how often the node looks for orphaned games; zero
	// takes Lease/2.
	ClaimEvery time.Duration
	// Which tables run here, and whether the node is in the mesh, are
	// told through Hooks.

	// FreezeRenewal, for tests, is asked before each renewal: true skips
	// it, as if the database did not answer. The node still stops its
	// tables when its lease is about to run out.
	FreezeRenewal func() bool
	// IgnoreDeadline, for tests, keeps the tables playing when the lease is
	// about to run out, as a paused process does whose timers have not yet
	// fired: only the fence stops them.
	IgnoreDeadline bool
}

// clusterStore is what a node needs of the store besides storage.
type clusterStore interface {
	RenewLease(ctx context.Context, node string, ttl time.Duration) (time.Time, error)
	ReleaseLease(ctx context.Context, node string) error
	ClaimOrphans(ctx context.Context, node string, limit int) ([]store.Claim, error)
	Reclaim(ctx context.Context, node string, games []string, limit int) ([]store.Claim, error)
	ReadGames(ctx context.Context, ids []string) ([]store.Running, error)
}

var _ clusterStore = (*store.Store)(nil)

// Why a node's tables stop without a fault.
var (
	errLapsed   = errors.New("the lease was not renewed in time")
	errDraining = errors.New("the server is handing its tables over")
	errNotHeld  = errors.New("live: the lease is not held")
	errLoading  = errors.New("live: still rebuilding the games")
	errFrozen   = errors.New("the renewal is frozen (a test's fault)")
	errReplaced = errors.New("a new claim of the game replaces the table")
)

// lease is a node's hold on its lease and its counters.
type lease struct {
	cfg    Cluster
	st     clusterStore
	margin time.Duration
	// base and deadline are by the local monotonic clock: the lease is
	// held until base+deadline, which is the renewal's sending time plus
	// the TTL less the margin, so it ends here before it can in the
	// database.
	base     time.Time
	deadline atomic.Int64
	held     atomic.Bool
	draining atomic.Bool
	// wake asks the claim loop to look at once.
	wake chan struct{}
	// renewing is held by a renewal under way, so a drain's release of the
	// lease never comes before a renewal that would hold it again.
	renewing sync.Mutex

	// claiming orders the claims' adoptions against a lapse, so a table
	// claimed as the lease lapses is either taken away with the others or
	// never started.
	claiming sync.Mutex
	// dropped are the games this node still owns in the store but stopped
	// itself when its lease lapsed, with when, to take back once it holds
	// its lease again (nobody else claims them while it does).
	dropMu  sync.Mutex
	dropped map[string]time.Time

	claims, fenced, late atomic.Int64
}

// claimBatch bounds the games one claim takes.
const claimBatch = 64

func newLease(cfg Cluster, st storage) (*lease, error) {
	cs, ok := st.(clusterStore)
	switch {
	case cfg.Node == "":
		return nil, errors.New("live: a cluster node needs a name")
	case cfg.Lease <= 0:
		return nil, errors.New("live: a cluster node needs a lease time")
	case !ok:
		return nil, errors.New("live: this store can't hold leases")
	}
	if cfg.ClaimEvery <= 0 {
		cfg.ClaimEvery = cfg.Lease / 2
	}
	return &lease{cfg: cfg, st: cs, margin: cfg.Lease / 4, base: time.Now(), wake: make(chan struct{}, 1),
		dropped: map[string]time.Time{}}, nil
}

// left is how long the lease is still held by the local clock.
func (l *lease) left() time.Duration {
	return time.Duration(l.deadline.Load()) - time.Since(l.base)
}

// lapsed reports that the lease may soon run out in the database: the
// tables must acknowledge nothing more.
func (l *lease) lapsed() bool { return !l.cfg.IgnoreDeadline && l.left() <= 0 }

// serving reports whether the node takes tables: its lease held, not
// draining.
func (l *lease) serving() bool { return l.held.Load() && !l.draining.Load() && !l.lapsed() }

// mayClaim says whether the node may take others' games: while it serves,
// and is in the mesh.
func (m *Manager) mayClaim() bool {
	return m.cl.serving() && (m.hooks.InMesh == nil || m.hooks.InMesh())
}

// renew renews the lease once. A renewal whose answer takes longer than
// the time between renewals, or that fails, is counted late (and one that
// starts late, by keepLease).
func (m *Manager) renew(ctx context.Context) error {
	l := m.cl
	l.renewing.Lock()
	defer l.renewing.Unlock()
	if l.draining.Load() {
		return errDraining
	}
	if l.cfg.FreezeRenewal != nil && l.cfg.FreezeRenewal() {
		l.late.Add(1)
		return errFrozen
	}
	sent := time.Since(l.base)
	rctx, cancel := context.WithTimeout(ctx, l.cfg.Lease)
	_, err := l.st.RenewLease(rctx, l.cfg.Node, l.cfg.Lease)
	cancel()
	if err != nil {
		l.late.Add(1)
		m.leaseTrouble.fail(m.log, m.clock.Now(), "renewing the lease is failing", err, slog.String("node", l.cfg.Node))
		return err
	}
	if time.Since(l.base)-sent > l.cfg.Lease/4 {
		l.late.Add(1)
	}
	m.leaseTrouble.over(m.log, m.clock.Now(), "renewing the lease works again", slog.String("node", l.cfg.Node))
	// Only ever later: a slow answer to an earlier renewal must not cut
	// short what a later one holds.
	until := int64(sent + l.cfg.Lease - l.margin)
	for {
		old := l.deadline.Load()
		if old >= until || l.deadline.CompareAndSwap(old, until) {
			break
		}
	}
	if l.left() > 0 && !l.held.Swap(true) {
		m.log.Info("the lease is held", slog.String("node", l.cfg.Node))
		m.reclaimDropped(ctx)
		l.claimNow()
	}
	return nil
}

// keepLease renews the lease every Lease/4 until the Manager stops. A
// renewal that comes more than a period after it was due is counted late
// too: the process was stalled (stopped, starved, swapped out), however
// quickly the database then answers.
func (m *Manager) keepLease() {
	every := m.cl.cfg.Lease / 4
	due := time.Now().Add(every)
	timer := time.NewTimer(every)
	defer timer.Stop()
	for {
		select {
		case <-m.ctx.Done():
			return
		case <-timer.C:
			if time.Since(due) > every {
				m.cl.late.Add(1)
			}
			m.renew(m.ctx)
			due = time.Now().Add(every)
			timer.Reset(every)
		}
	}
}

// watchLease stops every table once the lease is about to run out by the
// local clock, whatever the renewals are doing (one may hang on a database
// that doesn't answer).
func (m *Manager) watchLease() {
	l := m.cl
	timer := time.NewTimer(max(l.left(), time.Millisecond))
	defer timer.Stop()
	for {
		select {
		case <-m.ctx.Done():
			return
		case <-timer.C:
		}
		if left := l.left(); left > 0 {
			timer.Reset(left)
			continue
		}
		if !l.cfg.IgnoreDeadline && l.held.CompareAndSwap(true, false) {
			m.log.Warn("the lease was not renewed in time: this node stops its tables", slog.String("node", l.cfg.Node))
			l.claiming.Lock()
			for _, t := range m.takeAll(errLapsed) {
				l.drop(t.id, m.clock.Now())
			}
			l.claiming.Unlock()
		}
		timer.Reset(l.cfg.Lease / 4)
	}
}

// takeAll takes every table away from this node (see table.takeAway) and
// returns them.
func (m *Manager) takeAll(why error) []*table {
	m.mu.RLock()
	tables := make([]*table, 0, len(m.running))
	for _, t := range m.running {
		tables = append(tables, t)
	}
	m.mu.RUnlock()
	for _, t := range tables {
		t.takeAway(why)
	}
	return tables
}

// Ready reports whether the Manager serves: nil once the games are rebuilt
// and, in a cluster, while the node holds its lease and is not draining.
func (m *Manager) Ready() error {
	if !m.loaded.Load() {
		return errLoading
	}
	if m.cl == nil {
		return nil
	}
	switch {
	case m.cl.draining.Load():
		return fmt.Errorf("live: %w", errDraining)
	case !m.cl.serving():
		return errNotHeld
	}
	return nil
}

// Drain hands every table of this node to its peers: it takes no new
// table, stops each table once its write under way is done, then ends its
// lease so that the peers claim the games at once. A single server has no
// peers to hand its tables to: Drain does nothing, and Close stops them. It
// gives up when ctx ends.
func (m *Manager) Drain(ctx context.Context) error {
	if m.cl == nil {
		return nil
	}
	m.cl.draining.Store(true)
	for {
		tables := m.takeAll(errDraining)
		if len(tables) == 0 {
			break
		}
		for _, t := range tables {
			select {
			case <-t.done:
			case <-ctx.Done():
				return fmt.Errorf("live: drain: %w", ctx.Err())
			}
		}
	}
	// After any renewal under way, and before none: draining is set.
	m.cl.renewing.Lock()
	defer m.cl.renewing.Unlock()
	if err := m.cl.st.ReleaseLease(ctx, m.cl.cfg.Node); err != nil {
		return fmt.Errorf("live: drain: %w", err)
	}
	m.cl.held.Store(false)
	m.log.Info("the tables are handed over", slog.String("node", m.cl.cfg.Node))
	return nil
}
