package live

import (
	"testing"
	"time"

	"bullshit/engine"
)

func TestBotGamePlaysToEnd(t *testing.T) {
	for _, seats := range []int{3, 5, 8} {
		f := newFixture(t)
		id := f.botGame(seats)
		f.playOut(id, 3*time.Hour)

		sum, err := f.m.Get(f.ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		if got, want := len(sum.Result), seats; got != want {
			t.Errorf("%d seats: got %d results, want %d", seats, got, want)
		}
		results, err := f.st.Results(f.ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range results {
			if r.Rated {
				t.Errorf("%d seats: seat %d rated, want no rated seat in a bot game", seats, r.Seat)
			}
		}
		actions, err := f.st.Actions(f.ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		v := f.view(id, engine.Spectator)
		if v.Phase != engine.PhaseOver {
			t.Errorf("%d seats: got phase %v after the finish, want over", seats, v.Phase)
		}
		t.Logf("%d seats: %d plays, %d actions, capped %v", seats, v.Plays, len(actions), v.Capped)
		if len(actions) < v.Plays {
			t.Errorf("%d seats: got %d stored actions for %d plays, want at least one per play", seats, len(actions), v.Plays)
		}
		// Close waits for the publishing goroutines too.
		if err := f.m.Close(f.ctx); err != nil {
			t.Fatal(err)
		}
		f.pub.mu.Lock()
		closed, last := f.pub.closed[id], f.pub.views[id][engine.Spectator]
		f.pub.mu.Unlock()
		if closed != 1 {
			t.Errorf("%d seats: the publisher was told %d times the game closed, want once", seats, closed)
		}
		if last.Phase != engine.PhaseOver {
			t.Errorf("%d seats: got last published phase %v, want over", seats, last.Phase)
		}
	}
}
