package live

import (
	"errors"
	"fmt"
	"log/slog"
	"net/netip"
	"time"

	"bullshit/store"
)

// Tables waiting for players cost a goroutine and a timer each until they
// start, so there is a bound on how many there are and how long they wait.
const (
	// ExpireOpenAfter is how long an open table waits for its next player:
	// counted from its creation or its latest join, it is then closed,
	// stored as ended without a start, so it never comes back.
	ExpireOpenAfter = 30 * time.Minute
	// DefaultMaxOpen caps the open tables of the whole server.
	DefaultMaxOpen = 1000
	// DefaultMaxOpenPerAddress caps the open tables opened from one
	// address: a household's few, not a script's thousands.
	DefaultMaxOpenPerAddress = 10
)

// openCaps bounds the open tables. Its counts are guarded by the Manager's
// mu.
type openCaps struct {
	max, perAddress int
	// held counts tables being opened, not yet running, and heldBy the
	// same by address.
	held   int
	heldBy map[string]int
}

func newOpenCaps(max, perAddress int) openCaps {
	if max <= 0 {
		max = DefaultMaxOpen
	}
	if perAddress <= 0 {
		perAddress = DefaultMaxOpenPerAddress
	}
	return openCaps{max: max, perAddress: perAddress, heldBy: map[string]int{}}
}

// addressKey is the key addr's open tables are counted under: the IP, or
// for IPv6 its /64, which one household or host usually has whole. An
// address that isn't an IP is its own key.
func addressKey(addr string) string {
	ip, err := netip.ParseAddr(addr)
	if err != nil {
		return addr
	}
	ip = ip.Unmap()
	if ip.Is6() {
		return netip.PrefixFrom(ip, 64).Masked().String()
	}
	return ip.String()
}

// holdOpen counts the open tables (those running and those being opened)
// and holds a place for one more opened from addr (a key from addressKey,
// "" for none), or refuses past either cap. release gives the place back;
// once the table is running it is counted there.
func (m *Manager) holdOpen(addr string) (release func(), err error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	caps := &m.open
	total, mine := caps.held, caps.heldBy[addr]
	for _, t := range m.running {
		if t.snap.Load().summary.Status != StatusOpen {
			continue
		}
		total++
		if t.addr == addr {
			mine++
		}
	}
	if addr != "" && mine >= caps.perAddress {
		return nil, refuse(CodeTooManyTables, fmt.Sprintf(
			"You have %d tables waiting for players already: start one, or end one you don't need, before you open another.", mine))
	}
	if total >= caps.max {
		return nil, refuse(CodeLobbyFull,
			"The server has as many tables waiting for players as it can hold: join one of them, or try again in a few minutes.")
	}
	caps.held++
	caps.heldBy[addr]++
	return func() {
		m.mu.Lock()
		defer m.mu.Unlock()
		caps.held--
		if caps.heldBy[addr]--; caps.heldBy[addr] == 0 {
			delete(caps.heldBy, addr)
		}
	}, nil
}

// expire closes an open table whose wait for players is over, at its own
// time: it is stored as ended, without a start, so it doesn't come back at
// the next start. A failed write is tried again later.
func (t *table) expire(at time.Time) {
	ctx, cancel := t.writeContext()
	defer cancel()
	err := t.m.st.FinishGame(ctx, t.id, string(StatusEnded), at, 0, false, nil)
	if err != nil && !errors.Is(err, store.ErrOver) {
		t.m.log.Error("closing an open table failed", slog.String("game", t.id), slog.Any("err", err))
		t.retryAt = t.m.clock.Now().Add(retryAfter)
		return
	}
	t.game.Status, t.game.EndedAt = string(StatusEnded), at
	t.over = true
	t.m.log.Info("an open table nobody joined in time was closed", slog.String("game", t.id))
}

// openSince is when an open table rebuilt at a start began its wait: its
// creation, or, when someone besides the host has joined (join times aren't
// stored), the start, so a table people gathered at gets a full wait.
func openSince(g store.Game, seats []store.Seat, now time.Time) time.Time {
	for _, s := range seats {
		if s.No != g.Host && s.Kind == string(SeatPerson) {
			return later(g.CreatedAt, now)
		}
	}
	return g.CreatedAt
}
