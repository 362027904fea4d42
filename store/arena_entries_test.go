package store

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"sync"
	"testing"
	"time"
)

func TestArenaEntryStates(t *testing.T) {
	forEachDB(t, func(t *testing.T, db testDB) {
		ctx := context.Background()
		s := newStore(t, db)
		ann := mustAccount(t, s, "Ann")
		a := mustArena(t, s, newArena("a", 0, base, time.Hour))
		at := func(m int) time.Time { return base.Add(time.Duration(m) * time.Minute) }
		join := func(at time.Time) (bool, error) {
			_, changed, err := s.JoinArena(ctx, a.ID, ann.ID, at)
			return changed, err
		}
		pause := func(at time.Time) (bool, error) { return s.PauseEntry(ctx, a.ID, ann.ID, at) }
		resume := func(at time.Time) (bool, error) { return s.ResumeEntry(ctx, a.ID, ann.ID, at) }
		leave := func(at time.Time) (bool, error) { return s.LeaveArena(ctx, a.ID, ann.ID, at) }
		for _, step := range []struct {
			name    string
			do      func(time.Time) (bool, error)
			at      time.Time
			changed bool
			err     error
			state   EntryState // after the step; "" for no entry
		}{
			{"pause before joining", pause, at(-5), false, ErrNotFound, ""},
			{"join before the start", join, at(-5), true, nil, EntryActive},
			{"join again", join, at(1), false, nil, EntryActive},
			{"resume an active entry", resume, at(2), false, nil, EntryActive},
			{"pause", pause, at(3), true, nil, EntryPaused},
			{"pause again", pause, at(4), false, nil, EntryPaused},
			{"come back", resume, at(5), true, nil, EntryActive},
			{"pause once more", pause, at(6), true, nil, EntryPaused},
			{"join from a pause", join, at(7), true, nil, EntryActive},
			{"leave", leave, at(8), true, nil, EntryLeft},
			{"leave again", leave, at(9), false, nil, EntryLeft},
			{"pause after leaving", pause, at(10), false, ErrEntryLeft, EntryLeft},
			{"come back after leaving", resume, at(11), false, ErrEntryLeft, EntryLeft},
			{"join again after leaving", join, at(12), true, nil, EntryActive},
			{"pause at the end", pause, at(60), false, ErrArenaOver, EntryActive},
			{"leave after the end", leave, at(61), false, ErrArenaOver, EntryActive},
			{"join after the end", join, at(60), false, ErrArenaOver, EntryActive},
		} {
			changed, err := step.do(step.at)
			if changed != step.changed || !errors.Is(err, step.err) {
				t.Errorf("%s: changed %v, %v; want %v, %v", step.name, changed, err, step.changed, step.err)
			}
			entries, err := s.ArenaEntries(ctx, a.ID)
			if err != nil {
				t.Fatalf("ArenaEntries: %v", err)
			}
			var got EntryState
			if len(entries) > 0 {
				got = entries[0].State
				if !entries[0].JoinedAt.Equal(at(-5)) {
					t.Errorf("%s: joined at %v, want %v (the first join)", step.name, entries[0].JoinedAt, at(-5))
				}
			}
			if got != step.state {
				t.Errorf("%s: state %q, want %q", step.name, got, step.state)
			}
		}
		if _, _, err := s.JoinArena(ctx, a.ID+100, ann.ID, at(1)); !errors.Is(err, ErrNotFound) {
			t.Errorf("JoinArena of no arena: %v, want ErrNotFound", err)
		}
		if _, _, err := s.JoinArena(ctx, a.ID, ann.ID+100, at(1)); !errors.Is(err, ErrNotFound) {
			t.Errorf("JoinArena of no account: %v, want ErrNotFound", err)
		}
		if err := s.CloseArena(ctx, a.Fence(), a.ID, at(30)); err != nil {
			t.Fatalf("CloseArena: %v", err)
		}
		if _, err := pause(at(31)); !errors.Is(err, ErrArenaOver) {
			t.Errorf("PauseEntry in a closed arena: %v, want ErrArenaOver", err)
		}
	})
}

func TestArenaFull(t *testing.T) {
	forEachDB(t, func(t *testing.T, db testDB) {
		ctx := context.Background()
		s := newStore(t, db)
		a := newArena("small", 0, base, time.Hour)
		a.MaxEntrants = 2
		a = mustArena(t, s, a)
		ann, bob, cid := mustAccount(t, s, "Ann"), mustAccount(t, s, "Bob"), mustAccount(t, s, "Cid")
		for _, step := range []struct {
			name string
			do   func() error
			want error
		}{
			{"Ann joins", func() error { _, _, err := s.JoinArena(ctx, a.ID, ann.ID, base); return err }, nil},
			{"Bob joins", func() error { _, _, err := s.JoinArena(ctx, a.ID, bob.ID, base); return err }, nil},
			{"Cid joins a full arena", func() error { _, _, err := s.JoinArena(ctx, a.ID, cid.ID, base); return err }, ErrArenaFull},
			{"Bob pauses", func() error { _, err := s.PauseEntry(ctx, a.ID, bob.ID, base); return err }, nil},
			{"Cid joins while Bob is paused", func() error { _, _, err := s.JoinArena(ctx, a.ID, cid.ID, base); return err }, ErrArenaFull},
			{"Bob comes back by joining", func() error { _, _, err := s.JoinArena(ctx, a.ID, bob.ID, base); return err }, nil},
			{"Bob leaves", func() error { _, err := s.LeaveArena(ctx, a.ID, bob.ID, base); return err }, nil},
			{"Cid takes his place", func() error { _, _, err := s.JoinArena(ctx, a.ID, cid.ID, base); return err }, nil},
			{"Bob joins again, full", func() error { _, _, err := s.JoinArena(ctx, a.ID, bob.ID, base); return err }, ErrArenaFull},
			{"Ann joins again, in already", func() error { _, _, err := s.JoinArena(ctx, a.ID, ann.ID, base); return err }, nil},
		} {
			if err := step.do(); !errors.Is(err, step.want) {
				t.Errorf("%s: %v, want %v", step.name, err, step.want)
			}
		}
		entries, err := s.ArenaEntries(ctx, a.ID)
		if err != nil {
			t.Fatalf("ArenaEntries: %v", err)
		}
		got := map[string]EntryState{}
		for _, e := range entries {
			got[e.Name] = e.State
		}
		want := map[string]EntryState{"Ann": EntryActive, "Bob": EntryLeft, "Cid": EntryActive}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("entries %v, want %v", got, want)
		}
	})
}

