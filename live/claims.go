package live

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"slices"
	"time"

	"bullshit/game"
	"bullshit/store"
)

// A node's tables come and go by claims: at the start it takes back its
// own games (a restart under its name) and claims the orphans, then looks
// again every ClaimEvery. A claimed game is rebuilt from its log as a
// restart rebuilds it, the time it was ownerless counting against nobody:
// the old owner's lease end is its last moment known running, and the
// table resumes from there (resumeAfterDown). A table stops when a fenced
// write is refused, when the lease lapses, or on a drain (takeAway), and
// answers the request it was serving errcode.Moved (errcode.Unknown if a
// write the request asked for may be stored: see handOver).

// loadCluster starts a node: it takes its lease, then its own games back
// and the orphans, and starts the goroutines that hold the lease and claim.
func (m *Manager) loadCluster(ctx context.Context) error {
	s, err := m.grant(ctx)
	if err != nil {
		return fmt.Errorf("live: take the lease of node %s: %w", m.cl.cfg.Name, err)
	}
	// All at once: a game taken back is still this node's, so a second
	// call would take it again.
	claims, err := m.cl.st.Reclaim(ctx, m.cl.cfg.Name, nil, 0)
	if err != nil {
		s.End()
		return fmt.Errorf("live: take back the games of node %s: %w", m.cl.cfg.Name, err)
	}
	m.adopt(ctx, claims, func(store.Claim) time.Time { return time.Time{} })
	if err := m.claimOrphans(ctx); err != nil {
		s.End()
		return err
	}
	m.all.Go(func() { m.holdLease(s) })
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
		// Games stopped when the lease lapsed that a renewal's take-back
		// missed (a table that stopped by itself just after it).
		m.reclaimDropped(m.ctx)
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

func (n *clusterNode) claimNow() {
	select {
	case n.wake <- struct{}{}:
	default:
	}
}

// claimOrphans claims orphaned games while the node serves, a batch at a
// time, and starts their tables.
func (m *Manager) claimOrphans(ctx context.Context) error {
	for m.mayClaim() {
		claims, err := m.cl.st.ClaimOrphans(ctx, m.cl.cfg.Name, claimBatch)
		if err != nil {
			return fmt.Errorf("live: claim orphaned games: %w", err)
		}
		alive := func(c store.Claim) time.Time {
			if c.LeaseEnded.IsZero() {
				return time.Time{}
			}
			// The old owner's lease end in this node's clock: how long ago
			// the database saw it end.
			return m.clock.Now().Add(-c.Orphaned)
		}
		m.cl.claiming.Lock()
		if m.cl.serving() {
			m.adopt(ctx, claims, alive)
		} else {
			// The lease lapsed as it claimed: the games are this node's
			// in the store, to take back with the others.
			for _, c := range claims {
				m.cl.drop(c.Game, alive(c))
			}
		}
		m.cl.claiming.Unlock()
		if len(claims) < claimBatch {
			return nil
		}
	}
	return nil
}

// drop notes a game this node owns in the store but runs no table for,
// since at (the earliest, if noted twice).
func (n *clusterNode) drop(game string, at time.Time) {
	n.dropMu.Lock()
	defer n.dropMu.Unlock()
	if _, ok := n.dropped[game]; !ok {
		n.dropped[game] = at
	}
}

// reclaimDropped takes back the games this node stopped when its lease
// lapsed, now that it holds the lease again: nobody else claims a game
// while its owner's lease runs.
func (m *Manager) reclaimDropped(ctx context.Context) {
	n := m.cl
	n.claiming.Lock()
	defer n.claiming.Unlock()
	n.dropMu.Lock()
	dropped := maps.Clone(n.dropped)
	n.dropMu.Unlock()
	if len(dropped) == 0 || !n.serving() {
		return
	}
	ids := slices.Collect(maps.Keys(dropped))
	claims, err := n.st.Reclaim(ctx, n.cfg.Name, ids, 0)
	if err != nil {
		m.log.Warn("taking back the games stopped when the lease lapsed failed; trying again", slog.Any("err", err))
		return
	}
	// Those not taken back are another node's now, or over.
	n.dropMu.Lock()
	for _, id := range ids {
		delete(n.dropped, id)
	}
	n.dropMu.Unlock()
	m.adopt(ctx, claims, func(c store.Claim) time.Time { return dropped[c.Game] })
}

// adopt starts the tables of games this node just claimed, each at its
// claim's epoch, rebuilt from the store (read for all of them at once) and
// resumed from alive(claim) (zero: from its last change). A table of one
// still stopping here is waited for first.
func (m *Manager) adopt(ctx context.Context, claims []store.Claim, alive func(store.Claim) time.Time) {
	if len(claims) == 0 {
		return
	}
	ids := make([]string, len(claims))
	for i, c := range claims {
		ids[i] = c.Game
	}
	read, err := m.cl.st.ReadGames(ctx, ids)
	if err != nil {
		// The store fails: the games are this node's, to take back.
		m.log.Error("claimed games could not be read; taking them back later", slog.Any("err", err))
		for _, c := range claims {
			m.cl.drop(c.Game, alive(c))
		}
		return
	}
	games := make(map[string]store.Running, len(read))
	for _, r := range read {
		games[r.Game.ID] = r
	}
	for _, c := range claims {
		if r, ok := games[c.Game]; ok {
			m.adoptOne(ctx, c, r, alive(c))
		}
	}
}

// adoptOne starts the table of one claimed game, as read.
func (m *Manager) adoptOne(ctx context.Context, c store.Claim, r store.Running, alive time.Time) {
	m.mu.RLock()
	old := m.running[c.Game]
	m.mu.RUnlock()
	if old != nil {
		old.takeAway(errReplaced)
		select {
		case <-old.done:
		case <-ctx.Done():
			return
		}
	}
	var t *table
	g, seats := r.Game, r.Seats
	if g.Status == game.StatusOpen {
		t = m.newTable(g, seats)
		t.openSince = openSince(g, seats, m.clock.Now())
	} else {
		t = m.rebuildRunning(ctx, r, alive)
	}
	// The claim's epoch, whatever the row read after it says: a later
	// one would be another node's, which the fence must refuse.
	t.game.Owner, t.game.Epoch = m.cl.cfg.Name, c.Epoch
	m.cl.claims.Add(1)
	if err := m.add(t); err != nil {
		return
	}
	// Running again here: not to be taken back (a lapse may have noted
	// the table that stopped before this one).
	m.cl.dropMu.Lock()
	delete(m.cl.dropped, c.Game)
	m.cl.dropMu.Unlock()
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
// told to try again (the node that got it retries on the new owner), unless
// a write it asked for is stored or may be (the lease lapsed as it
// committed, or the table stopped catching up after it): that request is
// told its outcome is unknown, never to make it again as if not made.
// Nothing more is published or written.
func (t *table) handOver(h *handedOver) {
	// Runs says so before the request hears it.
	t.gone.CompareAndSwap(nil, h)
	switch {
	case errors.Is(h.why, store.ErrFenced):
		t.m.cl.fenced.Add(1)
	case errors.Is(h.why, errLapsed):
		// Still this node's in the store: taken back once it holds its
		// lease again.
		t.m.cl.drop(t.id, t.m.clock.Now())
	}
	t.m.log.Info("the table left this node", slog.String("game", t.id), slog.Int64("epoch", t.game.Epoch), slog.String("why", h.why.Error()))
	if t.serving != nil {
		answer := errMoved
		if t.serving.mayBeStored {
			answer = errUnknown
		}
		t.serving.reply <- answer
		t.serving = nil
	}
}

// fence is what the table's writes are fenced on: its game's owner and the
// epoch it was claimed at; a single server's is the zero Fence.
func (t *table) fence() store.Fence {
	return store.Fence{Owner: t.game.Owner, Epoch: t.game.Epoch}
}

// writeContext bounds one of the table's writes (Manager.writeContext).
func (t *table) writeContext() (context.Context, context.CancelFunc) {
	return t.m.writeContext()
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
	if err == nil && (t.hold == nil || t.hold.Lapsed()) {
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
	if s := g.Status; s == game.StatusOpen || s == game.StatusLive {
		return errMoved
	}
	return nil
}

// Owner is the node the store says holds game id (or last held it, when
// its status says it is over; "" on a single server) and the game's
// status. A game that does not exist is refused as errcode.NotFound.
func (m *Manager) Owner(ctx context.Context, id string) (node string, status game.Status, err error) {
	g, _, err := m.st.Game(ctx, id)
	if err != nil {
		return "", "", m.fromStore(id, err)
	}
	return g.Owner, g.Status, nil
}
