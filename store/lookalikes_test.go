package store

import (
	"context"
	"errors"
	"testing"

	"github.com/uptrace/bun"

	"bullshit/naming/lookalike"
)

// TestNameLookalikes: the migration gives every account its name's
// look-alike key, the older of two look-alike names keeping the key and the
// newer grandfathered; from then on the unique index refuses a new account
// whose name looks like one stored, on each dialect.
func TestNameLookalikes(t *testing.T) {
	forEachDB(t, func(t *testing.T, db testDB) {
		ctx := context.Background()
		s := newStore(t, db)
		// Accounts as stored before the migration: no keys.
		for _, name := range []string{"Alice", "Bob", "Аlice"} {
			if _, err := s.db.NewInsert().Model(&Account{Name: name, NameKey: name, PasswordHash: "h", CreatedAt: base}).Exec(ctx); err != nil {
				t.Fatal(err)
			}
		}
		if err := s.db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error { return fillLookalikes(ctx, tx) }); err != nil {
			t.Fatalf("filling the keys: %v", err)
		}
		for _, tt := range []struct{ name, key string }{
			{"Alice", lookalike.Key("Alice")},
			{"Bob", lookalike.Key("Bob")},
			{"Аlice", grandfathered(lookalike.Key("Alice"), 3)},
		} {
			a, err := s.AccountByName(ctx, tt.name)
			if err != nil {
				t.Fatal(err)
			}
			if a.Lookalike != tt.key {
				t.Errorf("%s's look-alike key: got %+q, want %+q", tt.name, a.Lookalike, tt.key)
			}
		}
		if a, err := s.AccountByLookalike(ctx, lookalike.Key("Alіce")); err != nil || a.Name != "Alice" {
			t.Errorf("the account Alіce looks like: got %v, %v; want Alice", a, err)
		}
		if _, err := s.AccountByLookalike(ctx, lookalike.Key("Carol")); !errors.Is(err, ErrNotFound) {
			t.Errorf("the account Carol looks like: got %v, want ErrNotFound", err)
		}
		err := s.CreateAccount(ctx, &Account{Name: "Bоb", NameKey: "bоb", Lookalike: lookalike.Key("Bоb"), PasswordHash: "h", CreatedAt: base})
		if !errors.Is(err, ErrDuplicate) {
			t.Errorf("an account whose name looks like Bob's: got %v, want ErrDuplicate", err)
		}
		if err := s.CreateAccount(ctx, &Account{Name: "Carol", NameKey: "carol", Lookalike: lookalike.Key("Carol"), PasswordHash: "h", CreatedAt: base}); err != nil {
			t.Errorf("a new name: %v", err)
		}
	})
}

// TestLookalikesRecomputed: keys stored by an older lookalike.Key are
// computed again by the migration for the new one, on each dialect: a
// Cyrillic "Аӏісе" and a Greek "Βοβ" stored beside Alice and Bob under the
// old keys are grandfathered, and no new name passes for Alice or Bob by
// them.
func TestLookalikesRecomputed(t *testing.T) {
	forEachDB(t, func(t *testing.T, db testDB) {
		ctx := context.Background()
		url := db.url(t)
		first, err := Open(ctx, url)
		if err != nil {
			t.Fatalf("Open: %v", err)
		}
		// As the old key stored them: the palochka as i, β as ß.
		for _, a := range []Account{
			{Name: "Alice", NameKey: "alice", Lookalike: "alice"},
			{Name: "Bob", NameKey: "bob", Lookalike: "bob"},
			{Name: "Аӏісе", NameKey: "аӏісе", Lookalike: "aiice"},
			{Name: "Βοβ", NameKey: "βοβ", Lookalike: "boss"},
		} {
			a.PasswordHash, a.CreatedAt = "h", base
			if err := first.CreateAccount(ctx, &a); err != nil {
				t.Fatalf("CreateAccount(%s): %v", a.Name, err)
			}
		}
		if _, err := first.DB().NewDelete().Table("bun_migrations").Where("name = ?", lookalikeReadAs.Name).Exec(ctx); err != nil {
			t.Fatalf("forget the migration: %v", err)
		}
		first.Close()

		s := openStore(t, url)
		for _, tt := range []struct{ name, key string }{
			{"alice", lookalike.Key("Alice")},
			{"bob", lookalike.Key("Bob")},
			{"аӏісе", grandfathered(lookalike.Key("Alice"), 3)},
			{"βοβ", grandfathered(lookalike.Key("Bob"), 4)},
		} {
			a, err := s.AccountByName(ctx, tt.name)
			if err != nil {
				t.Fatalf("AccountByName(%s): %v", tt.name, err)
			}
			if a.Lookalike != tt.key {
				t.Errorf("%s's look-alike key: got %+q, want %+q", tt.name, a.Lookalike, tt.key)
			}
		}
		for look, want := range map[string]string{"Аӏісе": "Alice", "Βοβ": "Bob"} {
			if a, err := s.AccountByLookalike(ctx, lookalike.Key(look)); err != nil || a.Name != want {
				t.Errorf("the account %s looks like: got %v, %v; want %s", look, a, err, want)
			}
		}
		err = s.CreateAccount(ctx, &Account{Name: "Вов", NameKey: "вов", Lookalike: lookalike.Key("Вов"), PasswordHash: "h", CreatedAt: base})
		if !errors.Is(err, ErrDuplicate) {
			t.Errorf("an account whose name looks like Bob's: got %v, want ErrDuplicate", err)
		}
	})
}
