package store

import (
	"context"
	"errors"
	"reflect"
	"testing"
	"time"
)

func mustAccount(tb testing.TB, s *Store, name string) *Account {
	tb.Helper()
	a := &Account{Name: name, NameKey: "key:" + name, PasswordHash: "hash of " + name, CreatedAt: base}
	if err := s.CreateAccount(context.Background(), a); err != nil {
		tb.Fatalf("CreateAccount(%s): %v", name, err)
	}
	return a
}

func TestAccounts(t *testing.T) {
	forEachDB(t, func(t *testing.T, db testDB) {
		ctx := context.Background()
		s := newStore(t, db)
		ann := mustAccount(t, s, "Ann")
		bea := mustAccount(t, s, "Bea")
		if ann.ID == 0 || bea.ID == 0 || ann.ID == bea.ID {
			t.Fatalf("ids: got %d and %d, want two different ones", ann.ID, bea.ID)
		}

		got, err := s.AccountByName(ctx, "key:Ann")
		if err != nil {
			t.Fatalf("AccountByName: %v", err)
		}
		if !reflect.DeepEqual(got, ann) {
			t.Errorf("AccountByName:\ngot  %s\nwant %s", describe(got), describe(ann))
		}
		if got, err := s.Account(ctx, bea.ID); err != nil || !reflect.DeepEqual(got, bea) {
			t.Errorf("Account(%d): got %s, %v; want %s", bea.ID, describe(got), err, describe(bea))
		}

		again := &Account{Name: "ANN", NameKey: "key:Ann", PasswordHash: "x", CreatedAt: base}
		if err := s.CreateAccount(ctx, again); !errors.Is(err, ErrDuplicate) {
			t.Errorf("CreateAccount with a taken name key: got %v, want %v", err, ErrDuplicate)
		}
		for _, err := range []error{
			func() error { _, err := s.AccountByName(ctx, "key:Nobody"); return err }(),
			func() error { _, err := s.Account(ctx, 999999); return err }(),
			s.SetBot(ctx, 999999, true),
			s.SetPassword(ctx, 999999, "x", nil),
		} {
			if !errors.Is(err, ErrNotFound) {
				t.Errorf("an account that does not exist: got %v, want %v", err, ErrNotFound)
			}
		}

		if err := s.SetBot(ctx, bea.ID, true); err != nil {
			t.Fatalf("SetBot: %v", err)
		}
		if got, _ := s.Account(ctx, bea.ID); !got.Bot {
			t.Errorf("Bot after SetBot(true): got false, want true")
		}

		// A rehash from a hash that is no longer the account's changes nothing.
		if ok, err := s.RehashPassword(ctx, ann.ID, "stale", "new"); err != nil || ok {
			t.Errorf("RehashPassword from a stale hash: got %v, %v; want false, nil", ok, err)
		}
		if ok, err := s.RehashPassword(ctx, ann.ID, ann.PasswordHash, "rehashed"); err != nil || !ok {
			t.Errorf("RehashPassword: got %v, %v; want true, nil", ok, err)
		}
		if got, _ := s.Account(ctx, ann.ID); got.PasswordHash != "rehashed" {
			t.Errorf("hash after RehashPassword: got %q, want %q", got.PasswordHash, "rehashed")
		}
	})
}

