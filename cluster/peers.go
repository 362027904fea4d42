package cluster

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/nats-io/nats.go"

	"bullshit/store"
)

// A node cut off from its peers must not take tables they can't reach, nor
// tell a load balancer it is ready. Peers checks, every PeersEvery, which
// of the nodes the store says are alive answer this node over NATS. The
// node is in the mesh while those it reaches, itself included, are more
// than half of the live nodes; at exactly half, the side with the node
// that has held its lease longest is in, so a cut-off pair still has one
// side serving and a fresh node that can't reach an old one is the one
// left out.

// PeersConfig configures Peers. Zero durations take the defaults.
type PeersConfig struct {
	Node string
	Conn *nats.Conn
	// Live reads the nodes whose leases are running, longest-held first
	// (store.LiveNodes).
	Live   func(ctx context.Context) ([]store.LiveNode, error)
	Logger *slog.Logger
	// Every is how often the check runs; Wait how long a peer has to
	// answer.
	Every, Wait time.Duration
	// Changed, when set, is called after the node joins or leaves the mesh.
	Changed func(in bool)
}

// The defaults: a check a second, a peer answering within one.
const (
	DefaultPeersEvery = time.Second
	DefaultPeersWait  = time.Second
)

// Peers is a node's view of whether it is in the mesh.
type Peers struct {
	cfg PeersConfig
	sub *nats.Subscription

	mu sync.Mutex
	// err is why the node is out of the mesh; nil while it is in. misses
	// counts checks in a row that found it out: it leaves after two, so
	// one slow answer doesn't take it out.
	err    error
	misses int
	// done is closed once the checks have stopped; nil until Start.
	done chan struct{}
}

// errNotChecked: the first check hasn't finished.
var errNotChecked = errors.New("cluster: the peers haven't been checked yet")

// NewPeers makes a node's Peers, out of the mesh until Start's first check
// finds it in.
func NewPeers(cfg PeersConfig) *Peers {
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	if cfg.Every <= 0 {
		cfg.Every = DefaultPeersEvery
	}
	if cfg.Wait <= 0 {
		cfg.Wait = DefaultPeersWait
	}
	return &Peers{cfg: cfg, err: errNotChecked}
}

// Start answers other nodes' checks of this node and checks them, until
// ctx ends; Wait waits for that. Call it once.
func (p *Peers) Start(ctx context.Context) error {
	sub, err := p.cfg.Conn.Subscribe(nodeSubject(p.cfg.Node), func(m *nats.Msg) { _ = m.Respond(nil) })
	if err != nil {
		return fmt.Errorf("cluster: answering the peers' checks: %w", err)
	}
	p.sub, p.done = sub, make(chan struct{})
	go p.run(ctx)
	return nil
}

// nodeSubject is where node answers its peers' checks.
func nodeSubject(node string) string { return "bullshit.node." + node }

// Ready is nil while the node is in the mesh, else why it is not.
func (p *Peers) Ready() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.err
}

// In reports whether the node is in the mesh.
func (p *Peers) In() bool { return p.Ready() == nil }

// Wait waits until the checks have stopped, after their context ended; at
// once if they never started. Call it from Start's caller, after Start.
func (p *Peers) Wait() {
	if p.done != nil {
		<-p.done
	}
}

func (p *Peers) run(ctx context.Context) {
	defer close(p.done)
	defer func() { _ = p.sub.Unsubscribe() }()
	t := time.NewTimer(0)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		p.record(p.check(ctx))
		t.Reset(p.cfg.Every)
	}
}

// check asks every other live node at once, and says why the node is out
// of the mesh, or nil.
func (p *Peers) check(ctx context.Context) error {
	nodes, err := p.cfg.Live(ctx)
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return fmt.Errorf("cluster: reading the live nodes: %w", err)
	}
	answered := make([]bool, len(nodes))
	var wg sync.WaitGroup
	for i, n := range nodes {
		if n.ID == p.cfg.Node {
			answered[i] = true
			continue
		}
		wg.Go(func() {
			rctx, cancel := context.WithTimeout(ctx, p.cfg.Wait)
			defer cancel()
			_, err := p.cfg.Conn.RequestWithContext(rctx, nodeSubject(n.ID), nil)
			answered[i] = err == nil
		})
	}
	wg.Wait()
	return inMesh(p.cfg.Node, nodes, answered)
}

// inMesh is the rule: nodes are the live nodes, longest-held first, and
// answered says which of them this node reached (itself among them).
func inMesh(self string, nodes []store.LiveNode, answered []bool) error {
	reached, others := 0, 0
	selfLive := false
	for i, n := range nodes {
		if n.ID == self {
			selfLive = true
			continue
		}
		others++
		if answered[i] {
			reached++
		}
	}
	if !selfLive {
		others = len(nodes)
	}
	in := 1 + reached
	total := 1 + others
	switch {
	case 2*in > total:
		return nil
	case 2*in == total && answered[0]: // the longest-held is on this side
		return nil
	}
	return fmt.Errorf("cluster: cut off from the other nodes: this node reaches %d of the %d others alive", reached, others)
}

// record takes a check's result, and logs a change of state once.
func (p *Peers) record(err error) {
	if errors.Is(err, context.Canceled) {
		return
	}
	p.mu.Lock()
	was := p.err
	switch {
	case err == nil:
		p.err, p.misses = nil, 0
	case was != nil:
		p.err = err
	default:
		p.misses++
		if p.misses >= 2 {
			p.err = err
		}
	}
	now := p.err
	p.mu.Unlock()
	first := errors.Is(was, errNotChecked)
	switch {
	case was != nil && now == nil:
		p.cfg.Logger.Info("in the mesh: reaching enough of the other nodes to take tables")
	case now != nil && (was == nil || first):
		p.cfg.Logger.Warn("out of the mesh: claiming no tables and reporting not ready", "err", now)
	default:
		return
	}
	if p.cfg.Changed != nil {
		p.cfg.Changed(now == nil)
	}
}
