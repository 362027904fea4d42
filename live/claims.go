package live

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"bullshit/store"
)

// A node's tables come and go by claims: at the start it takes back its
// own games (a restart under its name) and claims the orphans, then looks
// again every ClaimEvery. A claimed game is rebuilt from its log as a
// restart rebuilds it, the time it was ownerless counting against nobody:
// the old owner's lease end is its last moment known running, and the
// table resumes from there (resumeAfterDown). A table stops when a fenced
// write is refused, when the lease lapses, or on a drain (takeAway), and
// answers the request it was serving errcode.Moved.

// loadCluster starts a node: it takes its lease, then its own games back
// and the orphans, and starts the lease's and the claims' goroutines.
func (m *Manager) loadCluster(ctx context.Context) error {
	if !m.renew(ctx) {
		return fmt.Errorf("live: take the lease of node %s: the database did not answer", m.cl.cfg.Node)
	}
	for {
		claims, err := m.cl.st.Reclaim(ctx, m.cl.cfg.Node, nil, claimBatch)
		if err != nil {
			return fmt.Errorf("live: take back the games of node %s: %w", m.cl.cfg.Node, err)
		}
		for _, c := range claims {
			m.adopt(ctx, c, time.Time{})
		}
		if len(claims) < claimBatch {
			break
		}
	}
	if err := m.claimOrphans(ctx); err != nil {
		return err
	}
	m.all.Go(m.keepLease)
	m.all.Go(m.watchLease)
	m.all.Go(m.claimLoop)
	return nil
}

// claimLoop claims orphans every ClaimEvery, and at once when asked
// (ClaimNow).
func (m *Manager) claimLoop() {
	timer := time.NewTimer(m.cl.cfg.ClaimEvery)
	defer timer.Stop()
	for {
		select {
		case <-m.ctx.Done():
			return
		case <-timer.C:
			timer.Reset(m.cl.cfg.ClaimEvery)
		case <-m.cl.wake:
		}
		if err := m.claimOrphans(m.ctx); err != nil {
			m.log.Warn("claiming orphaned games failed; trying again", slog.Any("err", err))
		}
	}
}

// ClaimNow asks the node to look for orphaned games at once, as when a peer
// says it is handing its tables over. It does not wait.
func (m *Manager) ClaimNow() {
	if m.cl != nil {
		m.cl.claimNow()
	}
}

func (l *lease) claimNow() {
	select {
	case l.wake <- struct{}{}:
	default:
	}
}

// claimOrphans claims orphaned games while the node serves, a batch at a
// time, and starts their tables.
func (m *Manager) claimOrphans(ctx context.Context) error {
	for m.cl.serving() {
		claims, err := m.cl.st.ClaimOrphans(ctx, m.cl.cfg.Node, claimBatch)
		if err != nil {
			return fmt.Errorf("live: claim orphaned games: %w", err)
		}
		for _, c := range claims {
			alive := time.Time{}
			if !c.LeaseEnded.IsZero() {
				// The old owner's lease end in this node's clock: how long
				// ago the database saw it end.
				alive = m.clock.Now().Add(-c.Orphaned)
			}
			m.adopt(ctx, c, alive)
		}
		if len(claims) < claimBatch {
			return nil
		}
	}
	return nil
}

// reclaimDropped takes back the games this node stopped when its lease
// lapsed, now that it holds the lease again: nobody else claims a game
// while its owner's lease runs.
func (m *Manager) reclaimDropped(ctx context.Context) {
	l := m.cl
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.dropped) == 0 {
		return
	}
	ids := make([]string, 0, len(l.dropped))
	for id := range l.dropped {
		ids = append(ids, id)
	}
	claims, err := l.st.Reclaim(ctx, l.cfg.Node, ids, len(ids))
	if err != nil {
		m.log.Warn("taking back the games stopped when the lease lapsed failed; their tables wait for a claim", slog.Any("err", err))
		return
	}
	for _, c := range claims {
		m.adopt(ctx, c, l.dropped[c.Game])
	}
	clear(l.dropped)
}

