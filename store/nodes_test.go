package store

import (
	"context"
	"errors"
	"fmt"
	"os"
	"reflect"
	"sort"
	"sync"
	"testing"
	"time"

	"bullshit/game"
	"bullshit/store/storetest"
)

// pgStore is a store on a fresh PostgreSQL schema, or the test skips.
func pgStore(t *testing.T) *Store {
	t.Helper()
	if os.Getenv(postgresEnv) == "" {
		t.Skipf("%s is not set to a PostgreSQL URL", postgresEnv)
	}
	return openStore(t, storetest.PostgresURL(t))
}

// renew holds node's lease for ttl or fails the test.
func renew(t *testing.T, s *Store, node string, ttl time.Duration) time.Time {
	t.Helper()
	until, err := s.RenewLease(context.Background(), node, ttl)
	if err != nil {
		t.Fatalf("RenewLease(%s): %v", node, err)
	}
	return until
}

// claim claims for node or fails the test.
func claim(t *testing.T, s *Store, node string, limit int) []Claim {
	t.Helper()
	claims, err := s.ClaimOrphans(context.Background(), node, limit)
	if err != nil {
		t.Fatalf("ClaimOrphans(%s): %v", node, err)
	}
	return claims
}

func claimed(claims []Claim) []string {
	ids := make([]string, len(claims))
	for i, c := range claims {
		ids[i] = c.Game
	}
	sort.Strings(ids)
	return ids
}

func TestLeases(t *testing.T) {
	s := pgStore(t)
	ctx := context.Background()
	a := renew(t, s, "a", time.Minute)
	b := renew(t, s, "b", time.Minute)
	if !b.After(a) {
		t.Errorf("b's lease, renewed after a's: got %v, want after %v", b, a)
	}
	mustCreate(t, s, newGame("g1", base))
	// An open game with no owner is an orphan: a takes it, b finds none.
	if got := claimed(claim(t, s, "a", 10)); fmt.Sprint(got) != "[g1]" {
		t.Fatalf("a's claims: got %v, want [g1]", got)
	}
	if got := claim(t, s, "b", 10); len(got) != 0 {
		t.Fatalf("b's claims while a holds its lease: got %v, want none", got)
	}
	if err := s.ReleaseLease(ctx, "a"); err != nil {
		t.Fatal(err)
	}
	got := claim(t, s, "b", 10)
	if len(got) != 1 || got[0].Game != "g1" || got[0].Epoch != 2 {
		t.Fatalf("b's claims after a released its lease: got %+v, want g1 at epoch 2", got)
	}
	if ended := got[0].LeaseEnded; ended.IsZero() || !ended.Before(a) {
		t.Errorf("the old owner's lease end: got %v, want its release, before %v", ended, a)
	}
	owner, epoch, status, err := s.Owner(ctx, "g1")
	if err != nil || owner != "b" || epoch != 2 || status != "open" {
		t.Errorf("Owner(g1): got %q %d %q %v, want b 2 open", owner, epoch, status, err)
	}
	// A node whose own lease ran out claims nothing.
	renew(t, s, "b", 0)
	renew(t, s, "c", time.Minute)
	if got := claim(t, s, "a", 10); len(got) != 0 {
		t.Errorf("claims by a, whose lease ended: got %v, want none", got)
	}
	if got := claimed(claim(t, s, "c", 10)); fmt.Sprint(got) != "[g1]" {
		t.Errorf("c's claims after b's lease ran out: got %v, want [g1]", got)
	}
	// Over games are never claimed.
	if err := finishAs(s, "g1", Fence{"c", 3}); err != nil {
		t.Fatal(err)
	}
	renew(t, s, "c", 0)
	renew(t, s, "d", time.Minute)
	if got := claim(t, s, "d", 10); len(got) != 0 {
		t.Errorf("claims of a game over: got %v, want none", got)
	}
}

// finishAs ends game id as its owner f would.
func finishAs(s *Store, id string, f Fence) error {
	return s.FinishGame(context.Background(), f, id, game.StatusEnded, base.Add(time.Hour), 0, false, nil, nil)
}