func TestSessions(t *testing.T) {
	forEachDB(t, func(t *testing.T, db testDB) {
		ctx := context.Background()
		s := newStore(t, db)
		ann := mustAccount(t, s, "Ann")
		bea := mustAccount(t, s, "Bea")
		ses := func(id string, acc *Account) Session {
			return Session{IDHash: hashOf(id), AccountID: acc.ID, CreatedAt: base, LastSeen: base, Expires: base.Add(time.Hour)}
		}
		for _, x := range []Session{ses("one", ann), ses("two", ann), ses("three", ann), ses("bea", bea)} {
			if err := s.CreateSession(ctx, x); err != nil {
				t.Fatalf("CreateSession: %v", err)
			}
		}
		if err := s.CreateSession(ctx, ses("one", bea)); !errors.Is(err, ErrDuplicate) {
			t.Errorf("CreateSession with a hash taken: got %v, want %v", err, ErrDuplicate)
		}
		if err := s.CreateSession(ctx, Session{IDHash: hashOf("x"), AccountID: 999999, CreatedAt: base, LastSeen: base, Expires: base}); !errors.Is(err, ErrNotFound) {
			t.Errorf("CreateSession for no account: got %v, want %v", err, ErrNotFound)
		}

		gotSes, gotAcc, err := s.SessionAccount(ctx, hashOf("one"))
		if err != nil {
			t.Fatalf("SessionAccount: %v", err)
		}
		if want := ses("one", ann); !reflect.DeepEqual(*gotSes, want) || !reflect.DeepEqual(gotAcc, ann) {
			t.Errorf("SessionAccount:\ngot  %s %s\nwant %s %s", describe(*gotSes), describe(gotAcc), describe(want), describe(ann))
		}

		later := base.Add(10 * time.Minute)
		if err := s.TouchSession(ctx, hashOf("one"), later, later.Add(time.Hour)); err != nil {
			t.Fatalf("TouchSession: %v", err)
		}
		gotSes, _, _ = s.SessionAccount(ctx, hashOf("one"))
		if !gotSes.LastSeen.Equal(later) || !gotSes.Expires.Equal(later.Add(time.Hour)) {
			t.Errorf("after TouchSession: got seen %v, expires %v; want %v, %v", gotSes.LastSeen, gotSes.Expires, later, later.Add(time.Hour))
		}

		// Ending every other session keeps "one" and Bea's.
		if n, err := s.DeleteSessions(ctx, ann.ID, hashOf("one")); err != nil || n != 2 {
			t.Errorf("DeleteSessions keeping one: got %d, %v; want 2, nil", n, err)
		}
		checkSessions(t, s, map[string]bool{"one": true, "two": false, "three": false, "bea": true})

		// The password change ends the others in the same transaction.
		if err := s.CreateSession(ctx, ses("four", ann)); err != nil {
			t.Fatal(err)
		}
		if err := s.SetPassword(ctx, ann.ID, "new hash", hashOf("four")); err != nil {
			t.Fatalf("SetPassword: %v", err)
		}
		checkSessions(t, s, map[string]bool{"one": false, "four": true, "bea": true})
		if got, _ := s.Account(ctx, ann.ID); got.PasswordHash != "new hash" {
			t.Errorf("hash after SetPassword: got %q, want %q", got.PasswordHash, "new hash")
		}

		if n, err := s.DeleteSessions(ctx, ann.ID, nil); err != nil || n != 1 {
			t.Errorf("DeleteSessions of all: got %d, %v; want 1, nil", n, err)
		}
		if err := s.DeleteSession(ctx, hashOf("bea")); err != nil {
			t.Errorf("DeleteSession: %v", err)
		}
		if err := s.DeleteSession(ctx, hashOf("bea")); err != nil {
			t.Errorf("DeleteSession again: got %v, want nil", err)
		}
		checkSessions(t, s, map[string]bool{"four": false, "bea": false})
		if err := s.TouchSession(ctx, hashOf("bea"), later, later); !errors.Is(err, ErrNotFound) {
			t.Errorf("TouchSession of a deleted session: got %v, want %v", err, ErrNotFound)
		}

		old, young := ses("old", bea), ses("young", bea)
		old.Expires, young.Expires = base.Add(time.Minute), base.Add(time.Hour)
		for _, x := range []Session{old, young} {
			if err := s.CreateSession(ctx, x); err != nil {
				t.Fatal(err)
			}
		}
		if n, err := s.DeleteExpiredSessions(ctx, base.Add(30*time.Minute)); err != nil || n != 1 {
			t.Errorf("DeleteExpiredSessions: got %d, %v; want 1, nil", n, err)
		}
		checkSessions(t, s, map[string]bool{"old": false, "young": true})
	})
}

// checkSessions checks which sessions, by id, are stored.
func checkSessions(t *testing.T, s *Store, want map[string]bool) {
	t.Helper()
	for id, stored := range want {
		_, _, err := s.SessionAccount(context.Background(), hashOf(id))
		switch {
		case stored && err != nil:
			t.Errorf("session %s: got %v, want it stored", id, err)
		case !stored && !errors.Is(err, ErrNotFound):
			t.Errorf("session %s: got %v, want %v", id, err, ErrNotFound)
		}
	}
}

