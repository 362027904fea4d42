package store

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"sync"
	"testing"
	"time"

	"bullshit/game"
	"bullshit/store/storetest"
)

// arenaTable is an open game of a table of the accounts' seats, then bots
// up to seats.
func arenaTable(id string, formed time.Time, seats int, players ...int64) (Game, []Seat) {
	g := newGame(id, formed)
	g.Options = standard(seats)
	out := make([]Seat, seats)
	for i := range out {
		if i < len(players) {
			out[i] = Seat{No: i, Kind: game.SeatPerson, Name: fmt.Sprint("p", players[i]), PlayerID: players[i], TokenHash: hashOf(fmt.Sprint(id, i))}
		} else {
			out[i] = Seat{No: i, Kind: game.SeatBot, Name: "Bot", BotLevel: "medium", BotStyle: "bold"}
		}
	}
	return g, out
}

// entrants makes accounts of the names and enters them in arena at its
// start.
func entrants(tb testing.TB, s *Store, arena Arena, names ...string) []int64 {
	tb.Helper()
	ids := make([]int64, len(names))
	for i, name := range names {
		ids[i] = mustAccount(tb, s, name).ID
		if _, _, err := s.JoinArena(context.Background(), arena.ID, ids[i], arena.StartsAt); err != nil {
			tb.Fatalf("JoinArena(%s): %v", name, err)
		}
	}
	return ids
}

func TestCreateArenaGame(t *testing.T) {
	forEachDB(t, func(t *testing.T, db testDB) {
		ctx := context.Background()
		s := newStore(t, db)
		a := newArena("a", 0, base, time.Hour)
		a.Owner, a.Epoch = "n1", 2
		a = mustArena(t, s, a)
		p := entrants(t, s, a, "Ann", "Bob", "Cid", "Dee")
		ann, bob, cid, dee := p[0], p[1], p[2], p[3]
		m := func(n int) time.Time { return base.Add(time.Duration(n) * time.Minute) }
		for _, step := range []struct {
			name    string
			arena   int64
			fence   Fence
			id      string
			at      time.Time
			players []int64
			want    error
		}{
			{"a stale fence", a.ID, Fence{"n1", 1}, "g1", m(1), []int64{ann, bob, cid}, ErrFenced},
			{"another director", a.ID, Fence{"n2", 2}, "g1", m(1), []int64{ann, bob, cid}, ErrFenced},
			{"no such arena", a.ID + 100, a.Fence(), "g1", m(1), []int64{ann, bob, cid}, ErrNotFound},
			{"before the start", a.ID, a.Fence(), "g1", m(-1), []int64{ann, bob, cid}, ErrArenaNotStarted},
			{"at the end", a.ID, a.Fence(), "g1", m(60), []int64{ann, bob, cid}, ErrArenaOver},
			{"the director", a.ID, a.Fence(), "g1", m(1), []int64{ann, bob, cid}, nil},
			{"Ann at two tables", a.ID, a.Fence(), "g2", m(2), []int64{dee, ann}, ErrArenaBusy},
			{"a game id taken", a.ID, a.Fence(), "g1", m(2), []int64{dee}, ErrDuplicate},
			{"Dee with bots", a.ID, a.Fence(), "g2", m(2), []int64{dee}, nil},
		} {
			g, seats := arenaTable(step.id, step.at, 4, step.players...)
			err := s.CreateArenaGame(ctx, step.fence, step.arena, &g, seats, step.at)
			if !errors.Is(err, step.want) {
				t.Errorf("%s: CreateArenaGame: %v, want %v", step.name, err, step.want)
			}
			// Each refused id is stored by a later step, if at all.
			if step.want != nil && step.want != ErrDuplicate {
				if _, _, err := s.Game(ctx, step.id); !errors.Is(err, ErrNotFound) {
					t.Errorf("%s: the refused game %s is stored (%v)", step.name, step.id, err)
				}
			}
		}
		// Once g1 is over, its seats may sit again.
		if err := s.FinishGame(ctx, Fence{}, "g1", game.StatusFinished, m(20), 10, false, nil, nil); err != nil {
			t.Fatal(err)
		}
		g, seats := arenaTable("g3", m(21), 4, ann, bob)
		if err := s.CreateArenaGame(ctx, a.Fence(), a.ID, &g, seats, m(21)); err != nil {
			t.Fatalf("CreateArenaGame(g3) after g1 finished: %v", err)
		}
		tables, err := s.ArenaTables(ctx, a.ID)
		if err != nil {
			t.Fatal(err)
		}
		wantTables := []ArenaTable{
			{GameID: "g2", FormedAt: m(2), Players: []int64{dee, 0, 0, 0}},
			{GameID: "g3", FormedAt: m(21), Players: []int64{ann, bob, 0, 0}},
		}
		if !reflect.DeepEqual(tables, wantTables) {
			t.Errorf("ArenaTables = %s, want %s", describe(tables), describe(wantTables))
		}
		for _, tc := range []struct {
			player int64
			want   string
		}{{ann, "g3"}, {bob, "g3"}, {cid, ""}, {dee, "g2"}, {dee + 100, ""}} {
			if got, err := s.ArenaTableOf(ctx, a.ID, tc.player); err != nil || got != tc.want {
				t.Errorf("ArenaTableOf(%d) = %q, %v, want %q", tc.player, got, err, tc.want)
			}
		}
		for _, tc := range []struct {
			limit, offset int
			want          []ArenaGame
		}{
			{0, 0, []ArenaGame{{"g3", m(21), game.StatusOpen, time.Time{}}, {"g2", m(2), game.StatusOpen, time.Time{}}, {"g1", m(1), game.StatusFinished, m(20)}}},
			{2, 1, []ArenaGame{{"g2", m(2), game.StatusOpen, time.Time{}}, {"g1", m(1), game.StatusFinished, m(20)}}},
			{2, 3, nil},
		} {
			got, err := s.ArenaGames(ctx, a.ID, tc.limit, tc.offset)
			if err != nil || !reflect.DeepEqual(got, tc.want) {
				t.Errorf("ArenaGames(%d, %d) = %s, %v, want %s", tc.limit, tc.offset, describe(got), err, describe(tc.want))
			}
		}
		if err := s.CloseArena(ctx, a.Fence(), a.ID, m(30)); err != nil {
			t.Fatal(err)
		}
		g, seats = arenaTable("g4", m(31), 4, cid)
		if err := s.CreateArenaGame(ctx, a.Fence(), a.ID, &g, seats, m(31)); !errors.Is(err, ErrArenaOver) {
			t.Errorf("CreateArenaGame in a closed arena: %v, want ErrArenaOver", err)
		}
	})
}