// TestClaimsConcurrent: claimers racing for the same orphans never get the
// same game, and between them take every one, each exactly once.
func TestClaimsConcurrent(t *testing.T) {
	s := pgStore(t)
	const games, claimers = 60, 4
	for i := range games {
		mustCreate(t, s, newGame(fmt.Sprintf("g%02d", i), base.Add(time.Duration(i)*time.Second)))
	}
	for c := range claimers {
		renew(t, s, fmt.Sprint("n", c), time.Minute)
	}
	got := make([][]Claim, claimers)
	var wg sync.WaitGroup
	for c := range claimers {
		wg.Go(func() {
			for {
				claims, err := s.ClaimOrphans(context.Background(), fmt.Sprint("n", c), 3)
				if err != nil {
					t.Error(err)
					return
				}
				if len(claims) == 0 {
					return
				}
				got[c] = append(got[c], claims...)
			}
		})
	}
	wg.Wait()
	seen := map[string]int{}
	for c := range got {
		for _, cl := range got[c] {
			seen[cl.Game]++
			if cl.Epoch != 1 {
				t.Errorf("claim of %s by n%d: got epoch %d, want 1", cl.Game, c, cl.Epoch)
			}
		}
	}
	for i := range games {
		if id := fmt.Sprintf("g%02d", i); seen[id] != 1 {
			t.Errorf("game %s: claimed %d times, want once", id, seen[id])
		}
	}
}

// TestFence: once a game changed hands, every write by its old owner's
// epoch is refused as fenced and changes nothing; the new owner's works.
func TestFence(t *testing.T) {
	s := pgStore(t)
	ctx := context.Background()
	mustCreate(t, s, newGame("g", base), Seat{No: 0, Kind: "person", Name: "Ann", TokenHash: hashOf("t0")}, Seat{No: 1, Kind: "empty"})
	renew(t, s, "a", time.Minute)
	if c := claim(t, s, "a", 1); len(c) != 1 || c[0].Epoch != 1 {
		t.Fatalf("a's claim: got %+v, want g at epoch 1", c)
	}
	old := Fence{"a", 1}
	if err := s.StartGame(ctx, old, "g", base.Add(time.Minute), nil); err != nil {
		t.Fatalf("start by the owner: %v", err)
	}
	act := pass("g", 1)
	act.Fence = old
	if err := s.AppendAction(ctx, act); err != nil {
		t.Fatalf("append by the owner: %v", err)
	}
	// a's lease runs out; b claims the game at epoch 2.
	renew(t, s, "a", 0)
	renew(t, s, "b", time.Minute)
	c := claim(t, s, "b", 1)
	if len(c) != 1 || c[0].Epoch != 2 {
		t.Fatalf("b's claim: got %+v, want g at epoch 2", c)
	}
	stale := pass("g", 2)
	stale.Fence = old
	writes := []struct {
		name  string
		write func() error
	}{
		{"append", func() error { return s.AppendAction(ctx, stale) }},
		{"append without a fence", func() error { return s.AppendAction(ctx, pass("g", 2)) }},
		{"batch", func() error { return s.AppendActions(ctx, []Action{stale}) }},
		{"seat", func() error { return s.SaveSeat(ctx, old, Seat{GameID: "g", No: 1, Kind: "bot", Name: "Bot"}) }},
		{"finish", func() error {
			return s.FinishGame(ctx, old, "g", game.StatusFinished, base.Add(time.Hour), 1, false, nil, nil)
		}},
		{"end", func() error {
			return s.FinishGame(ctx, old, "g", game.StatusEnded, base.Add(time.Hour), 1, false, nil, nil)
		}},
	}
	for _, w := range writes {
		if err := w.write(); !errors.Is(err, ErrFenced) {
			t.Errorf("%s by the old epoch: got %v, want ErrFenced", w.name, err)
		}
	}
	// Nothing changed, and the refused append is settled as not stored.
	if got, err := s.Actions(ctx, "g"); err != nil || len(got) != 1 {
		t.Errorf("actions after the refusals: got %d (%v), want 1", len(got), err)
	}
	if out, _, err := s.Settle(ctx, stale); err != nil || out != NotStored {
		t.Errorf("Settle of the refused append: got %v %v, want %v", out, err, NotStored)
	}
	g, seats, err := s.Game(ctx, "g")
	if err != nil {
		t.Fatal(err)
	}
	if g.Status != game.StatusLive || g.Owner != "b" || g.Epoch != 2 || seats[1].Kind != "empty" {
		t.Errorf("game after the refusals: got %s owner %q epoch %d seat 1 %s, want live, b, 2, empty", g.Status, g.Owner, g.Epoch, seats[1].Kind)
	}
	// The new owner writes on from the stored log.
	next := pass("g", 2)
	next.Fence = Fence{"b", 2}
	if err := s.AppendAction(ctx, next); err != nil {
		t.Errorf("append by the new owner: %v", err)
	}
	if out, _, err := s.Settle(ctx, next); err != nil || out != Stored {
		t.Errorf("Settle of the new owner's append: got %v %v, want %v", out, err, Stored)
	}
	b := Fence{"b", 2}
	if err := s.SaveSeat(ctx, b, Seat{GameID: "g", No: 1, Kind: "bot", Name: "Bot", BotLevel: "easy"}); err != nil {
		t.Errorf("seat by the new owner: %v", err)
	}
	if err := s.FinishGame(ctx, b, "g", game.StatusFinished, base.Add(time.Hour), 2, false, nil, nil); err != nil {
		t.Errorf("finish by the new owner: %v", err)
	}
	if err := s.SaveSeat(ctx, b, Seat{GameID: "nope", No: 1, Kind: "bot"}); !errors.Is(err, ErrNotFound) {
		t.Errorf("seat of a game that does not exist: got %v, want ErrNotFound", err)
	}
}

