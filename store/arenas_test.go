package store

import (
	"context"
	"errors"
	"reflect"
	"testing"
	"time"

	"bullshit/engine"
)

// newArena is an arena of 4 to 6 seats from start for length, created by
// account by (0: the house).
func newArena(name string, by int64, start time.Time, length time.Duration) Arena {
	opts := standard(4)
	opts.Seats = 0
	return Arena{
		Name: name, CreatedBy: by, CreatedAt: start.Add(-time.Hour),
		StartsAt: start, EndsAt: start.Add(length), MinSeats: 4, MaxSeats: 6,
		Options: opts, AwayAfter: 90 * time.Second, Rated: true, Entrants: EntrantsBoth,
	}
}

// mustArena stores a or fails the test, and returns it with its id.
func mustArena(tb testing.TB, s *Store, a Arena) Arena {
	tb.Helper()
	if err := s.CreateArena(context.Background(), &a); err != nil {
		tb.Fatalf("CreateArena(%s): %v", a.Name, err)
	}
	return a
}

func TestArenaCreate(t *testing.T) {
	forEachDB(t, func(t *testing.T, db testDB) {
		ctx := context.Background()
		s := newStore(t, db)
		ann := mustAccount(t, s, "Ann")

		full := newArena("Friday night", ann.ID, base, time.Hour)
		full.Options = engine.Options{Sneak: 1, Window: 4 * time.Second, Pace: engine.Relaxed, Penalty: engine.Penalty{Cards: 2, PerCard: true}, Grace: 1500 * time.Millisecond, Rules: 1}
		full.Entrants, full.RatingFloor, full.RatingCeiling = EntrantsPeople, 1400, 1800.5
		full.HouseBots, full.MaxEntrants, full.Owner, full.Epoch = true, 200, "n1", 3
		full = mustArena(t, s, full)
		house := newArena("Hourly", 0, base.Add(time.Hour), time.Hour)
		house.ScheduleKey = "hourly 2026-11-30T10:15"
		house.Rated = false
		house = mustArena(t, s, house)
		if full.ID == 0 || house.ID == full.ID {
			t.Fatalf("ids %d and %d, want two distinct", full.ID, house.ID)
		}
		for _, want := range []Arena{full, house} {
			got, err := s.Arena(ctx, want.ID)
			if err != nil {
				t.Fatalf("Arena(%d): %v", want.ID, err)
			}
			if !reflect.DeepEqual(*got, want) {
				t.Errorf("Arena(%d) = %s, want %s", want.ID, describe(*got), describe(want))
			}
		}
		got, err := s.ArenaBySchedule(ctx, house.ScheduleKey)
		if err != nil || got.ID != house.ID {
			t.Errorf("ArenaBySchedule = %v, %v, want arena %d", got, err, house.ID)
		}

		again := newArena("Hourly, again", 0, base.Add(time.Hour), time.Hour)
		again.ScheduleKey = house.ScheduleKey
		err = s.CreateArena(ctx, &again)
		if !errors.Is(err, ErrArenaScheduled) || !errors.Is(err, ErrDuplicate) {
			t.Errorf("CreateArena with a schedule key taken: %v, want ErrArenaScheduled and ErrDuplicate", err)
		}

		bad := func(f func(a *Arena)) Arena { a := newArena("bad", ann.ID, base, time.Hour); f(&a); return a }
		for _, tc := range []struct {
			name  string
			arena Arena
			want  error // nil: any error
		}{
			{"no rules", bad(func(a *Arena) { a.Options.Rules = 0 }), nil},
			{"seats not a range", bad(func(a *Arena) { a.MinSeats, a.MaxSeats = 6, 4 }), nil},
			{"no seats", bad(func(a *Arena) { a.MinSeats, a.MaxSeats = 0, 4 }), nil},
			{"ends at its start", bad(func(a *Arena) { a.EndsAt = a.StartsAt }), nil},
			{"no kind of entrant", bad(func(a *Arena) { a.Entrants = "" }), nil},
			{"no such account", bad(func(a *Arena) { a.CreatedBy = ann.ID + 100 }), ErrNotFound},
		} {
			t.Run(tc.name, func(t *testing.T) {
				err := s.CreateArena(ctx, &tc.arena)
				if err == nil || tc.want != nil && !errors.Is(err, tc.want) {
					t.Errorf("CreateArena: %v, want %v", err, tc.want)
				}
			})
		}
		for _, id := range []int64{0, house.ID + 100} {
			if _, err := s.Arena(ctx, id); !errors.Is(err, ErrNotFound) {
				t.Errorf("Arena(%d): %v, want ErrNotFound", id, err)
			}
		}
		for _, key := range []string{"", "no such slot", "nul\x00"} {
			if _, err := s.ArenaBySchedule(ctx, key); !errors.Is(err, ErrNotFound) {
				t.Errorf("ArenaBySchedule(%q): %v, want ErrNotFound", key, err)
			}
		}
	})
}

