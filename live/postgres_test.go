package live

import (
	"context"
	"net/url"
	"strings"
	"testing"
	"time"

	"bullshit/store"
	"bullshit/store/storetest"
)

// TestLostCommitOnPostgresIsSettled plays a bot table through the real
// Manager and store on PostgreSQL, over a proxy that cuts every connection
// just after a bot's action has committed and before its answer comes back,
// and keeps them cut for a while: the table waits without moving, then
// carries on by itself once the store answers, having shown only what its
// stored log replays to, and logs its trouble once as it begins and once as
// it ends.
func TestLostCommitOnPostgresIsSettled(t *testing.T) {
	if !storetest.HavePostgres() {
		t.Skipf("%s is not set to a PostgreSQL URL", storetest.PostgresEnv)
	}
	ctx := context.Background()
	direct := storetest.PostgresURL(t)
	u, err := url.Parse(direct)
	if err != nil {
		t.Fatal(err)
	}
	proxy := storetest.NewProxy(t, u.Host)
	open := func(u string) *store.Store {
		st, err := store.Open(ctx, u)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { st.Close() })
		return st
	}
	f := &fixture{t: t, ctx: ctx, clock: NewFakeClock(epoch), pub: newRecorder()}
	f.captureLogs()
	through := open(proxy.URL(direct))
	// The test reads the store directly, around the proxy.
	f.st = open(direct)
	f.m = f.open(through)

	id := f.botGame(4)
	f.step(id, 20*time.Second)
	n := f.actions(id)
	cut := proxy.CutAfter("INSERT INTO actions", true)
	f.until(id, time.Minute, func() bool {
		select {
		case <-cut:
			return true
		default:
			return false
		}
	})
	if got := f.actions(id); got != n+1 {
		t.Fatalf("got %d stored actions, want the %d the cut append committed", got, n+1)
	}
	f.checkFrozen(id, 10*time.Second)

	proxy.Restore()
	f.advance(id, 10*time.Second)
	if got := f.actions(id); got <= n+1 {
		t.Errorf("got %d stored actions once the store answered, want the table to carry on past %d", got, n+1)
	}
	f.checkShownIsStored(id)
	f.checkTrouble(id, 1)
	for _, word := range []string{"duplicate", store.ErrNotNext.Error()} {
		if strings.Contains(f.logs.String(), word) {
			t.Errorf("got %q in the log, want no append refused:\n%s", word, f.logs)
		}
	}
	if marks := f.logs.matching("ERROR", "alive", nil); len(marks) > 1 {
		t.Errorf("got %d error lines for the alive mark, want at most one:\n%s", len(marks), f.logs)
	}
	f.checkRestartShowsTheSame(id)
}
