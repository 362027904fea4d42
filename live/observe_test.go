package live

import (
	"sync"
	"testing"
	"time"

	"bullshit/game"
)

// TestObserveSeesEveryTiming: the hook handed to Observe sees each duration
// Stats counts, of every kind, and TableCounts counts the open and the playing.
func TestObserveSeesEveryTiming(t *testing.T) {
	f := newFixture(t)
	var mu sync.Mutex
	seen := map[Timing]int64{}
	f.m.Observe(func(k Timing, d time.Duration) {
		mu.Lock()
		defer mu.Unlock()
		seen[k]++
	})
	f.create(3, 1)
	id := f.botGame(3)
	if open, playing := f.m.TableCounts(); open != 1 || playing != 1 {
		t.Errorf("got %d open and %d playing, want 1 and 1", open, playing)
	}
	counts := func() (want, got map[Timing]int64) {
		s := f.m.Stats()
		mu.Lock()
		defer mu.Unlock()
		return map[Timing]int64{TimeDeadlines: s.Deadlines.Count, TimeBots: s.Bots.Count,
				TimePublish: s.Publish.Count, TimeCommits: s.Commits.Count, TimeQueued: s.Queued.Count}, map[Timing]int64{
				TimeDeadlines: seen[TimeDeadlines], TimeBots: seen[TimeBots], TimePublish: seen[TimePublish],
				TimeCommits: seen[TimeCommits], TimeQueued: seen[TimeQueued]}
	}
	f.until(id, 10*time.Minute, func() bool {
		want, _ := counts()
		return want[TimeDeadlines] > 0 && want[TimeBots] > 0 && want[TimePublish] > 0 && want[TimeCommits] > 0 &&
			want[TimeQueued] > 0
	})
	// The publishing and the commit's timing are recorded off the table's
	// goroutine, a moment after the table moves on.
	for waited := 0; ; waited++ {
		want, got := counts()
		if sameCounts(got, want) {
			break
		}
		if waited == 1000 {
			t.Fatalf("got %v observed, want %v as Stats counts", got, want)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// TestObserversAllSeeADuration: a second Observe adds to the first, so the
// server's metrics and a load test both see every duration.
func TestObserversAllSeeADuration(t *testing.T) {
	tests := []struct {
		name      string
		observers int
	}{
		{"none", 0},
		{"one", 1},
		{"two", 2},
		{"three", 3},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var h histogram
			seen := make([]time.Duration, tt.observers)
			for i := range tt.observers {
				h.observe(func(d time.Duration) { seen[i] += d })
			}
			h.record(3 * time.Millisecond)
			h.record(time.Millisecond)
			for i, got := range seen {
				if want := 4 * time.Millisecond; got != want {
					t.Errorf("observer %d: got %v in all, want %v", i, got, want)
				}
			}
		})
	}
}

func sameCounts(a, b map[Timing]int64) bool {
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return len(a) == len(b)
}

// BenchmarkTables is one count of 20,000 running tables, as each scrape of
// the metrics makes it.
func BenchmarkTables(b *testing.B) {
	m := &Manager{running: map[string]*table{}}
	for i := range 20000 {
		t := &table{}
		status := game.StatusLive
		if i%50 == 0 {
			status = game.StatusOpen
		}
		t.snap.Store(&snapshot{summary: game.Summary{Status: status}})
		m.running[string(rune(i))+"-"+string(rune(i/7))] = t
	}
	for b.Loop() {
		if open, playing := m.TableCounts(); open+playing != len(m.running) {
			b.Fatalf("got %d and %d, want %d in all", open, playing, len(m.running))
		}
	}
}
