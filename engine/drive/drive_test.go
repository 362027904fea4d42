package drive

import (
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"
	"time"

	"bullshit/engine"
	"bullshit/engine/bot"
)

// TestByDueSortsStably checks the driver's sort of deciders against the
// standard stable sort, at both paces, with equal moments among them.
func TestByDueSortsStably(t *testing.T) {
	kinds := []engine.Think{engine.ThinkTurn, engine.ThinkGive, engine.Listen0, engine.Listen1, engine.Listen2, engine.Listen3}
	rng := rand.New(rand.NewPCG(1, 2))
	for range 500 {
		pace := []engine.Pace{engine.Brisk, engine.Relaxed}[rng.IntN(2)]
		ds := make([]engine.Decider, rng.IntN(engine.MaxSeats))
		for i := range ds {
			ds[i] = engine.Decider{Seat: i, Think: kinds[rng.IntN(len(kinds))]}
		}
		want := slices.Clone(ds)
		slices.SortStableFunc(want, func(a, b engine.Decider) int {
			return int(engine.ThinkTime(a.Think, pace) - engine.ThinkTime(b.Think, pace))
		})
		got := slices.Clone(ds)
		due := func(d engine.Decider) time.Time { return epoch.Add(engine.ThinkTime(d.Think, pace)) }
		times := byDue(got, nil, due)
		if !slices.Equal(got, want) {
			t.Fatalf("byDue(%v): got %v, want %v", ds, got, want)
		}
		for i, d := range got {
			if !times[i].Equal(due(d)) {
				t.Fatalf("byDue(%v): got time %v for %v, want %v", ds, times[i], d, due(d))
			}
		}
	}
}

var epoch = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

// TestNextFollowsTheRule plays the first play of a game and its answers
// with made-up think times and checks each step the table names: the
// player acts its think time after the deal, a listener its own after the
// play, a pass keeps the clock, and a deadline that ties with a move is
// settled first.
func TestNextFollowsTheRule(t *testing.T) {
	opts := engine.Standard(4)
	tests := []struct {
		name   string
		listen time.Duration // every listener's think time
		// wantDeadline: after the first pass, the window's close comes
		// before the next listener's answer.
		wantDeadline bool
	}{
		{"answers inside the window", time.Second, false},
		{"an answer due as the window closes", opts.Window / 2, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := engine.New(opts, 1, epoch)
			if err != nil {
				t.Fatal(err)
			}
			// The first listener answers at listen, the others at twice it.
			first := -1
			think := func(d engine.Decider) time.Duration {
				switch {
				case d.Think == engine.ThinkTurn:
					return 3 * time.Second
				case first < 0 || d.Seat == first:
					return tt.listen
				}
				return 2 * tt.listen
			}
			dt := New(s, epoch, think)
			n := dt.Next()
			if got, want := n.At, epoch.Add(3*time.Second); n.Deadline || !got.Equal(want) {
				t.Fatalf("the first play: got %+v, want a move at %v", n, want)
			}
			v := s.View(n.Deciders[0].Seat)
			play := engine.Action{Kind: engine.ActPlay, Seat: v.Seat, Cards: v.Hand[:1]}
			if err := s.Apply(play, n.At); err != nil {
				t.Fatal(err)
			}
			dt.Moved(play, n.At)
			playedAt := n.At
			n = dt.Next()
			first = n.Deciders[0].Seat
			n = dt.Next()
			if got, want := n.At, playedAt.Add(tt.listen); n.Deadline || !got.Equal(want) || n.Deciders[0].Seat != first {
				t.Fatalf("the first answer: got %+v, want seat %d at %v", n, first, want)
			}
			pass := engine.Action{Kind: engine.ActPass, Seat: first, No: 1}
			if err := s.Apply(pass, n.At); err != nil {
				t.Fatal(err)
			}
			dt.Moved(pass, n.At)
			n = dt.Next()
			if n.Deadline != tt.wantDeadline {
				t.Fatalf("the next answer: got %+v, want a deadline %v", n, tt.wantDeadline)
			}
			if tt.wantDeadline {
				if got, want := n.At, s.Deadline(); !got.Equal(want) {
					t.Errorf("got the deadline at %v, want the window's close %v", got, want)
				}
				return
			}
			if got, want := n.At, playedAt.Add(2*tt.listen); !got.Equal(want) {
				t.Errorf("the next answer: got it at %v, want %v", got, want)
			}
		})
	}
}

// TestPlayReplays plays bot games to their end and replays their actions:
// the replay comes to the same game.
func TestPlayReplays(t *testing.T) {
	for seed := range uint64(12) {
		opts := engine.Standard(3 + int(seed%8))
		s, err := engine.New(opts, seed, epoch)
		if err != nil {
			t.Fatal(err)
		}
		seats := make([]Seat, opts.Seats)
		for i := range seats {
			if seats[i], err = bot.New(bot.Levels()[i%3], bot.SiteStyles()[i%3], seed+uint64(i)); err != nil {
				t.Fatal(err)
			}
		}
		actions, err := Play(s, epoch, seats)
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		if !s.Over() {
			t.Fatalf("seed %d: got a game not over after %d actions, want it played to its end", seed, len(actions))
		}
		log := s.Log(engine.Spectator)
		r, err := engine.Replay{Options: opts, Seed: seed, Start: epoch, Actions: actions, Over: log[len(log)-1].At}.State()
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		if got, want := r.Log(engine.Spectator), log; !reflect.DeepEqual(got, want) {
			t.Errorf("seed %d: got a replay whose log differs from the game's", seed)
		}
	}
}

// TestTurnRunsFromTheWindowsClose plays a play and lets every listener
// pass, or lets the window run out, and checks when the next player acts:
// its think time after the window closed, since its decision began then,
// not after the play.
func TestTurnRunsFromTheWindowsClose(t *testing.T) {
	opts := engine.Standard(4)
	const turn = 3 * time.Second
	tests := []struct {
		name string
		// listen is the think time of the listener of each seat.
		listen time.Duration
	}{
		{"the last pass closes it", time.Second},
		{"its deadline closes it", opts.Window + time.Second},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := engine.New(opts, 1, epoch)
			if err != nil {
				t.Fatal(err)
			}
			think := func(d engine.Decider) time.Duration {
				if d.Think == engine.ThinkTurn {
					return turn
				}
				// Each listener a quarter second slower than the one before.
				return tt.listen + time.Duration(d.Seat)*250*time.Millisecond
			}
			dt := New(s, epoch, think)
			n := dt.Next()
			player := n.Deciders[0].Seat
			v := s.View(player)
			play := engine.Action{Kind: engine.ActPlay, Seat: player, Cards: v.Hand[:1]}
			if err := s.Apply(play, n.At); err != nil {
				t.Fatal(err)
			}
			dt.Moved(play, n.At)
			var closed time.Time
			for s.Phase() != engine.PhasePlay {
				n = dt.Next()
				closed = n.At
				if n.Deadline {
					dt.Settle(n.At)
					continue
				}
				pass := engine.Action{Kind: engine.ActPass, Seat: n.Deciders[0].Seat, No: s.Plays()}
				if err := s.Apply(pass, n.At); err != nil {
					t.Fatal(err)
				}
				dt.Moved(pass, n.At)
			}
			n = dt.Next()
			if got, want := n.At, closed.Add(turn); n.Deadline || !got.Equal(want) {
				t.Errorf("the next play: got %+v, want a move at %v", n, want)
			}
		})
	}
}
