package store

import (
	"context"
	"errors"
	"net/url"
	"reflect"
	"testing"
	"time"

	"bullshit/engine"
	"bullshit/store/storetest"
)

// pass is action seq of game, a let-it-go made seq nanoseconds after base.
func pass(game string, seq int) Action {
	return Action{GameID: game, Seq: seq, At: base.Add(time.Duration(seq)), Action: engine.Action{Kind: engine.ActPass, Seat: 1, No: seq}}
}

func TestAppendActions(t *testing.T) {
	forEachDB(t, func(t *testing.T, db testDB) {
		ctx := context.Background()
		s := newStore(t, db)
		mustCreate(t, s, newGame("one", base))
		mustCreate(t, s, newGame("two", base))
		tests := []struct {
			name    string
			batch   []Action
			wantErr error
			want    map[string]int
		}{
			{"empty", nil, nil, map[string]int{"one": 0, "two": 0}},
			{"two games", []Action{pass("one", 1), pass("two", 1), pass("one", 2)}, nil, map[string]int{"one": 2, "two": 1}},
			{"a number used refuses all", []Action{pass("two", 2), pass("one", 2)}, ErrNotNext, map[string]int{"one": 2, "two": 1}},
			{"a number past the end refuses all", []Action{pass("two", 2), pass("one", 4)}, ErrNotNext, map[string]int{"one": 2, "two": 1}},
			{"a gap inside the batch", []Action{pass("one", 3), pass("one", 5)}, ErrNotNext, map[string]int{"one": 2, "two": 1}},
			{"one alone, used", []Action{pass("two", 1)}, ErrNotNext, map[string]int{"one": 2, "two": 1}},
			{"one alone, past the end", []Action{pass("two", 3)}, ErrNotNext, map[string]int{"one": 2, "two": 1}},
			{"one alone, next", []Action{pass("two", 2)}, nil, map[string]int{"one": 2, "two": 2}},
			{"a game that does not exist", []Action{pass("nope", 1)}, ErrNotFound, map[string]int{"one": 2, "two": 2}},
		}
		for _, tt := range tests {
			err := s.AppendActions(ctx, tt.batch)
			if !errors.Is(err, tt.wantErr) || (err == nil) != (tt.wantErr == nil) {
				t.Errorf("%s: got error %v, want %v", tt.name, err, tt.wantErr)
			}
			for game, want := range tt.want {
				got, err := s.Actions(ctx, game)
				if err != nil {
					t.Fatal(err)
				}
				if len(got) != want {
					t.Errorf("%s: game %s has %d actions, want %d", tt.name, game, len(got), want)
				}
				for i, a := range got {
					if w := pass(game, i+1); !reflect.DeepEqual(a, w) {
						t.Errorf("%s: game %s action %d: got %s, want %s", tt.name, game, i, describe(a), describe(w))
					}
				}
			}
		}
	})
}

func TestSettle(t *testing.T) {
	forEachDB(t, func(t *testing.T, db testDB) {
		ctx := context.Background()
		s := newStore(t, db)
		mustCreate(t, s, newGame("g", base))
		if err := s.AppendActions(ctx, []Action{pass("g", 1), pass("g", 2)}); err != nil {
			t.Fatal(err)
		}
		later := pass("g", 2)
		later.At = later.At.Add(time.Millisecond)
		called := pass("g", 2)
		called.Action = engine.Action{Kind: engine.ActCall, Seat: 1, No: 2}
		tests := []struct {
			name  string
			a     Action
			want  Outcome
			other Action
		}{
			{"the action stored", pass("g", 2), Stored, pass("g", 2)},
			{"a number nothing holds", pass("g", 3), NotStored, Action{}},
			{"a game that does not exist", pass("nope", 1), NotStored, Action{}},
			{"the same move at another time", later, Taken, pass("g", 2)},
			{"another move", called, Taken, pass("g", 2)},
		}
		for _, tt := range tests {
			got, other, err := s.Settle(ctx, tt.a)
			if err != nil {
				t.Fatalf("%s: %v", tt.name, err)
			}
			if got != tt.want || !reflect.DeepEqual(other, tt.other) {
				t.Errorf("%s: got %v with %s, want %v with %s", tt.name, got, describe(other), tt.want, describe(tt.other))
			}
		}
	})
}

// TestSettleWaitsForAnAppendInFlight: an append still running on the
// PostgreSQL server when its client gave up commits after the settle began,
// and the settle must find it rather than report the number free.
func TestSettleWaitsForAnAppendInFlight(t *testing.T) {
	if !storetest.HavePostgres() {
		t.Skipf("%s is not set to a PostgreSQL URL", postgresEnv)
	}
	ctx := context.Background()
	s := openStore(t, storetest.PostgresURL(t))
	mustCreate(t, s, newGame("g", base))
	a := pass("g", 1)
	row, err := toActionRow(a)
	if err != nil {
		t.Fatal(err)
	}
	// The append in flight: inserted, not yet committed.
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback()
	if _, err := tx.NewInsert().Model(&row).Exec(ctx); err != nil {
		t.Fatal(err)
	}
	type settled struct {
		outcome Outcome
		err     error
	}
	done := make(chan settled, 1)
	go func() {
		o, _, err := s.Settle(ctx, a)
		done <- settled{o, err}
	}()
	// Commit once the settle waits on the append (found from the append's
	// own connection, so other sessions on the server don't count).
	for waiting := 0; waiting == 0; {
		select {
		case got := <-done:
			t.Fatalf("got %v (%v) while the append was still in flight, want the settle to wait for it", got.outcome, got.err)
		default:
		}
		err := tx.QueryRowContext(ctx, "SELECT count(*) FROM pg_stat_activity WHERE pg_backend_pid() = ANY (pg_blocking_pids(pid))").Scan(&waiting)
		if err != nil {
			t.Fatal(err)
		}
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	if got := <-done; got.err != nil || got.outcome != Stored {
		t.Errorf("got %v (%v), want %v: the append committed", got.outcome, got.err, Stored)
	}
}

// TestStatementWhoseAnswerIsLostRunsOnce: a statement whose connection is
// cut after the server answered it must come back as an error, never be
// run again on another connection. database/sql runs a statement again when
// its driver says that is safe, and pgx before 5.13 said so of this one.
func TestStatementWhoseAnswerIsLostRunsOnce(t *testing.T) {
	if !storetest.HavePostgres() {
		t.Skipf("%s is not set to a PostgreSQL URL", postgresEnv)
	}
	ctx := context.Background()
	direct := storetest.PostgresURL(t)
	u, err := url.Parse(direct)
	if err != nil {
		t.Fatal(err)
	}
	proxy := storetest.NewProxy(t, u.Host)
	s := openStore(t, proxy.URL(direct))
	mustCreate(t, s, newGame("g", base))
	proxy.CutAfter("UPDATE games SET plays", false)
	if _, err := s.DB().ExecContext(ctx, "UPDATE games SET plays = plays + 1 WHERE id = 'g'"); err == nil {
		t.Errorf("got no error for a statement whose answer was lost, want one")
	}
	g, _, err := openStore(t, direct).Game(ctx, "g")
	if err != nil {
		t.Fatal(err)
	}
	if g.Plays != 1 {
		t.Errorf("got plays %d, want the statement run once", g.Plays)
	}
}
