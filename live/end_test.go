package live

import (
	"encoding/json"
	"slices"
	"testing"
	"time"

	"bullshit/engine"
)

// finalViews waits for the table's final views to be published and returns
// them, as JSON by seat from the spectator (-1) on.
func (f *fixture) finalViews(id string, seats int) []string {
	f.t.Helper()
	for range 1000 {
		f.pub.mu.Lock()
		closed := f.pub.closed[id]
		var out []string
		for seat := engine.Spectator; seat < seats; seat++ {
			b, err := json.Marshal(f.pub.views[id][seat])
			if err != nil {
				f.t.Fatal(err)
			}
			out = append(out, string(b))
		}
		f.pub.mu.Unlock()
		if closed > 0 {
			return out
		}
		time.Sleep(10 * time.Millisecond)
	}
	f.t.Fatal("the final views were never published")
	return nil
}

// The host ends a game a moment after a deadline the table settled by
// itself, with no move since: the results stored, the views the players
// were last sent and the game replayed from its log (before and after a
// restart) must all agree. The person plays at an odd nanosecond, so the
// deadline falls inside the microsecond the end is stored to.
func TestEndedGameReplaysAsItWasPlayed(t *testing.T) {
	f := newFixture(t)
	id, _ := personGame(f)
	f.awaitTurn(id, false)
	f.clock.Advance(123 * time.Nanosecond)
	play, _ := f.view(id, 0).Fallback()
	if _, err := f.m.Act(f.ctx, id, play); err != nil {
		t.Fatal(err)
	}
	// Up to a millisecond before a deadline (a window the person lets run
	// out, or a reveal) that nothing will come before.
	var due time.Time
	f.until(id, 10*time.Minute, func() bool {
		due = f.view(id, 0).Closes
		if due.IsZero() || f.view(id, 0).Phase == engine.PhaseOver {
			return false
		}
		if d := due.Add(-time.Millisecond).Sub(f.clock.Now()); d > 0 {
			f.step(id, d)
		}
		return f.view(id, 0).Closes.Equal(due)
	})
	if due.Equal(due.Truncate(time.Microsecond)) {
		t.Fatalf("got the next deadline at %v, want one inside a microsecond", due)
	}
	f.clock.Advance(due.Add(500 * time.Nanosecond).Sub(f.clock.Now()))
	if err := f.m.End(f.ctx, id, 0); err != nil {
		t.Fatal(err)
	}
	played := f.finalViews(id, 3)
	if !json.Valid([]byte(played[0])) || f.view(id, engine.Spectator).Phase != engine.PhaseOver {
		t.Fatalf("the game did not end")
	}

	for _, restarted := range []bool{false, true} {
		if restarted {
			if err := f.m.Close(f.ctx); err != nil {
				t.Fatal(err)
			}
			f.m = f.open(f.st)
		}
		replayed := f.views(f.m, id)
		for i := range played {
			if replayed[i] != played[i] {
				t.Errorf("restarted %v: seat %d replayed as\n%s\nwant as the table sent it\n%s", restarted, i-1, replayed[i], played[i])
			}
		}
		stored, err := f.st.Results(f.ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		var got, want []engine.Place
		for _, r := range stored {
			got = append(got, engine.Place{Seat: r.Seat, Place: r.Place, Left: r.Left})
		}
		for _, r := range f.view(id, engine.Spectator).Result {
			want = append(want, r.Place)
		}
		if !slices.Equal(got, want) {
			t.Errorf("restarted %v: got stored results %v, want %v as replayed", restarted, got, want)
		}
	}
}