func TestArenaResults(t *testing.T) {
	forEachDB(t, func(t *testing.T, db testDB) {
		ctx := context.Background()
		s := newStore(t, db)
		a := mustArena(t, s, newArena("a", 0, base, time.Hour))
		other := mustArena(t, s, newArena("other", 0, base, time.Hour))
		p := entrants(t, s, a, "Ann", "Bob", "Cid", "Dee")
		ann, bob, cid, dee := p[0], p[1], p[2], p[3]
		eve := mustAccount(t, s, "Eve").ID // seated, but never entered
		if _, _, err := s.JoinArena(ctx, other.ID, ann, base); err != nil {
			t.Fatal(err)
		}
		m := func(n int) time.Time { return base.Add(time.Duration(n) * time.Minute) }
		form := func(arena Arena, id string, at time.Time, seats int, players ...int64) {
			t.Helper()
			g, ss := arenaTable(id, at, seats, players...)
			if err := s.CreateArenaGame(ctx, arena.Fence(), arena.ID, &g, ss, at); err != nil {
				t.Fatalf("CreateArenaGame(%s): %v", id, err)
			}
		}
		finish := func(id string, status game.Status, at time.Time, places ...int) {
			t.Helper()
			results := make([]Result, len(places))
			for i, pl := range places {
				results[i] = Result{Seat: i, Place: pl, Left: pl - 1}
			}
			if err := s.FinishGame(ctx, Fence{}, id, status, at, 5, false, results, nil); err != nil {
				t.Fatalf("FinishGame(%s): %v", id, err)
			}
		}
		form(a, "g1", m(1), 4, ann, bob, cid)
		form(a, "g2", m(2), 4, dee, eve)
		form(a, "g3", m(3), 4) // ended early: no results
		form(other, "g6", m(3), 3, ann)
		// Bob hands his seat of g1 to a bot.
		if err := s.SaveSeat(ctx, Fence{}, Seat{GameID: "g1", No: 1, Kind: game.SeatBot, Name: "p2", BotLevel: "medium", PlayerID: bob, Covered: true}); err != nil {
			t.Fatal(err)
		}
		// Cid was away a while, and came back.
		if err := s.SaveSeat(ctx, Fence{}, Seat{GameID: "g1", No: 2, Kind: game.SeatPerson, Name: "p3", PlayerID: cid, Covered: true}); err != nil {
			t.Fatal(err)
		}
		finish("g2", game.StatusFinished, m(10), 2, 1, 3, 4)
		finish("g3", game.StatusEnded, m(5), 1, 2, 3, 4)
		form(a, "g5", m(11), 3, dee)
		finish("g6", game.StatusFinished, m(12), 1, 2, 3)
		finish("g5", game.StatusFinished, m(20), 3, 1, 2)
		finish("g1", game.StatusFinished, m(20), 4, 3, 1, 2)
		form(a, "g7", m(21), 4, ann, cid) // in play

		got, err := s.ArenaResults(ctx, a.ID)
		if err != nil {
			t.Fatal(err)
		}
		r := func(g string, player int64, seat, seats, place int, left, covered bool, ended time.Time) ArenaResult {
			return ArenaResult{ArenaID: a.ID, GameID: g, PlayerID: player, Seat: seat, Seats: seats, Place: place, Left: left, Covered: covered, EndedAt: ended}
		}
		want := []ArenaResult{
			r("g2", dee, 0, 4, 2, false, false, m(10)),
			r("g1", ann, 0, 4, 4, false, false, m(20)),
			r("g1", bob, 1, 4, 3, true, true, m(20)),
			r("g1", cid, 2, 4, 1, false, true, m(20)),
			r("g5", dee, 0, 3, 3, false, false, m(20)),
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("ArenaResults =\n%s\nwant\n%s", describe(got), describe(want))
		}
		some, err := s.ArenaGameResults(ctx, a.ID, []string{"g5", "g1", "g6", "g7", "g3", "nope"})
		if err != nil || !reflect.DeepEqual(some, want[1:]) {
			t.Errorf("ArenaGameResults =\n%s, %v\nwant\n%s", describe(some), err, describe(want[1:]))
		}
		if got, err := s.ArenaGameResults(ctx, a.ID, nil); err != nil || len(got) != 0 {
			t.Errorf("ArenaGameResults of no games = %s, %v, want none", describe(got), err)
		}
		if got, err := s.ArenaResults(ctx, a.ID+100); err != nil || len(got) != 0 {
			t.Errorf("ArenaResults of no arena = %s, %v, want none", describe(got), err)
		}
	})
}

