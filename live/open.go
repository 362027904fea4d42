package live

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"bullshit/errcode"
	"bullshit/game"
	"bullshit/store"
)

// Tables waiting for players cost a goroutine and a timer each until they
// start, so there is a bound on how many there are and how long they wait.
const (
	// ExpireOpenAfter is how long an open table waits for its next player:
	// counted from its creation or its latest join, it is then closed,
	// stored as ended without a start, so it never comes back.
	ExpireOpenAfter = 30 * time.Minute
	// DefaultMaxOpen caps the open tables of the whole server: far more
	// than people gather at once, few enough that their goroutines and
	// timers stay a small part of what the server holds.
	DefaultMaxOpen = 1000
	// DefaultMaxOpenPerAddress caps the open tables opened from one
	// address: a household's few, not a script's thousands.
	DefaultMaxOpenPerAddress = 10
)

// openCaps counts the open tables, to bound them. It is guarded by the
// Manager's mu.
type openCaps struct {
	max, perAddress int
	// count is the open tables, running or being opened, and byAddr the
	// same by address key.
	count  int
	byAddr map[string]int
}

func newOpenCaps(max, perAddress int) openCaps {
	if max <= 0 {
		max = DefaultMaxOpen
	}
	if perAddress <= 0 {
		perAddress = DefaultMaxOpenPerAddress
	}
	return openCaps{max: max, perAddress: perAddress, byAddr: map[string]int{}}
}

// add counts n more open tables from addr.
func (c *openCaps) add(addr string, n int) {
	c.count += n
	if c.byAddr[addr] += n; c.byAddr[addr] == 0 {
		delete(c.byAddr, addr)
	}
}

// holdOpen holds a place for one more open table opened from addr (a key
// from ratelimit.AddressKey, "" for none), or refuses past either cap. release gives
// the place back; by then the table is running, and counted as such (see
// Manager.add), or was never opened.
func (m *Manager) holdOpen(addr string) (release func(), err error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	caps := &m.open
	if mine := caps.byAddr[addr]; addr != "" && mine >= caps.perAddress {
		return nil, refuse(errcode.TooManyTables, fmt.Sprintf(
			"You have %d tables waiting for players already: start one, or end one you don't need, before you open another.", mine))
	}
	if caps.count >= caps.max {
		return nil, refuse(errcode.LobbyFull,
			"The server has as many tables waiting for players as it can hold: join one of them, or try again in a few minutes.")
	}
	caps.add(addr, 1)
	return func() {
		m.mu.Lock()
		defer m.mu.Unlock()
		caps.add(addr, -1)
	}, nil
}

// countOpen counts t among the open tables if it is one. The caller holds
// m.mu, and t's goroutine hasn't started.
func (m *Manager) countOpen(t *table) {
	if t.snap.Load().summary.Status == game.StatusOpen {
		t.countedOpen.Store(true)
		m.open.add(t.addr, 1)
	}
}

// leftOpen frees the place of a table that no longer waits for players (it
// started, ended, closed or broke, or stopped with the server). Only the
// first call after countOpen counts.
func (m *Manager) leftOpen(t *table) {
	if !t.countedOpen.CompareAndSwap(true, false) {
		return
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	m.open.add(t.addr, -1)
}

// expire closes an open table whose wait for players is over, at its own
// time: it is stored as ended, without a start, so it doesn't come back at
// the next start. The close is conditional on the game being open, so
// trying it again settles one whose answer was lost (refused as over, it
// had committed); until then nobody joins (see unknownWrite).
func (t *table) expire(at time.Time) {
	if t.writable() != nil {
		return
	}
	closeTable := func(ctx context.Context) (bool, error) {
		err := t.m.st.FinishGame(ctx, t.fence(), t.id, game.StatusEnded, at, 0, false, nil, nil)
		if err != nil && !errors.Is(err, store.ErrOver) {
			return false, err
		}
		t.wrote()
		t.game.Status, t.game.EndedAt = game.StatusEnded, at
		t.over = true
		t.m.log.Info("an open table nobody joined in time was closed", slog.String("game", t.id))
		return true, nil
	}
	t.lost("the close of the open table", closeTable)
}

// openSince is when an open table rebuilt at a start began its wait: its
// creation, or, when someone besides the host has joined (join times aren't
// stored), the start, so a table people gathered at gets a full wait.
func openSince(g store.Game, seats []store.Seat, now time.Time) time.Time {
	for _, s := range seats {
		if s.No != g.Host && s.Kind == game.SeatPerson {
			return later(g.CreatedAt, now)
		}
	}
	return g.CreatedAt
}
