package live

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"bullshit/lease"
	"bullshit/store"
)

// Node runs the Manager as one of several servers ("nodes") on one
// PostgreSQL database: the database says which node runs each table (see
// store/nodes.go). The node holds its lease as a lease.Session; it claims
// the games whose owner's lease ran out, every ClaimEvery, and rebuilds
// them as a restart does; and every write of a table is fenced on the
// owner epoch it was claimed at, so a table this node lost is refused and
// stops (its request answered errcode.Moved).
type Node struct {
	// Name names this server; each node of the cluster has its own name,
	// kept across restarts so a node takes its own games back at once.
	Name string
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
	lease.Store
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
	errReplaced = errors.New("a new claim of the game replaces the table")
)

// clusterNode is the Manager's part in a cluster: its lease's sessions, one after
// another, and the claims made under them.
type clusterNode struct {
	cfg Node
	st  clusterStore

	// mu orders a new session against a drain, so a drain's release is
	// of the last session and none follows it.
	mu       sync.Mutex
	session  atomic.Pointer[lease.Session]
	draining atomic.Bool

	// wake asks the claim loop to look at once.
	wake chan struct{}
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

func newClusterNode(cfg Node, st storage) (*clusterNode, error) {
	cs, ok := st.(clusterStore)
	switch {
	case cfg.Name == "":
		return nil, errors.New("live: a cluster node needs a name")
	case cfg.Lease <= 0:
		return nil, errors.New("live: a cluster node needs a lease time")
	case !ok:
		return nil, errors.New("live: this store can't hold leases")
	}
	if cfg.ClaimEvery <= 0 {
		cfg.ClaimEvery = cfg.Lease / 2
	}
	return &clusterNode{cfg: cfg, st: cs, wake: make(chan struct{}, 1), dropped: map[string]time.Time{}}, nil
}

// held is the session the node holds its lease by, nil before the first.
func (n *clusterNode) held() *lease.Session { return n.session.Load() }

// lapsed reports that the node's lease may soon run out in the database:
// the tables must acknowledge nothing more.
func (n *clusterNode) lapsed() bool {
	s := n.held()
	return s == nil || s.Lapsed()
}

// serving reports whether the node takes tables: its lease held, not
// draining.
func (n *clusterNode) serving() bool { return !n.draining.Load() && !n.lapsed() }

// mayClaim says whether the node may take others' games: while it serves,
// and is in the mesh.
func (m *Manager) mayClaim() bool {
	return m.cl.serving() && (m.hooks.InMesh == nil || m.hooks.InMesh())
}

// grant takes a new session of the node's lease, unless the node is
// draining.
func (m *Manager) grant(ctx context.Context) (*lease.Session, error) {
	n := m.cl
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.draining.Load() {
		return nil, errDraining
	}
	s, err := lease.Grant(ctx, n.st, lease.Config{Node: n.cfg.Name, TTL: n.cfg.Lease, Renewed: m.renewed,
		Freeze: n.cfg.FreezeRenewal, IgnoreDeadline: n.cfg.IgnoreDeadline})
	if err != nil {
		return nil, err
	}
	n.session.Store(s)
	m.log.Info("the lease is held", slog.String("node", n.cfg.Name))
	return s, nil
}

// renewed counts and logs a renewal of the lease (lease.Config.Renewed).
func (m *Manager) renewed(err error, late bool) {
	if late {
		m.cl.late.Add(1)
	}
	switch {
	case errors.Is(err, lease.ErrFrozen) || errors.Is(err, lease.ErrReleased) || errors.Is(err, lease.ErrLapsed):
		// Not the database's failing: a test's freeze, a drain, or a lapse
		// (logged as the tables stop).
	case err != nil:
		m.leaseTrouble.fail(m.log, m.clock.Now(), "renewing the lease is failing", err, slog.String("node", m.cl.cfg.Name))
	default:
		m.leaseTrouble.over(m.log, m.clock.Now(), "renewing the lease works again", slog.String("node", m.cl.cfg.Name))
	}
}

// holdLease watches the node's session (s, the first) until the Manager
// stops: when one lapses it stops every table, then grants a new one every
// Lease/4 until the database answers, and takes its games back under it.
func (m *Manager) holdLease(s *lease.Session) {
	n := m.cl
	for {
		select {
		case <-m.ctx.Done():
			s.End()
			return
		case <-s.Done():
		}
		s.End()
		if n.draining.Load() || m.ctx.Err() != nil {
			return
		}
		m.log.Warn("the lease was not renewed in time: this node stops its tables", slog.String("node", n.cfg.Name))
		n.claiming.Lock()
		for _, t := range m.takeAll(errLapsed) {
			n.drop(t.id, m.clock.Now())
		}
		n.claiming.Unlock()
		if s = m.regrant(); s == nil {
			return
		}
		m.reclaimDropped(m.ctx)
		n.claimNow()
	}
}

// regrant grants a new session every Lease/4 until one holds, and returns
// it; nil once the Manager stops or drains.
func (m *Manager) regrant() *lease.Session {
	every := m.cl.cfg.Lease / 4
	timer := time.NewTimer(every)
	defer timer.Stop()
	for {
		select {
		case <-m.ctx.Done():
			return nil
		case <-timer.C:
		}
		s, err := m.grant(m.ctx)
		switch {
		case err == nil:
			return s
		case errors.Is(err, errDraining):
			return nil
		}
		timer.Reset(every)
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
// table, stops each table once its write under way is done, then releases
// its lease so that the peers claim the games at once. A single server has
// no peers to hand its tables to: Drain does nothing, and Close stops them.
// It gives up when ctx ends.
func (m *Manager) Drain(ctx context.Context) error {
	n := m.cl
	if n == nil {
		return nil
	}
	n.mu.Lock()
	n.draining.Store(true)
	n.mu.Unlock()
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
	if s := n.held(); s != nil {
		if err := s.Release(ctx); err != nil {
			return fmt.Errorf("live: drain: %w", err)
		}
	}
	m.log.Info("the tables are handed over", slog.String("node", n.cfg.Name))
	return nil
}