// TestFenceRacesClaim: appends racing a claim either commit before it (and
// the claimer, reading after its claim, sees them) or are refused as fenced.
func TestFenceRacesClaim(t *testing.T) {
	s := pgStore(t)
	ctx := context.Background()
	const games = 20
	renew(t, s, "a", time.Minute)
	for i := range games {
		id := fmt.Sprintf("g%02d", i)
		mustCreate(t, s, newGame(id, base))
	}
	claim(t, s, "a", games)
	renew(t, s, "a", 0)
	renew(t, s, "b", time.Minute)
	var wg sync.WaitGroup
	stored := make([]int, games)
	for i := range games {
		wg.Go(func() {
			for seq := 1; ; seq++ {
				a := pass(fmt.Sprintf("g%02d", i), seq)
				a.Fence = Fence{"a", 1}
				if err := s.AppendAction(ctx, a); err != nil {
					if !errors.Is(err, ErrFenced) {
						t.Errorf("append %d: got %v, want nil or ErrFenced", seq, err)
					}
					return
				}
				stored[i] = seq
			}
		})
	}
	var claims []Claim
	for len(claims) < games {
		claims = append(claims, claim(t, s, "b", games)...)
	}
	wg.Wait()
	for i := range games {
		got, err := s.Actions(ctx, fmt.Sprintf("g%02d", i))
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != stored[i] {
			t.Errorf("game %d: %d actions stored, %d acknowledged", i, len(got), stored[i])
		}
	}
}

func TestLeasesNeedPostgres(t *testing.T) {
	s := openStore(t, storetest.SQLiteURL(t))
	ctx := context.Background()
	if _, err := s.RenewLease(ctx, "a", time.Second); !errors.Is(err, ErrSingleNode) {
		t.Errorf("RenewLease on SQLite: got %v, want ErrSingleNode", err)
	}
	if err := s.ReleaseLease(ctx, "a"); !errors.Is(err, ErrSingleNode) {
		t.Errorf("ReleaseLease on SQLite: got %v, want ErrSingleNode", err)
	}
	if _, err := s.ClaimOrphans(ctx, "a", 1); !errors.Is(err, ErrSingleNode) {
		t.Errorf("ClaimOrphans on SQLite: got %v, want ErrSingleNode", err)
	}
	// A single server's fence is the zero one.
	mustCreate(t, s, newGame("g", base))
	if owner, epoch, _, err := s.Owner(ctx, "g"); err != nil || owner != "" || epoch != 0 {
		t.Errorf("Owner on SQLite: got %q %d %v, want \"\" 0", owner, epoch, err)
	}
	if err := s.AppendAction(ctx, Action{GameID: "g", Seq: 1, At: base, Action: pass("g", 1).Action, Fence: Fence{"a", 1}}); !errors.Is(err, ErrFenced) {
		t.Errorf("append with another fence on SQLite: got %v, want ErrFenced", err)
	}
}

