package server

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync/atomic"
	"time"

	"bullshit/cluster"
	"bullshit/game"
	"bullshit/live"
	"bullshit/ops"
	"bullshit/push"
	"bullshit/store"
)

// Cluster makes the site one node of several on one PostgreSQL (see
// package cluster and docs/cluster.md).
type Cluster struct {
	// Node is this node's name, unique in the cluster.
	Node string
	// NATS is how the node reaches its peers.
	NATS cluster.NATSConfig
	// Lease is how long the node's hold on its tables lasts unrenewed.
	Lease time.Duration
	// FreezeRenewal, for tests, is asked before each renewal of the
	// lease: true skips it, as a node that hangs would (live.Cluster).
	FreezeRenewal func() bool
}

// DefaultLease is a few seconds: a dead node's tables wait about that long
// for a new owner, and a node must renew well inside it.
const DefaultLease = 5 * time.Second

// Mesh is a node's part in a cluster: its NATS connection, the Tables that
// send calls to the nodes running their tables, and the Frames that carry
// the tables' frames between nodes.
type Mesh struct {
	NATS   *cluster.NATS
	Tables *cluster.Tables
	Frames *cluster.Frames
	// Peers says whether the node reaches enough of the others to take
	// tables and be ready.
	Peers  *cluster.Peers
	mgr    atomic.Pointer[live.Manager]
	ctx    context.Context
	stop   context.CancelFunc
	node   string
	lease  time.Duration
	freeze func() bool
	epoch  func(ctx context.Context, game string) (int64, error)
}

// startMesh joins the cluster c says, or returns nil for a single node. Its
// calls and followers end with ctx or close.
func startMesh(ctx context.Context, st *store.Store, c *Cluster, logger *slog.Logger) (*Mesh, error) {
	if c == nil {
		return nil, nil
	}
	if st.Dialect() != store.Postgres {
		return nil, errors.New("a cluster needs PostgreSQL: SQLite has one writer, so it runs a single node")
	}
	if c.Node == "" {
		return nil, errors.New("a cluster's node needs a name")
	}
	ctx, stop := context.WithCancel(context.WithoutCancel(ctx))
	cfg := c.NATS
	cfg.Name, cfg.Logger = c.Node, logger
	if cfg.Insecure {
		logger.Warn("the NATS route port takes routes from anyone who reaches it (--nats-insecure): whoever joins reads every hand and plays any seat", "listen", cfg.Listen)
	}
	n, err := cluster.StartNATS(ctx, cfg)
	if err != nil {
		stop()
		return nil, err
	}
	m := &Mesh{NATS: n, ctx: ctx, stop: stop, node: c.Node, lease: c.Lease, freeze: c.FreezeRenewal, epoch: cluster.StoreEpoch(st)}
	m.Tables = cluster.NewTables(ctx, cluster.TablesConfig{Conn: n.Conn, Logger: logger, Owner: cluster.StoreOwner(st)})
	m.Peers, err = cluster.StartPeers(ctx, cluster.PeersConfig{Node: c.Node, Conn: n.Conn, Live: st.LiveNodes, Logger: logger,
		Changed: func(in bool) {
			if mgr := m.mgr.Load(); in && mgr != nil {
				mgr.ClaimNow()
			}
		}})
	if err != nil {
		stop()
		n.Close()
		return nil, err
	}
	return m, nil
}

// live is the Manager's cluster settings: nil on a single node.
func (m *Mesh) live() *live.Cluster {
	if m == nil {
		return nil
	}
	lease := m.lease
	if lease <= 0 {
		lease = DefaultLease
	}
	return &live.Cluster{Node: m.node, Lease: lease, Watch: m.Tables.Watch, FreezeRenewal: m.freeze, InMesh: m.Peers.In}
}