// TestArenaClaims: an arena's direction passes between nodes as a game's
// table does, on the same leases, and the old director's tables are
// refused.
func TestArenaClaims(t *testing.T) {
	t.Run(SQLite, func(t *testing.T) {
		s := newStore(t, testDB{name: SQLite, url: storetest.SQLiteURL})
		if _, err := s.ClaimArenas(context.Background(), "a", 1); !errors.Is(err, ErrSingleNode) {
			t.Errorf("ClaimArenas on SQLite: %v, want ErrSingleNode", err)
		}
		if _, err := s.ReclaimArenas(context.Background(), "a", nil); !errors.Is(err, ErrSingleNode) {
			t.Errorf("ReclaimArenas on SQLite: %v, want ErrSingleNode", err)
		}
	})
	t.Run(Postgres, func(t *testing.T) {
		s := pgStore(t)
		ctx := context.Background()
		renew(t, s, "a", time.Minute)
		renew(t, s, "b", time.Minute)
		held := newArena("held", 0, base, time.Hour)
		held.Owner, held.Epoch = "a", 1
		held = mustArena(t, s, held)
		orphan := mustArena(t, s, newArena("orphan", 0, base.Add(time.Minute), time.Hour))
		done := mustArena(t, s, newArena("done", 0, base, time.Hour))
		if err := s.CloseArena(ctx, Fence{}, done.ID, base); err != nil {
			t.Fatal(err)
		}
		claimArenas := func(node string, limit int) []ArenaClaim {
			t.Helper()
			claims, err := s.ClaimArenas(ctx, node, limit)
			if err != nil {
				t.Fatalf("ClaimArenas(%s): %v", node, err)
			}
			for i := range claims {
				claims[i].LeaseEnded, claims[i].Orphaned = time.Time{}, 0
			}
			return claims
		}
		if got, want := claimArenas("b", 10), []ArenaClaim{{Arena: orphan.ID, Epoch: 1}}; !reflect.DeepEqual(got, want) {
			t.Errorf("b's claims while a's lease runs = %v, want %v", got, want)
		}
		if err := s.ReleaseLease(ctx, "a"); err != nil {
			t.Fatal(err)
		}
		if got, want := claimArenas("b", 10), []ArenaClaim{{Arena: held.ID, Epoch: 2}}; !reflect.DeepEqual(got, want) {
			t.Errorf("b's claims once a's lease ended = %v, want %v", got, want)
		}
		entrants(t, s, held, "Ann")
		g, seats := arenaTable("g1", base.Add(time.Minute), 3)
		if err := s.CreateArenaGame(ctx, Fence{"a", 1}, held.ID, &g, seats, base.Add(time.Minute)); !errors.Is(err, ErrFenced) {
			t.Errorf("a table formed by the old director: %v, want ErrFenced", err)
		}
		if err := s.CreateArenaGame(ctx, Fence{"b", 2}, held.ID, &g, seats, base.Add(time.Minute)); err != nil {
			t.Errorf("a table formed by the new director: %v", err)
		}
		reclaim := func(ids []int64) map[int64]int64 {
			t.Helper()
			claims, err := s.ReclaimArenas(ctx, "b", ids)
			if err != nil {
				t.Fatalf("ReclaimArenas: %v", err)
			}
			out := map[int64]int64{}
			for _, c := range claims {
				out[c.Arena] = c.Epoch
			}
			return out
		}
		if got, want := reclaim(nil), map[int64]int64{held.ID: 3, orphan.ID: 2}; !reflect.DeepEqual(got, want) {
			t.Errorf("ReclaimArenas(all) = %v, want %v", got, want)
		}
		if got, want := reclaim([]int64{held.ID}), map[int64]int64{held.ID: 4}; !reflect.DeepEqual(got, want) {
			t.Errorf("ReclaimArenas(held) = %v, want %v", got, want)
		}
		if got := reclaim([]int64{}); len(got) != 0 {
			t.Errorf("ReclaimArenas(none) = %v, want none", got)
		}
	})
}

