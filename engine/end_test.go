package engine

import (
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"
	"time"
)

func TestEndSettlesAHandOverThatRanOut(t *testing.T) {
	s := rulesTable(t, Options{})
	run(t, s, []step{playSneak, call1, revealOver})
	ticked := s.Clone()
	ticked.Tick(at(giveEnd + 1000))
	s.End(at(giveEnd + 1000))
	ticked.End(at(giveEnd + 1000))
	if got, want := s.Result(), ticked.Result(); !slices.Equal(got, want) {
		t.Errorf("got result %v, want %v: the hand-over that ran out is made before the end", got, want)
	}
	if got, want := s.Log(Spectator), ticked.Log(Spectator); !reflect.DeepEqual(got, want) {
		t.Errorf("got log\n%+v\nwant\n%+v", got, want)
	}
	if got, want := s.Version(), ticked.Version(); got != want {
		t.Errorf("got version %d, want %d", got, want)
	}
}

// endedGames is how many random games the end property test plays; -short
// and the race detector play fewer.
func endedGames() int {
	if testing.Short() || raceEnabled {
		return 400
	}
	return 4000
}

// A game the host ends must come out the same whether the state was ticked
// along by a running table, as often as it liked, or rebuilt from its stored
// actions (a replay, or a restart) and ended at the stored time: the same
// results, views and log. The games are random and seeded, stopped at any
// step (past a deadline or two, now and then after a resume), and ended a
// random moment later.
func TestEndedGamesReplayAsPlayed(t *testing.T) {
	var afterDeadline, withResume int
	for g := range endedGames() {
		seed := uint64(g)
		rng := rand.New(rand.NewPCG(seed, 0xe4d))
		opts := randomOptions(rng, MinSeats+rng.IntN(MaxSeats-MinSeats+1))
		d := newDriver(t, opts, seed)
		d.resumes = true
		for range rng.IntN(300) {
			if !d.step(t) {
				break
			}
			if g%40 == 0 {
				// Resumes keep the invariants too.
				checkInvariants(t, d.s, d.now)
			}
		}
		live := d.s
		end := d.now.Add(time.Duration(rng.Int64N(int64(12 * time.Second))))
		if dl := live.Deadline(); !dl.IsZero() && !dl.After(end) {
			afterDeadline++
		}
		if slices.ContainsFunc(d.applied, func(a timedAction) bool { return a.a.Kind == ActResume }) {
			withResume++
		}
		// The running table wakes now and then, and catches up at the end.
		for t := d.now; ; {
			t = t.Add(time.Duration(rng.IntN(3000)) * time.Millisecond)
			if t.After(end) {
				break
			}
			live.Tick(t)
		}
		live.Tick(end)
		live.End(end)

		replay, err := New(opts, seed, t0)
		if err != nil {
			t.Fatal(err)
		}
		for i, a := range d.applied {
			if err := replay.Apply(a.a, a.at); err != nil {
				t.Fatalf("seed %d: replaying action %d %+v: %v", seed, i, a.a, err)
			}
		}
		replay.End(end)

		if got, want := replay.Result(), live.Result(); !slices.Equal(got, want) {
			t.Fatalf("seed %d: replayed result %v, want %v as played", seed, got, want)
		}
		if !reflect.DeepEqual(replay.events(0), live.events(0)) {
			t.Fatalf("seed %d: replayed log differs from the log as played:\ngot  %+v\nwant %+v", seed, replay.log[max(0, len(replay.log)-3):], live.log[max(0, len(live.log)-3):])
		}
		for seat := Spectator; seat < opts.Seats; seat++ {
			if got, want := replay.View(seat), live.View(seat); !reflect.DeepEqual(got, want) {
				t.Fatalf("seed %d: seat %d's replayed view\n%+v\nwant\n%+v", seed, seat, got, want)
			}
		}
	}
	if afterDeadline == 0 || withResume == 0 {
		t.Errorf("got %d games ended past a deadline and %d with a resume, want some of each", afterDeadline, withResume)
	}
	t.Logf("%d games: %d ended past a deadline, %d resumed at least once", endedGames(), afterDeadline, withResume)
}