// operate adds the mesh's readiness and counts to the operator's: the
// node is ready only while connected to NATS and in the mesh (and, by
// clusterOperations, holding its lease).
func (m *Mesh) operate(metrics *ops.Metrics, ready *ops.Ready, mgr *live.Manager) {
	if m == nil {
		return
	}
	ready.Add("nats", func(context.Context) error { return m.Ready() })
	ready.Add("mesh", func(context.Context) error { return m.Peers.Ready() })
	calls := func(pick func(cluster.Stats) int64) func() int64 {
		return func() int64 { return pick(m.Tables.Stats()) }
	}
	frames := func(pick func(cluster.FrameStats) int64) func() int64 {
		return func() int64 { return pick(m.Frames.Stats()) }
	}
	metrics.Counter("nats_requests_total", "Calls sent to the node running their table.",
		calls(func(s cluster.Stats) int64 { return s.Forwarded }))
	metrics.Counter("nats_request_retries_total", "Tries of those calls repeated (no responders, timeouts, moved).",
		calls(func(s cluster.Stats) int64 { return s.Retried }))
	metrics.Counter("nats_request_failures_total", "Calls no node answered in time.",
		calls(func(s cluster.Stats) int64 { return s.Failed }))
	metrics.Counter("nats_frames_published_total", "Frames published for the other nodes.",
		frames(func(s cluster.FrameStats) int64 { return s.Published }))
	metrics.Counter("nats_frames_received_total", "Frames received from the nodes running their tables.",
		frames(func(s cluster.FrameStats) int64 { return s.Received }))
	metrics.Counter("nats_frames_stale_total", "Frames received and dropped as no newer than one already had.",
		frames(func(s cluster.FrameStats) int64 { return s.Stale }))
	metrics.Counter("nats_frame_reads_total", "Followed seats' frames read afresh (a first frame, a gap, a new owner, an end or a quiet spell).",
		frames(func(s cluster.FrameStats) int64 { return s.Reads }))
	metrics.Counter("nats_frames_forged_total", "Frames read with an epoch the store has not reached, dropped: no owner made them.",
		frames(func(s cluster.FrameStats) int64 { return s.Forged }))
	metrics.Counter("nats_slow_consumer_drops_total", "Times NATS dropped messages for a subscriber that fell behind.",
		func() int64 { return int64(m.NATS.SlowConsumers()) })
}

// handOver, in a cluster, hands the node's tables to its peers before the
// Manager is closed: the lease is released, so they claim at once.
func (m *Mesh) handOver(ctx context.Context, mgr *live.Manager) error {
	if m == nil {
		return nil
	}
	return mgr.Drain(ctx)
}

// withHub makes the Frames over the node's hub; the hub's Watch, made
// before, calls follow.
func (m *Mesh) withHub(hub *push.Hub, logger *slog.Logger) {
	if m == nil {
		return
	}
	m.Frames = cluster.NewFrames(m.ctx, cluster.FramesConfig{Hub: hub, Conn: m.NATS.Conn, Tables: m.Tables, Logger: logger,
		Epoch: m.epoch, Interested: m.NATS.Interested()})
}

// follow is the hub's Watch in a cluster; nil on a single node.
func (m *Mesh) follow() func(game string, seat int, token string, epoch int64, watching bool) {
	if m == nil {
		return nil
	}
	return func(game string, seat int, token string, epoch int64, watching bool) {
		if m.Frames != nil {
			m.Frames.Follow(game, seat, token, epoch, watching)
		}
	}
}

// lobbied is the hub's Lobbied in a cluster; nil on a single node.
func (m *Mesh) lobbied() func(game string, s game.Summary) {
	if m == nil {
		return nil
	}
	return func(game string, s game.Summary) {
		if m.Frames != nil {
			m.Frames.Lobbied(game, s)
		}
	}
}

// publisher is what the tables publish to: the hub, and in a cluster the
// other nodes too.
func (m *Mesh) publisher(hub *push.Hub) game.Publisher {
	if m == nil {
		return hub
	}
	return m.Frames
}

// games is what the API and the pages call: in a cluster, the Tables that
// send each call to the node running its table.
func (m *Mesh) games(mgr *live.Manager) game.Service {
	if m == nil {
		return mgr
	}
	m.Tables.SetManager(mgr)
	m.mgr.Store(mgr)
	if m.Peers.In() { // it joined the mesh before the Manager was there to hear it
		mgr.ClaimNow()
	}
	return m.Tables
}

// close leaves the cluster, after the tables have stopped.
func (m *Mesh) close() {
	if m == nil {
		return
	}
	m.stop()
	if m.Frames != nil {
		m.Frames.Wait()
	}
	m.Peers.Wait()
	m.NATS.Close()
}

// Ready is nil while the node is connected to its peers (always, on a
// single node).
func (m *Mesh) Ready() error {
	if m == nil {
		return nil
	}
	if err := m.NATS.Ready(); err != nil {
		return fmt.Errorf("cluster: %w", err)
	}
	return nil
}