// TestArenaClaimsRaceTables: a claim taking an arena while its old
// director forms tables either waits for a table's transaction (and the
// table stands) or refuses it: no table is stored under a fence that had
// lost the arena when it committed, and none is lost once acknowledged.
func TestArenaClaimsRaceTables(t *testing.T) {
	s := pgStore(t)
	ctx := context.Background()
	renew(t, s, "a", time.Minute)
	renew(t, s, "b", time.Minute)
	a := newArena("a", 0, base, time.Hour)
	a.Owner, a.Epoch = "a", 1
	a = mustArena(t, s, a)
	var wg sync.WaitGroup
	acked := make(chan string, 100)
	wg.Go(func() {
		for i := range 100 {
			id := fmt.Sprintf("r%03d", i)
			g, seats := arenaTable(id, base, 3)
			err := s.CreateArenaGame(ctx, Fence{"a", 1}, a.ID, &g, seats, base.Add(time.Second))
			if errors.Is(err, ErrFenced) {
				return
			}
			if err != nil {
				t.Error(err)
				return
			}
			acked <- id
		}
	})
	time.Sleep(5 * time.Millisecond)
	if err := s.ReleaseLease(ctx, "a"); err != nil {
		t.Fatal(err)
	}
	// A claim skips the arena while a table's transaction holds it, as
	// ClaimOrphans skips a game being written: claimers try again.
	for {
		claims, err := s.ClaimArenas(ctx, "b", 10)
		if err != nil {
			t.Error(err)
		}
		if err != nil || len(claims) == 1 {
			break
		}
	}
	wg.Wait()
	close(acked)
	stored, err := s.ArenaGames(ctx, a.ID, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	var n int
	for range acked {
		n++
	}
	if len(stored) != n {
		t.Errorf("%d tables stored, want the %d acknowledged", len(stored), n)
	}
}

// TestArenaTablesRace: tables formed at once with one entrant in common
// seat them once: exactly one is stored, the others are ErrArenaBusy.
func TestArenaTablesRace(t *testing.T) {
	forEachDB(t, func(t *testing.T, db testDB) {
		ctx := context.Background()
		s := newStore(t, db)
		a := mustArena(t, s, newArena("a", 0, base, time.Hour))
		const tables = 8
		names := []string{"Ann"}
		for i := range tables {
			names = append(names, fmt.Sprint("other", i))
		}
		p := entrants(t, s, a, names...)
		errs := make([]error, tables)
		var wg sync.WaitGroup
		for i := range tables {
			wg.Go(func() {
				g, seats := arenaTable(fmt.Sprint("t", i), base, 3, p[0], p[1+i])
				errs[i] = s.CreateArenaGame(ctx, a.Fence(), a.ID, &g, seats, base.Add(time.Second))
			})
		}
		wg.Wait()
		stored := 0
		for i, err := range errs {
			switch {
			case err == nil:
				stored++
			case !errors.Is(err, ErrArenaBusy):
				t.Errorf("table %d: %v, want nil or ErrArenaBusy", i, err)
			}
		}
		tablesIn, err := s.ArenaTables(ctx, a.ID)
		if err != nil {
			t.Fatal(err)
		}
		if stored != 1 || len(tablesIn) != 1 {
			t.Errorf("%d tables acknowledged, %d stored, want 1 and 1", stored, len(tablesIn))
		}
	})
}

// TestCreateArenaGames: a pairing's tables are stored all together or,
// refused, none of them.
func TestCreateArenaGames(t *testing.T) {
	forEachDB(t, func(t *testing.T, db testDB) {
		ctx := context.Background()
		s := newStore(t, db)
		a := mustArena(t, s, newArena("a", 0, base, time.Hour))
		p := entrants(t, s, a, "Ann", "Bob", "Cid", "Dee", "Eve", "Fay")
		at := base.Add(time.Minute)
		table := func(id string, players ...int64) FormedTable {
			g, seats := arenaTable(id, at, 3, players...)
			return FormedTable{Game: &g, Seats: seats}
		}
		form := func(tables ...FormedTable) error { return s.CreateArenaGames(ctx, a.Fence(), a.ID, tables, at) }
		if err := form(); err != nil {
			t.Errorf("CreateArenaGames of no tables: %v", err)
		}
		for _, step := range []struct {
			name   string
			tables []FormedTable
			want   error
			stored int // tables in play after the step
		}{
			{"Ann at two of them", []FormedTable{table("t1", p[0], p[1]), table("t2", p[2], p[0])}, ErrArenaBusy, 0},
			{"three tables", []FormedTable{table("t1", p[0], p[1]), table("t2", p[2], p[3]), table("t3", p[4])}, nil, 3},
			{"an id taken", []FormedTable{table("t4", p[5]), table("t3")}, ErrDuplicate, 3},
			{"Bob at a table already", []FormedTable{table("t4", p[5]), table("t5", p[1])}, ErrArenaBusy, 3},
			{"Fay", []FormedTable{table("t4", p[5])}, nil, 4},
		} {
			if err := form(step.tables...); !errors.Is(err, step.want) {
				t.Errorf("%s: CreateArenaGames: %v, want %v", step.name, err, step.want)
			}
			tables, err := s.ArenaTables(ctx, a.ID)
			if err != nil {
				t.Fatal(err)
			}
			if len(tables) != step.stored {
				t.Errorf("%s: %d tables in play, want %d", step.name, len(tables), step.stored)
			}
		}
	})
}