func TestArenasCreatedSince(t *testing.T) {
	forEachDB(t, func(t *testing.T, db testDB) {
		ctx := context.Background()
		s := newStore(t, db)
		ann, bob := mustAccount(t, s, "Ann"), mustAccount(t, s, "Bob")
		for i, by := range []int64{ann.ID, ann.ID, ann.ID, bob.ID, 0} {
			a := newArena("a", by, base, time.Hour)
			a.CreatedAt = base.Add(time.Duration(i) * time.Minute)
			mustArena(t, s, a)
		}
		for _, tc := range []struct {
			account int64
			since   time.Time
			want    int
		}{
			{ann.ID, base, 3},
			{ann.ID, base.Add(time.Minute), 2},
			{ann.ID, base.Add(90 * time.Second), 1},
			{ann.ID, base.Add(time.Hour), 0},
			{bob.ID, base, 1},
			{bob.ID + 100, base, 0},
		} {
			got, err := s.ArenasCreatedSince(ctx, tc.account, tc.since)
			if err != nil || got != tc.want {
				t.Errorf("ArenasCreatedSince(%d, %v) = %d, %v, want %d", tc.account, tc.since, got, err, tc.want)
			}
		}
	})
}

func TestArenasList(t *testing.T) {
	forEachDB(t, func(t *testing.T, db testDB) {
		ctx := context.Background()
		s := newStore(t, db)
		now := base
		ids := map[string]int64{}
		for _, a := range []struct {
			name  string
			start time.Duration // from now
			len   time.Duration
		}{
			{"past long", -5 * time.Hour, 3 * time.Hour},
			{"past", -2 * time.Hour, time.Hour},
			{"just ended", -time.Hour, time.Hour},
			{"running late", -30 * time.Minute, 2 * time.Hour},
			{"running", -10 * time.Minute, 20 * time.Minute},
			{"starting now", 0, time.Hour},
			{"soon", 10 * time.Minute, time.Hour},
			{"later", 2 * time.Hour, time.Hour},
		} {
			ids[a.name] = mustArena(t, s, newArena(a.name, 0, now.Add(a.start), a.len)).ID
		}
		for _, tc := range []struct {
			phase         ArenaPhase
			limit, offset int
			want          []string
		}{
			{ArenasUpcoming, 0, 0, []string{"soon", "later"}},
			{ArenasRunning, 0, 0, []string{"running", "starting now", "running late"}},
			{ArenasRunning, 2, 1, []string{"starting now", "running late"}},
			{ArenasFinished, 0, 0, []string{"just ended", "past", "past long"}},
			{ArenasFinished, 2, 0, []string{"just ended", "past"}},
			{ArenasFinished, 2, 2, []string{"past long"}},
			{ArenasFinished, 2, 4, nil},
		} {
			got, err := s.Arenas(ctx, ArenaQuery{Phase: tc.phase, Now: now, Limit: tc.limit, Offset: tc.offset})
			if err != nil {
				t.Fatalf("Arenas(%d): %v", tc.phase, err)
			}
			var gotIDs, wantIDs []int64
			for _, a := range got {
				gotIDs = append(gotIDs, a.ID)
			}
			for _, name := range tc.want {
				wantIDs = append(wantIDs, ids[name])
			}
			if !reflect.DeepEqual(gotIDs, wantIDs) {
				t.Errorf("Arenas(phase %d, limit %d, offset %d) = %v, want %v %v", tc.phase, tc.limit, tc.offset, gotIDs, wantIDs, tc.want)
			}
		}
		if _, err := s.Arenas(ctx, ArenaQuery{Phase: 7, Now: now}); err == nil {
			t.Errorf("Arenas of phase 7: no error, want one")
		}
	})
}

func TestCloseArena(t *testing.T) {
	forEachDB(t, func(t *testing.T, db testDB) {
		ctx := context.Background()
		s := newStore(t, db)
		a := newArena("a", 0, base, time.Hour)
		a.Owner, a.Epoch = "n1", 2
		a = mustArena(t, s, a)
		b := mustArena(t, s, newArena("b", 0, base.Add(time.Hour), time.Hour))
		end := base.Add(time.Hour + time.Minute)
		for _, tc := range []struct {
			name  string
			arena int64
			fence Fence
			want  error
		}{
			{"stale epoch", a.ID, Fence{"n1", 1}, ErrFenced},
			{"another owner", a.ID, Fence{"n2", 2}, ErrFenced},
			{"no such arena", b.ID + 100, Fence{}, ErrNotFound},
			{"the director", a.ID, a.Fence(), nil},
			{"closed already", a.ID, a.Fence(), ErrArenaOver},
		} {
			if err := s.CloseArena(ctx, tc.fence, tc.arena, end); !errors.Is(err, tc.want) {
				t.Errorf("%s: CloseArena: %v, want %v", tc.name, err, tc.want)
			}
		}
		got, err := s.Arena(ctx, a.ID)
		if err != nil || !got.DoneAt.Equal(end) {
			t.Errorf("Arena(%d) done at %v (%v), want %v", a.ID, got.DoneAt, err, end)
		}
		undone, err := s.UndoneArenas(ctx)
		if err != nil || len(undone) != 1 || undone[0].ID != b.ID {
			t.Errorf("UndoneArenas = %s, %v, want arena %d alone", describe(undone), err, b.ID)
		}
	})
}
