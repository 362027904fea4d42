package live

import (
	"container/list"
	"context"
	"errors"
	"log/slog"
	"sync"

	"bullshit/engine"
	"bullshit/errcode"
)

// finishedGames is how many games that are over keep their final state in
// memory. A state is mostly its log, packed (engine/line.go): about 50 KB
// for a ten-seat game of some 60 plays (measured on the final states of
// bot games), so the cache holds some 13 MB in the usual case.
const finishedGames = 256

// finished keeps the final state of the games most recently over or read,
// so that reading a finished game's views and log (every browser's
// reconnect, every review of its log) does not replay it from the store.
//
// It is a cache rather than views stored with the finish: the final views
// and log follow from the stored actions, so storing them would copy the
// game into a second encoding, the engine's views, which would itself have
// to stay readable forever. A table hands its state over as it stops, so a
// game just over, the one being read most, is never replayed at all; after
// a restart or an eviction a game is replayed once, by one reader, and kept.
//
// A state that is over never changes, and View and Log only read it and
// copy what they return, so readers share it without a lock.
type finished struct {
	mu      sync.Mutex
	max     int
	order   *list.List // of *finishedGame, most recently used first
	byID    map[string]*list.Element
	loading map[string]*loading
}

type finishedGame struct {
	id    string
	state *engine.State
}

// loading is a replay under way, for those asking for the same game to wait
// on rather than replay it again.
type loading struct {
	done  chan struct{}
	state *engine.State
	err   error
}

func newFinished(max int) *finished {
	return &finished{max: max, order: list.New(), byID: map[string]*list.Element{}, loading: map[string]*loading{}}
}

// put keeps the state of a game that is over.
func (c *finished) put(id string, s *engine.State) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.keep(id, s)
}

func (c *finished) keep(id string, s *engine.State) {
	if e, ok := c.byID[id]; ok {
		e.Value.(*finishedGame).state = s
		c.order.MoveToFront(e)
		return
	}
	c.byID[id] = c.order.PushFront(&finishedGame{id: id, state: s})
	for c.order.Len() > c.max {
		oldest := c.order.Back()
		c.order.Remove(oldest)
		delete(c.byID, oldest.Value.(*finishedGame).id)
	}
}

// get is the state of game id: kept, being loaded by another caller, or
// loaded now. load reports whether its state is final and may be kept (a
// game that is not over may yet change).
func (c *finished) get(ctx context.Context, id string, load func() (s *engine.State, final bool, err error)) (*engine.State, error) {
	c.mu.Lock()
	if e, ok := c.byID[id]; ok {
		c.order.MoveToFront(e)
		c.mu.Unlock()
		return e.Value.(*finishedGame).state, nil
	}
	if l, ok := c.loading[id]; ok {
		c.mu.Unlock()
		select {
		case <-l.done:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
		if l.err == nil {
			return l.state, nil
		}
		// The other caller's load failed, perhaps only for its own
		// context: load for this one.
		s, _, err := load()
		return s, err
	}
	l := &loading{done: make(chan struct{})}
	c.loading[id] = l
	c.mu.Unlock()

	s, final, err := load()
	l.state, l.err = s, err
	c.mu.Lock()
	delete(c.loading, id)
	if err == nil && final {
		c.keep(id, s)
	}
	c.mu.Unlock()
	close(l.done)
	return s, err
}

// final is a game that is not running, as it ended (or as far as it was
// stored), from memory when it can be.
func (m *Manager) final(ctx context.Context, id string) (*engine.State, error) {
	return m.finished.get(ctx, id, func() (*engine.State, bool, error) {
		s, err := m.replayed(ctx, id)
		if err != nil {
			return nil, false, err
		}
		return s, s.Over(), nil
	})
}

// errUnknownRules is a game the server cannot show: it was played under
// rules this server does not have.
var errUnknownRules = refuse(errcode.Conflict, "This game was played under rules this server doesn't have, so it can't be shown.")

// notReplayed is the refusal of a game whose replay failed.
func (m *Manager) notReplayed(id string, err error) error {
	if errors.Is(err, engine.ErrUnknownRules) {
		m.log.Error("a game's rules are unknown", slog.String("game", id), slog.Any("err", err))
		return errUnknownRules
	}
	return m.unsaved(id, err)
}