func TestArenaEntriesAndAccountArenas(t *testing.T) {
	forEachDB(t, func(t *testing.T, db testDB) {
		ctx := context.Background()
		s := newStore(t, db)
		ann, bob := mustAccount(t, s, "Ann"), mustAccount(t, s, "Bob")
		if err := s.SetBot(ctx, bob.ID, true); err != nil {
			t.Fatal(err)
		}
		var arenas []Arena
		for i := range 4 {
			arenas = append(arenas, mustArena(t, s, newArena("a", 0, base.Add(time.Duration(i)*time.Hour), time.Hour)))
		}
		// Ann joins each arena an hour after the one before; Bob the first.
		for i, a := range arenas {
			if _, _, err := s.JoinArena(ctx, a.ID, ann.ID, a.StartsAt.Add(time.Minute)); err != nil {
				t.Fatal(err)
			}
			if i == 0 {
				if _, _, err := s.JoinArena(ctx, a.ID, bob.ID, a.StartsAt); err != nil {
					t.Fatal(err)
				}
			}
		}
		entries, err := s.ArenaEntries(ctx, arenas[0].ID)
		if err != nil {
			t.Fatal(err)
		}
		want := []ArenaEntry{
			{ArenaID: arenas[0].ID, PlayerID: bob.ID, State: EntryActive, JoinedAt: base, ChangedAt: base, Name: "Bob", Bot: true},
			{ArenaID: arenas[0].ID, PlayerID: ann.ID, State: EntryActive, JoinedAt: base.Add(time.Minute), ChangedAt: base.Add(time.Minute), Name: "Ann"},
		}
		if !reflect.DeepEqual(entries, want) {
			t.Errorf("ArenaEntries = %s, want %s", describe(entries), describe(want))
		}
		for _, tc := range []struct {
			player        int64
			limit, offset int
			want          []int // indexes in arenas
		}{
			{ann.ID, 0, 0, []int{3, 2, 1, 0}},
			{ann.ID, 3, 0, []int{3, 2, 1}},
			{ann.ID, 3, 3, []int{0}},
			{ann.ID, 3, 6, nil},
			{bob.ID, 10, 0, []int{0}},
			{bob.ID + 100, 10, 0, nil},
		} {
			got, err := s.AccountArenas(ctx, tc.player, tc.limit, tc.offset)
			if err != nil {
				t.Fatalf("AccountArenas: %v", err)
			}
			var gotIDs, wantIDs []int64
			for _, e := range got {
				if e.Arena.ID != e.Entry.ArenaID || e.Entry.PlayerID != tc.player {
					t.Errorf("AccountArenas(%d): arena %d with entry %s", tc.player, e.Arena.ID, describe(e.Entry))
				}
				gotIDs = append(gotIDs, e.Arena.ID)
			}
			for _, i := range tc.want {
				wantIDs = append(wantIDs, arenas[i].ID)
			}
			if !reflect.DeepEqual(gotIDs, wantIDs) {
				t.Errorf("AccountArenas(%d, %d, %d) = %v, want %v", tc.player, tc.limit, tc.offset, gotIDs, wantIDs)
			}
		}
	})
}

// TestArenaLastPlaces: accounts racing for an arena's last places take
// exactly as many as are left.
func TestArenaLastPlaces(t *testing.T) {
	forEachDB(t, func(t *testing.T, db testDB) {
		ctx := context.Background()
		s := newStore(t, db)
		a := newArena("small", 0, base, time.Hour)
		a.MaxEntrants = 3
		a = mustArena(t, s, a)
		const racers = 10
		ids := make([]int64, racers)
		for i := range ids {
			ids[i] = mustAccount(t, s, fmt.Sprint("racer", i)).ID
		}
		errs := make([]error, racers)
		var wg sync.WaitGroup
		for i := range racers {
			wg.Go(func() { _, _, errs[i] = s.JoinArena(ctx, a.ID, ids[i], base) })
		}
		wg.Wait()
		joined := 0
		for i, err := range errs {
			switch {
			case err == nil:
				joined++
			case !errors.Is(err, ErrArenaFull):
				t.Errorf("racer %d: %v, want nil or ErrArenaFull", i, err)
			}
		}
		entries, err := s.ArenaEntries(ctx, a.ID)
		if err != nil {
			t.Fatal(err)
		}
		if joined != a.MaxEntrants || len(entries) != a.MaxEntrants {
			t.Errorf("%d joins acknowledged, %d stored, want %d and %d", joined, len(entries), a.MaxEntrants, a.MaxEntrants)
		}
	})
}
