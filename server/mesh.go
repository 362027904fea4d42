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
	// lease: true skips it, as a node that hangs would (live.Node).
	FreezeRenewal func() bool
}

// DefaultLease is a few seconds: a dead node's tables wait about that long
// for a new owner, and a node must renew well inside it.
const DefaultLease = 5 * time.Second

// Mesh is a node's part in a cluster: its NATS connection, the Service that
// sends calls to the nodes running their tables, the Relay that carries the
// tables' frames between nodes, and the Peers that say whether the node is
// in the mesh. It is made in Assemble's three phases: joined (newMesh),
// built over the tables (build), started (start).
type Mesh struct {
	NATS    *cluster.NATS
	Service *cluster.Service
	Relay   *cluster.Relay
	// Peers says whether the node reaches enough of the others to take
	// tables and be ready.
	Peers  *cluster.Peers
	ctx    context.Context
	stop   context.CancelFunc
	node   string
	lease  time.Duration
	freeze func() bool
	st     *store.Store
	logger *slog.Logger
	// handedOver is set by the first hand-over: a stop hands the tables
	// over once, however many of its steps ask.
	handedOver atomic.Bool
}

// newMesh joins the cluster c says, or returns nil for a single node. The
// connection comes first, as every part of the mesh is built over it; its
// calls and followers end with ctx or close.
func newMesh(ctx context.Context, st *store.Store, c *Cluster, logger *slog.Logger) (*Mesh, error) {
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
	return &Mesh{NATS: n, ctx: ctx, stop: stop, node: c.Node, lease: c.Lease, freeze: c.FreezeRenewal, st: st, logger: logger}, nil
}

// live is the Manager's cluster settings: nil on a single node.
func (m *Mesh) live() *live.Node {
	if m == nil {
		return nil
	}
	lease := m.lease
	if lease <= 0 {
		lease = DefaultLease
	}
	return &live.Node{Name: m.node, Lease: lease, FreezeRenewal: m.freeze}
}

// build makes the mesh's parts over the node's tables and hub, and returns
// what the API and the pages call: in a cluster, the Service that send each
// call to the node running its table; on a single node, the tables.
func (m *Mesh) build(mgr *live.Manager, hub *push.Hub) game.Service {
	if m == nil {
		return mgr
	}
	m.Service = cluster.NewService(m.ctx, cluster.ServiceConfig{Local: mgr, Conn: m.NATS.Conn, Logger: m.logger,
		Owner: cluster.StoreOwner(m.st)})
	m.Relay = cluster.NewRelay(m.ctx, cluster.RelayConfig{Hub: hub, Conn: m.NATS.Conn, Service: m.Service,
		Logger: m.logger, Epoch: cluster.StoreEpoch(m.st), Interested: m.NATS.Interested()})
	m.Peers = cluster.NewPeers(cluster.PeersConfig{Node: m.node, Conn: m.NATS.Conn, Live: m.st.LiveNodes, Logger: m.logger,
		Changed: func(in bool) {
			if in {
				mgr.ClaimNow()
			}
		}})
	return m.Service
}

// hubHooks are the hub's: the lobby's renderer and, in a cluster, the
// Relay that follows the seats of tables run elsewhere.
func (m *Mesh) hubHooks(lobby func(context.Context) (push.Event, error)) push.Hooks {
	if m == nil {
		return push.Hooks{Lobby: lobby}
	}
	return push.Hooks{Lobby: lobby, Watch: m.Relay.Follow, Lobbied: m.Relay.Lobbied}
}

// tableHooks are the tables': they publish to the hub, and in a cluster
// to the other nodes too, tell the Service which games to answer for, and
// claim only while the node is in the mesh.
func (m *Mesh) tableHooks(hub *push.Hub) live.Hooks {
	if m == nil {
		return live.Hooks{Publisher: hub}
	}
	return live.Hooks{Publisher: m.Relay, Watch: m.Service.Watch, InMesh: m.Peers.In}
}

// start starts the checks of the peers, before the tables, which claim
// once the node is in the mesh.
func (m *Mesh) start() error {
	if m == nil {
		return nil
	}
	return m.Peers.Start(m.ctx)
}

// operate adds the mesh's readiness and counts to the operator's: the
// node is ready only while connected to NATS and in the mesh (and, by
// clusterOperations, holding its lease).
func (m *Mesh) operate(metrics *ops.Metrics, ready *ops.Ready) {
	if m == nil {
		return
	}
	ready.Add("nats", func(context.Context) error { return m.Ready() })
	ready.Add("mesh", func(context.Context) error { return m.Peers.Ready() })
	calls := func(pick func(cluster.Stats) int64) func() int64 {
		return func() int64 { return pick(m.Service.Stats()) }
	}
	relayed := func(pick func(cluster.RelayStats) int64) func() int64 {
		return func() int64 { return pick(m.Relay.Stats()) }
	}
	metrics.Counter("nats_requests_total", "Calls sent to the node running their table.",
		calls(func(s cluster.Stats) int64 { return s.Forwarded }))
	metrics.Counter("nats_request_retries_total", "Tries of those calls repeated (no responders, timeouts, moved).",
		calls(func(s cluster.Stats) int64 { return s.Retried }))
	metrics.Counter("nats_request_failures_total", "Calls no node answered in time.",
		calls(func(s cluster.Stats) int64 { return s.Failed }))
	metrics.Counter("nats_frames_published_total", "Frames published for the other nodes.",
		relayed(func(s cluster.RelayStats) int64 { return s.Published }))
	metrics.Counter("nats_frames_received_total", "Frames received from the nodes running their tables.",
		relayed(func(s cluster.RelayStats) int64 { return s.Received }))
	metrics.Counter("nats_frames_stale_total", "Frames received and dropped as no newer than one already had.",
		relayed(func(s cluster.RelayStats) int64 { return s.Stale }))
	metrics.Counter("nats_frame_reads_total", "Followed seats' frames read afresh (a first frame, a gap, a new owner, an end or a quiet spell).",
		relayed(func(s cluster.RelayStats) int64 { return s.Reads }))
	metrics.Counter("nats_frames_forged_total", "Frames read with an epoch the store has not reached, dropped: no owner made them.",
		relayed(func(s cluster.RelayStats) int64 { return s.Forged }))
	metrics.Counter("nats_slow_consumer_drops_total", "Times NATS dropped messages for a subscriber that fell behind.",
		func() int64 { return int64(m.NATS.SlowConsumers()) })
}

// handOver, in a cluster, hands the node's tables to its peers before the
// Manager is closed: the lease is released, so they claim at once. Only
// the first call hands over; a stop asks twice (as it begins, and as it
// closes the site).
func (m *Mesh) handOver(ctx context.Context, mgr *live.Manager) error {
	if m == nil || !m.handedOver.CompareAndSwap(false, true) {
		return nil
	}
	return mgr.Drain(ctx)
}

// close leaves the cluster, after the tables have stopped.
func (m *Mesh) close() {
	if m == nil {
		return
	}
	m.stop()
	// A site whose assembly failed may have stopped before build.
	if m.Relay != nil {
		m.Relay.Wait()
		m.Peers.Wait()
	}
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