// TestReclaim: a node takes back its own games, the listed ones or all,
// bumping their epochs, only while its lease runs; never another's.
func TestReclaim(t *testing.T) {
	s := pgStore(t)
	ctx := context.Background()
	for _, id := range []string{"g1", "g2", "g3"} {
		mustCreate(t, s, newGame(id, base))
	}
	renew(t, s, "a", time.Minute)
	claim(t, s, "a", 2) // g1 and g2, oldest first
	renew(t, s, "b", time.Minute)
	claim(t, s, "b", 1) // g3
	got, err := s.Reclaim(ctx, "a", []string{"g2", "g3"}, 10)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || got[0].Game != "g2" || got[0].Epoch != 2 || !got[0].LeaseEnded.IsZero() {
		t.Errorf("Reclaim of g2 and b's g3 by a: got %+v, want g2 at epoch 2", got)
	}
	if got, err = s.Reclaim(ctx, "a", nil, 10); err != nil || fmt.Sprint(claimed(got)) != "[g1 g2]" {
		t.Errorf("Reclaim of all a's games: got %+v %v, want g1 and g2", got, err)
	}
	if got, err = s.Reclaim(ctx, "a", nil, 1); err != nil || fmt.Sprint(claimed(got)) != "[g1]" {
		t.Errorf("Reclaim of one of a's games: got %+v %v, want g1", got, err)
	}
	if got, err = s.Reclaim(ctx, "a", nil, 0); err != nil || len(got) != 2 || got[0].Epoch != 4 || got[1].Epoch != 4 {
		t.Errorf("Reclaim of all a's games, no limit: got %+v %v, want g1 and g2 at 4", got, err)
	}
	renew(t, s, "a", 0)
	if got, err = s.Reclaim(ctx, "a", nil, 10); err != nil || len(got) != 0 {
		t.Errorf("Reclaim by a, whose lease ended: got %+v %v, want none", got, err)
	}
	// b claims a's games, knowing how long ago a's lease ended.
	got = claim(t, s, "b", 10)
	for _, c := range got {
		if c.LeaseEnded.IsZero() || c.Orphaned < 0 {
			t.Errorf("b's claim of %s: got lease end %v, orphaned %v, want a's lease end", c.Game, c.LeaseEnded, c.Orphaned)
		}
	}
	if fmt.Sprint(claimed(got)) != "[g1 g2]" {
		t.Errorf("b's claims: got %v, want g1 and g2", claimed(got))
	}
}

func TestReadGames(t *testing.T) {
	forEachDB(t, func(t *testing.T, db testDB) {
		s := newStore(t, db)
		ctx := context.Background()
		mustCreate(t, s, newGame("g1", base), Seat{No: 0, Kind: "person", Name: "Ann"}, Seat{No: 1, Kind: "bot", Name: "Bot"})
		mustCreate(t, s, newGame("g2", base))
		if err := s.AppendActions(ctx, []Action{pass("g1", 1), pass("g1", 2), pass("g2", 1)}); err != nil {
			t.Fatal(err)
		}
		got, err := s.ReadGames(ctx, []string{"g2", "nope", "g1"})
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != 2 || got[0].Game.ID != "g2" || got[1].Game.ID != "g1" {
			t.Fatalf("ReadGames: got %d games, want g2 and g1 in that order", len(got))
		}
		for _, tt := range []struct {
			r             Running
			seats, played int
		}{{got[0], 0, 1}, {got[1], 2, 2}} {
			actions, err := tt.r.Actions()
			if err != nil {
				t.Fatal(err)
			}
			if len(tt.r.Seats) != tt.seats || len(actions) != tt.played {
				t.Errorf("game %s: got %d seats and %d actions, want %d and %d", tt.r.Game.ID, len(tt.r.Seats), len(actions), tt.seats, tt.played)
			}
			for i, a := range actions {
				if want := pass(tt.r.Game.ID, i+1); !reflect.DeepEqual(a, want) {
					t.Errorf("game %s action %d: got %s, want %s", tt.r.Game.ID, i+1, describe(a), describe(want))
				}
			}
		}
	})
}
