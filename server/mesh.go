package server

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"bullshit/api"
	"bullshit/api/push"
	"bullshit/cluster"
	"bullshit/live"
	"bullshit/store"
	"bullshit/web"
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
}

// DefaultLease is a few seconds: a dead node's tables wait about that long
// for a new owner, and a node must renew well inside it.
const DefaultLease = 5 * time.Second

// games is the table runtime as both the API and the pages call it: the
// Manager on a single node, the mesh's Tables in a cluster.
type games interface {
	api.Games
	web.Games
}

// Mesh is a node's part in a cluster: its NATS connection, the Tables that
// send calls to the nodes running their tables, and the Frames that carry
// the tables' frames between nodes.
type Mesh struct {
	NATS   *cluster.NATS
	Tables *cluster.Tables
	Frames *cluster.Frames
	ctx    context.Context
	stop   context.CancelFunc
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
	n, err := cluster.StartNATS(ctx, cfg)
	if err != nil {
		stop()
		return nil, err
	}
	m := &Mesh{NATS: n, ctx: ctx, stop: stop}
	m.Tables = cluster.NewTables(ctx, cluster.TablesConfig{Conn: n.Conn, Logger: logger})
	return m, nil
}

// withHub makes the Frames over the node's hub; the hub's Watch, made
// before, calls follow.
func (m *Mesh) withHub(hub *push.Hub, logger *slog.Logger) {
	if m == nil {
		return
	}
	m.Frames = cluster.NewFrames(m.ctx, cluster.FramesConfig{Hub: hub, Conn: m.NATS.Conn, Tables: m.Tables, Logger: logger})
}

// follow is the hub's Watch in a cluster; nil on a single node.
func (m *Mesh) follow() func(game string, seat int, watching bool) {
	if m == nil {
		return nil
	}
	return func(game string, seat int, watching bool) {
		if m.Frames != nil {
			m.Frames.Follow(game, seat, watching)
		}
	}
}

// publisher is what the tables publish to: the hub, and in a cluster the
// other nodes too.
func (m *Mesh) publisher(hub *push.Hub) live.Publisher {
	if m == nil {
		return hub
	}
	return m.Frames
}

// games is what the API and the pages call: in a cluster, the Tables that
// send each call to the node running its table.
func (m *Mesh) games(mgr *live.Manager) games {
	if m == nil {
		return mgr
	}
	m.Tables.SetManager(mgr)
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
