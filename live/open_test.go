package live

import (
	"context"
	"maps"
	"sync"
	"testing"
	"time"

	"bullshit/engine"
	"bullshit/errcode"
	"bullshit/game"
)

// openTable opens a table for three from addr, nobody else seated.
func (f *fixture) openTable(m *Manager, addr string) (game.Joined, error) {
	return m.Create(f.ctx, game.CreateRequest{Options: engine.Standard(3), HostName: "Ann", Address: addr})
}

// settleOpen waits until an open table has done everything due by now,
// closing included.
func (f *fixture) settleOpen(m *Manager, id string) {
	f.t.Helper()
	if _, err := m.do(f.ctx, id, func(*table) error { return nil }); err != nil && err != errOverGame {
		f.t.Fatalf("sync: %v", err)
	}
}

// checkExpired checks a table was closed at its own time: stored as ended,
// never started, at closed.
func (f *fixture) checkExpired(id string, closed time.Time) {
	f.t.Helper()
	g, _, err := f.st.Game(f.ctx, id)
	if err != nil {
		f.t.Fatal(err)
	}
	if g.Status != game.StatusEnded || !g.StartedAt.IsZero() || !g.EndedAt.Equal(closed) {
		f.t.Errorf("got the table stored %s, started %v, ended %v; want ended, never started, at %v", g.Status, g.StartedAt, g.EndedAt, closed)
	}
	if s := f.status(id); s != game.StatusEnded {
		f.t.Errorf("got status %s, want ended", s)
	}
}

func TestAnOpenTableClosesAfterAWaitWithoutAJoin(t *testing.T) {
	f := newFixture(t)
	created := f.clock.Now()
	j, err := f.openTable(f.m, "")
	if err != nil {
		t.Fatal(err)
	}
	id := j.Game.ID
	f.step(id, ExpireOpenAfter-time.Second)
	if s := f.status(id); s != game.StatusOpen {
		t.Fatalf("got status %s a second before the wait is over, want open", s)
	}
	f.clock.Advance(2 * time.Second)
	if _, err := f.m.Join(f.ctx, id, "Bo", 0); codeOf(err) != string(errcode.Conflict) {
		t.Errorf("joining once the wait is over: got %v, want conflict", err)
	}
	f.checkExpired(id, created.Add(ExpireOpenAfter))
	if closed := f.pub.closedCount(id); closed != 1 {
		t.Errorf("the table's streams were closed %d times, want once", closed)
	}
	// It doesn't come back at the next start.
	f.m.Close(f.ctx)
	f.m = f.open(f.st)
	if f.m.running[id] != nil {
		t.Error("the closed table is running again after a restart")
	}
}

func TestAJoinRestartsTheWait(t *testing.T) {
	f := newFixture(t)
	j, err := f.openTable(f.m, "")
	if err != nil {
		t.Fatal(err)
	}
	id := j.Game.ID
	f.step(id, ExpireOpenAfter-time.Minute)
	if _, err := f.m.Join(f.ctx, id, "Bo", 0); err != nil {
		t.Fatal(err)
	}
	joined := f.clock.Now()
	f.step(id, ExpireOpenAfter-time.Second)
	if s := f.status(id); s != game.StatusOpen {
		t.Fatalf("got status %s before the wait after the join is over, want open", s)
	}
	f.clock.Advance(time.Second)
	f.settleOpen(f.m, id)
	f.checkExpired(id, joined.Add(ExpireOpenAfter))
}

// TestARestartClosesTheTablesWhoseWaitIsOver checks a table nobody joined
// closes at its own time after a restart, and one someone joined gets a full
// wait from the restart (join times aren't stored).
func TestARestartClosesTheTablesWhoseWaitIsOver(t *testing.T) {
	f := newFixture(t)
	created := f.clock.Now()
	alone, err := f.openTable(f.m, "")
	if err != nil {
		t.Fatal(err)
	}
	gathering, err := f.openTable(f.m, "")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.m.Join(f.ctx, gathering.Game.ID, "Bo", 0); err != nil {
		t.Fatal(err)
	}
	f.m.Close(f.ctx)
	f.clock.Advance(ExpireOpenAfter + time.Hour)
	restarted := f.clock.Now()

	f.m = f.open(f.st)
	f.settleOpen(f.m, alone.Game.ID)
	f.checkExpired(alone.Game.ID, created.Add(ExpireOpenAfter))
	id := gathering.Game.ID
	f.step(id, ExpireOpenAfter-time.Second)
	if s := f.status(id); s != game.StatusOpen {
		t.Fatalf("got status %s for the table people joined before the wait from the restart is over, want open", s)
	}
	f.clock.Advance(time.Second)
	f.settleOpen(f.m, id)
	f.checkExpired(id, restarted.Add(ExpireOpenAfter))
}

