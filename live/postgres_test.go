package live

import (
	"context"
	"net/url"
	"strings"
	"testing"
	"time"

	"bullshit/engine"
	"bullshit/errcode"
	"bullshit/internal/clocks/fakeclock"
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
	f := &fixture{t: t, ctx: ctx, clock: fakeclock.New(epoch), pub: newRecorder()}
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

// TestPersonMoveCutAfterItsCommitOnPostgres makes a person's move through
// the real Manager and store on PostgreSQL, over a proxy that resets the
// connection once the move's insert has committed on the server, before
// its answer comes back: the answer never says the move was not saved. With
// the database out of reach after the cut the table can't ask, and says the
// outcome is unknown; with it back at once, the table reads the move back
// and it stands as acknowledged. Either way the move is stored once, and
// the same move made again is refused as stale.
func TestPersonMoveCutAfterItsCommitOnPostgres(t *testing.T) {
	if !storetest.HavePostgres() {
		t.Skipf("%s is not set to a PostgreSQL URL", storetest.PostgresEnv)
	}
	tests := []struct {
		name string
		down bool // the database stays out of reach after the cut
		want string
	}{
		{"database out of reach after the cut", true, string(errcode.Unknown)},
		{"database back at once", false, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
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
			f := &fixture{t: t, ctx: ctx, clock: fakeclock.New(epoch), pub: newRecorder()}
			f.captureLogs()
			through := open(proxy.URL(direct))
			f.st = open(direct)
			f.m = f.open(through)

			id, _ := personGame(f)
			f.awaitTurn(id, false)
			n := f.actions(id)
			play, _ := f.view(id, 0).Fallback()
			cut := proxy.CutAfter("INSERT INTO actions", tt.down)
			_, err = f.m.Act(ctx, id, play)
			select {
			case <-cut:
			default:
				t.Fatalf("got %v, and the proxy cut nothing: the move's insert never went through it", err)
			}
			if got := codeOf(err); got != tt.want || (tt.want == "" && err != nil) {
				t.Fatalf("got %v (code %q) for a move committed as its connection was reset, want code %q", err, got, tt.want)
			}
			stored, err := f.st.Actions(ctx, id)
			if err != nil {
				t.Fatal(err)
			}
			if len(stored) != n+1 || stored[n].Action.Seat != 0 || stored[n].Action.No != play.No {
				t.Fatalf("got %+v after the log's %d actions, want the person's move, once", stored[n:], n)
			}

			proxy.Restore()
			f.step(id, 2*time.Second)
			if v := f.view(id, 0); v.Plays < play.No+1 {
				t.Errorf("got the view at play %d, want the stored play %d to stand", v.Plays, play.No+1)
			}
			if _, err := f.m.Act(ctx, id, play); codeOf(err) != string(engine.CodeStale) {
				t.Errorf("got %v for the move made again, want it refused as stale", err)
			}
			f.checkShownIsStored(id)
		})
	}
}