func TestAPITokens(t *testing.T) {
	forEachDB(t, func(t *testing.T, db testDB) {
		ctx := context.Background()
		s := newStore(t, db)
		ann := mustAccount(t, s, "Ann")
		bea := mustAccount(t, s, "Bea")
		mk := func(acc *Account, name string) *APIToken {
			tok := &APIToken{AccountID: acc.ID, Name: name, Hash: hashOf(acc.Name + name), CreatedAt: base}
			if err := s.CreateAPIToken(ctx, tok); err != nil {
				t.Fatalf("CreateAPIToken(%s): %v", name, err)
			}
			return tok
		}
		zed, arena, other := mk(ann, "zed"), mk(ann, "arena"), mk(bea, "arena")
		if err := s.CreateAPIToken(ctx, &APIToken{AccountID: ann.ID, Name: "zed", Hash: hashOf("new"), CreatedAt: base}); !errors.Is(err, ErrDuplicate) {
			t.Errorf("CreateAPIToken with a name used: got %v, want %v", err, ErrDuplicate)
		}

		list, err := s.APITokens(ctx, ann.ID)
		if err != nil {
			t.Fatalf("APITokens: %v", err)
		}
		want := []APIToken{*arena, *zed}
		for i := range want {
			want[i].Hash = nil
		}
		if !reflect.DeepEqual(list, want) {
			t.Errorf("APITokens:\ngot  %s\nwant %s", describe(list), describe(want))
		}

		tok, acc, err := s.APITokenAccount(ctx, other.Hash)
		if err != nil {
			t.Fatalf("APITokenAccount: %v", err)
		}
		if !reflect.DeepEqual(tok, other) || !reflect.DeepEqual(acc, bea) {
			t.Errorf("APITokenAccount:\ngot  %s %s\nwant %s %s", describe(tok), describe(acc), describe(other), describe(bea))
		}

		// The first use is written; one before the threshold is not.
		used := base.Add(time.Hour)
		if err := s.TouchAPIToken(ctx, zed.ID, used, used.Add(-time.Minute)); err != nil {
			t.Fatalf("TouchAPIToken: %v", err)
		}
		if err := s.TouchAPIToken(ctx, zed.ID, used.Add(30*time.Second), used.Add(-30*time.Second)); err != nil {
			t.Fatalf("TouchAPIToken: %v", err)
		}
		tok, _, _ = s.APITokenAccount(ctx, zed.Hash)
		if !tok.LastUsed.Equal(used) {
			t.Errorf("LastUsed after two touches within a minute: got %v, want %v", tok.LastUsed, used)
		}
		if err := s.TouchAPIToken(ctx, zed.ID, used.Add(2*time.Minute), used.Add(time.Minute)); err != nil {
			t.Fatalf("TouchAPIToken: %v", err)
		}
		tok, _, _ = s.APITokenAccount(ctx, zed.Hash)
		if want := used.Add(2 * time.Minute); !tok.LastUsed.Equal(want) {
			t.Errorf("LastUsed after a touch a minute later: got %v, want %v", tok.LastUsed, want)
		}

		if err := s.DeleteAPIToken(ctx, bea.ID, zed.ID); !errors.Is(err, ErrNotFound) {
			t.Errorf("DeleteAPIToken of another account's token: got %v, want %v", err, ErrNotFound)
		}
		if err := s.DeleteAPIToken(ctx, ann.ID, zed.ID); err != nil {
			t.Fatalf("DeleteAPIToken: %v", err)
		}
		if _, _, err := s.APITokenAccount(ctx, zed.Hash); !errors.Is(err, ErrNotFound) {
			t.Errorf("APITokenAccount of a revoked token: got %v, want %v", err, ErrNotFound)
		}
		if err := s.DeleteAPIToken(ctx, ann.ID, zed.ID); !errors.Is(err, ErrNotFound) {
			t.Errorf("DeleteAPIToken again: got %v, want %v", err, ErrNotFound)
		}
	})
}

func TestSeatPlayer(t *testing.T) {
	forEachDB(t, func(t *testing.T, db testDB) {
		ctx := context.Background()
		s := newStore(t, db)
		ann := mustAccount(t, s, "Ann")
		g := newGame("owned", base)
		seats := []Seat{
			{No: 0, Kind: "person", Name: "Ann", TokenHash: hashOf("ann"), PlayerID: ann.ID},
			{No: 1, Kind: "person", Name: "Guest", TokenHash: hashOf("guest")},
			{No: 2, Kind: "empty"},
		}
		mustCreate(t, s, g, seats...)
		want := withGameID(seats, g.ID)
		checkGame(t, s, g, want)

		bea := mustAccount(t, s, "Bea")
		want[2] = Seat{GameID: g.ID, No: 2, Kind: "person", Name: "Bea", TokenHash: hashOf("bea"), PlayerID: bea.ID}
		if err := s.SaveSeat(ctx, Fence{}, want[2]); err != nil {
			t.Fatalf("SaveSeat: %v", err)
		}
		checkGame(t, s, g, want)
		// Leaving frees the seat of its player too.
		want[2] = Seat{GameID: g.ID, No: 2, Kind: "empty"}
		if err := s.SaveSeat(ctx, Fence{}, want[2]); err != nil {
			t.Fatalf("SaveSeat: %v", err)
		}
		checkGame(t, s, g, want)

		bad := Seat{GameID: g.ID, No: 1, Kind: "person", Name: "X", PlayerID: 999999}
		if err := s.SaveSeat(ctx, Fence{}, bad); !errors.Is(err, ErrNotFound) {
			t.Errorf("SaveSeat for no account: got %v, want %v", err, ErrNotFound)
		}
	})
}