func TestOpenTablesAreCapped(t *testing.T) {
	f := newFixture(t)
	f.m.Close(f.ctx)
	m, err := startManager(f.ctx, Config{Clock: f.clock, MaxOpen: 4, MaxOpenPerAddress: 2}, f.st, Hooks{Publisher: f.pub})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { m.Close(context.Background()) })
	f.m = m

	var ids []string
	steps := []struct {
		name, addr string
		want       errcode.Code
	}{
		{"a first", "192.0.2.1", ""},
		{"a second", "192.0.2.1", ""},
		{"a third from the address", "192.0.2.1", errcode.TooManyTables},
		{"the same address as IPv6", "::ffff:192.0.2.1", errcode.TooManyTables},
		{"another address", "2001:db8:1:2::1", ""},
		{"one in the same /64", "2001:db8:1:2::ffff", ""},
		{"a third in the /64", "2001:db8:1:2:aaaa::1", errcode.TooManyTables},
		{"a fifth in all", "192.0.2.9", errcode.LobbyFull},
		{"one the server opens itself", "", errcode.LobbyFull},
	}
	for _, s := range steps {
		j, err := f.openTable(m, s.addr)
		if got := errcode.Code(codeOf(err)); got != s.want {
			t.Fatalf("%s: got %q (%v), want %q", s.name, got, err, s.want)
		}
		if err == nil {
			ids = append(ids, j.Game.ID)
		}
	}
	first := ids[0]
	// A table that starts waits no more: its place is free.
	for _, name := range []string{"Bo", "Cy"} {
		if _, err := m.Join(f.ctx, first, name, 0); err != nil {
			t.Fatal(err)
		}
	}
	if err := m.Start(f.ctx, first, 0); err != nil {
		t.Fatal(err)
	}
	j, err := f.openTable(m, "192.0.2.1")
	if err != nil {
		t.Fatalf("after a start: %v", err)
	}
	// So is that of a table whose wait is over.
	f.clock.Advance(ExpireOpenAfter)
	for _, id := range append(ids[1:], j.Game.ID) {
		f.settleOpen(m, id)
	}
	for i, want := range []errcode.Code{"", "", errcode.TooManyTables} {
		if _, err := f.openTable(m, "198.51.100.7"); errcode.Code(codeOf(err)) != want {
			t.Fatalf("table %d after the others closed: got %v, want %q", i+1, err, want)
		}
	}
	// The counts are of the two tables open now, nothing left over.
	m.mu.RLock()
	count, byAddr := m.open.count, maps.Clone(m.open.byAddr)
	m.mu.RUnlock()
	if want := map[string]int{"198.51.100.7": 2}; count != 2 || !maps.Equal(byAddr, want) {
		t.Errorf("got %d open tables counted, by address %v; want 2, %v", count, byAddr, want)
	}
}

// TestTheCapHoldsUnderConcurrentCreates checks many creates at once from
// one address open no more than the cap.
func TestTheCapHoldsUnderConcurrentCreates(t *testing.T) {
	f := newFixture(t)
	const tries = 40
	var (
		wg      sync.WaitGroup
		mu      sync.Mutex
		created int
	)
	for range tries {
		wg.Go(func() {
			_, err := f.openTable(f.m, "203.0.113.5")
			mu.Lock()
			defer mu.Unlock()
			switch codeOf(err) {
			case "":
				created++
			case string(errcode.TooManyTables):
			default:
				t.Errorf("got %v, want a table or too_many_tables", err)
			}
		})
	}
	wg.Wait()
	if created != DefaultMaxOpenPerAddress {
		t.Errorf("got %d tables open from one address, want %d", created, DefaultMaxOpenPerAddress)
	}
}