// adopt starts the table of a game this node just claimed at c.Epoch,
// rebuilt from the store and resumed from alive (zero: from its last
// change). A table of the game still stopping here is waited for first.
func (m *Manager) adopt(ctx context.Context, c store.Claim, alive time.Time) {
	m.mu.RLock()
	old := m.running[c.Game]
	m.mu.RUnlock()
	if old != nil {
		old.takeAway(errLapsed)
		select {
		case <-old.done:
		case <-ctx.Done():
			return
		}
	}
	var t *table
	err := guard(func() error {
		var err error
		t, err = m.rebuild(ctx, c.Game, alive)
		return err
	})
	if err != nil {
		row, _, rerr := m.st.Game(ctx, c.Game)
		if rerr != nil {
			m.log.Error("a claimed game could not be read", slog.String("game", c.Game), slog.Any("err", rerr))
			return
		}
		t = m.brokenTable(ctx, gameOf(row), fmt.Errorf("rebuilding the game: %w", err))
	}
	// The claim's epoch, whatever the row read after it says: a later
	// one would be another node's, which the fence must refuse.
	t.game.Owner, t.game.Epoch = m.cl.cfg.Node, c.Epoch
	m.cl.claims.Add(1)
	if err := m.add(t); err != nil {
		return
	}
	m.log.Info("game claimed", slog.String("game", c.Game), slog.Int64("epoch", c.Epoch))
}

// Runs reports whether this node runs game's table now.
func (m *Manager) Runs(game string) bool {
	m.mu.RLock()
	defer m.mu.RUnlock()
	t := m.running[game]
	return t != nil && t.gone.Load() == nil
}

// handedOver is why a table stopped without a fault: this node no longer
// holds its game, or is handing it over.
type handedOver struct{ why error }

func (h *handedOver) Error() string { return "the table moved: " + h.why.Error() }
func (h *handedOver) Unwrap() error { return h.why }

// takeAway stops the table after what it is doing: it leaves this node.
func (t *table) takeAway(why error) {
	if t.gone.CompareAndSwap(nil, &handedOver{why}) {
		close(t.moving)
	}
}

// surrender stops the table at once from its own goroutine: a write was
// refused by the fence, or the lease lapsed as it wrote. Nothing is
// acknowledged after it.
func (t *table) surrender(why error) { t.halt(&handedOver{why}) }

// handOver ends a table that left this node: the request it was serving is
// told to try again (the node that got it retries on the new owner), and
// nothing more is published or written.
func (t *table) handOver(h *handedOver) {
	if errors.Is(h.why, store.ErrFenced) {
		t.m.cl.fenced.Add(1)
	}
	t.m.log.Info("the table left this node", slog.String("game", t.id), slog.Int64("epoch", t.game.Epoch), slog.String("why", h.why.Error()))
	if t.serving != nil {
		t.serving.reply <- errMoved
		t.serving = nil
	}
}

// fence is what the table's writes are fenced on: its game's owner and the
// epoch it was claimed at; a single server's is the zero Fence.
func (t *table) fence() store.Fence {
	return store.Fence{Owner: t.game.Owner, Epoch: t.game.Epoch}
}

// writeContext bounds one of the table's writes (Manager.writeContext) and
// carries its fence.
func (t *table) writeContext() (context.Context, context.CancelFunc) {
	ctx, cancel := t.m.writeContext()
	return store.WithFence(ctx, t.fence()), cancel
}

// checkHeld stops the table if the write it just made was refused by the
// fence, or if the lease lapsed while it wrote: it must not acknowledge.
func (t *table) checkHeld(err error) {
	if t.m.cl == nil {
		return
	}
	if errors.Is(err, store.ErrFenced) {
		t.surrender(err)
	}
	if err == nil && t.m.cl.lapsed() {
		t.surrender(errLapsed)
	}
}

// elsewhere is the refusal of a request about a game no table of this node
// runs while the store says it is being played: in a cluster, another node
// runs it (errMoved); one server alone answers as it always did (nil).
func (m *Manager) elsewhere(ctx context.Context, id string) error {
	if m.cl == nil {
		return nil
	}
	g, _, err := m.st.Game(ctx, id)
	if err != nil {
		return m.fromStore(id, err)
	}
	if s := Status(g.Status); s == StatusOpen || s == StatusLive {
		return errMoved
	}
	return nil
}
