package bot

import (
	"encoding/json"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"bullshit/engine"
)

var epoch = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

// every is one bot of each level and style, seeded from seed.
func every(t testing.TB, seed uint64) []*Bot {
	t.Helper()
	var bots []*Bot
	for _, l := range Levels() {
		for _, s := range Styles() {
			b, err := New(l, s, seed)
			if err != nil {
				t.Fatal(err)
			}
			bots = append(bots, b)
		}
	}
	return bots
}

// walk plays a bot-only game at seats seats with seed, calling visit with the
// state and the deciding seat's view before each move. The seats' bots are
// drawn from every level and style. It returns the finished state.
func walk(t *testing.T, seats int, opts engine.Options, seed uint64, visit func(s *engine.State, v engine.View, b *Bot)) *engine.State {
	t.Helper()
	s, err := engine.New(opts, seed, epoch)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(seed, 7))
	pool := every(t, seed)
	bots := make([]*Bot, seats)
	for i := range bots {
		bots[i] = pool[rng.IntN(len(pool))]
	}
	now := epoch
	for steps := 0; !s.Over(); steps++ {
		if steps > 20000 {
			t.Fatalf("seed %d: the game did not end", seed)
		}
		ds := s.Deciding()
		// A deadline before the next move (a grace for calls made together
		// is shorter than a move's step) is settled first.
		if dl := s.Deadline(); len(ds) == 0 || (!dl.IsZero() && dl.Before(now.Add(300*time.Millisecond))) {
			now = dl
			s.Tick(now)
			continue
		}
		d := ds[rng.IntN(len(ds))]
		v := s.View(d.Seat)
		b := bots[d.Seat]
		if visit != nil {
			visit(s, v, b)
		}
		a, ok := b.Choose(v)
		if !ok {
			t.Fatalf("seed %d: %s had nothing to do in %v", seed, b, v.Phase)
		}
		now = now.Add(300 * time.Millisecond)
		if err := s.Apply(a, now); err != nil {
			t.Fatalf("seed %d: %s chose %+v, refused: %v", seed, b, a, err)
		}
	}
	return s
}

func TestChooseIsAlwaysAccepted(t *testing.T) {
	tests := []struct {
		name  string
		sneak int
		pen   engine.Penalty
	}{
		{"standard", engine.StandardSneak, engine.StandardPenalty},
		{"no sneaking", 0, engine.StandardPenalty},
		{"sneak 3, a card per card", 3, engine.Penalty{Cards: 1, PerCard: true}},
		{"sneak 1, no penalty", 1, engine.Penalty{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			moves := 0
			for seed := range uint64(40) {
				seats := engine.MinSeats + int(seed)%(engine.MaxSeats-engine.MinSeats+1)
				opts := engine.Standard(seats)
				opts.Sneak, opts.Penalty = tt.sneak, tt.pen
				// walk applies every choice and fails the test if the
				// engine refuses one.
				walk(t, seats, opts, seed, func(*engine.State, engine.View, *Bot) { moves++ })
			}
			if moves < 2000 {
				t.Errorf("got %d moves checked, want at least 2000", moves)
			}
		})
	}
}

func TestSameViewSameChoice(t *testing.T) {
	for seed := range uint64(12) {
		seats := 3 + int(seed)%8
		walk(t, seats, engine.Standard(seats), seed, func(_ *engine.State, v engine.View, _ *Bot) {
			raw, err := json.Marshal(v)
			if err != nil {
				t.Fatal(err)
			}
			var again engine.View
			if err := json.Unmarshal(raw, &again); err != nil {
				t.Fatal(err)
			}
			for _, b := range every(t, seed*31+1) {
				got, gotOK := b.Choose(again)
				want, wantOK := b.Choose(v)
				if gotOK != wantOK || !sameAction(got, want) {
					t.Fatalf("seed %d: %s: got %+v from the round-tripped view, want %+v", seed, b, got, want)
				}
			}
		})
	}
}

func sameAction(a, b engine.Action) bool {
	return a.Kind == b.Kind && a.Seat == b.Seat && a.No == b.No && a.Claim == b.Claim && slices.Equal(a.Cards, b.Cards)
}

func TestNeverSneaksLastCards(t *testing.T) {
	plays, sneaks := 0, 0
	for seed := range uint64(60) {
		seats := 3 + int(seed)%8
		opts := engine.Standard(seats)
		opts.Sneak = engine.MaxSneakLimit
		walk(t, seats, opts, seed, func(_ *engine.State, v engine.View, b *Bot) {
			a, _ := b.Choose(v)
			if a.Kind != engine.ActPlay {
				return
			}
			plays++
			sneaked := len(a.Cards) - a.Claim
			if sneaked == 0 {
				return
			}
			sneaks++
			p := b.Style().Params()
			switch {
			case len(a.Cards) >= len(v.Hand):
				t.Fatalf("seed %d: %s sneaked %d under its last cards (%d in hand)", seed, b, sneaked, len(v.Hand))
			case sneaked > p.Most || sneaked > v.Options.Sneak:
				t.Fatalf("seed %d: %s sneaked %d, past its limit %d or the table's %d", seed, b, sneaked, p.Most, v.Options.Sneak)
			case b.Level() != Easy && p.Reckless == 0 && engine.SneakMayShow(len(v.Hand), v.Pile, a.Claim, sneaked):
				t.Fatalf("seed %d: %s sneaked %d where it shows (hand %d, pile %v)", seed, b, sneaked, len(v.Hand), v.Pile)
			}
		})
	}
	if sneaks == 0 || plays == 0 {
		t.Fatalf("got %d sneaks in %d plays, want some", sneaks, plays)
	}
}

// TestSourceReadsAsRand checks that a bot's source gives the numbers and
// shuffles a rand.Rand over the same PCG would, in any mix: the bots'
// choices, and so the simulator's report, depend on it.
func TestSourceReadsAsRand(t *testing.T) {
	for seed := range uint64(20) {
		src := &source{}
		src.pcg.Seed(seed, seed^0xabc)
		want := rand.New(rand.NewPCG(seed, seed^0xabc))
		for i := range 50 {
			if i%7 == 3 {
				got, wanted := []int{0, 1, 2, 3, 4, 5, 6, 7}, []int{0, 1, 2, 3, 4, 5, 6, 7}
				src.Shuffle(len(got), func(i, j int) { got[i], got[j] = got[j], got[i] })
				want.Shuffle(len(wanted), func(i, j int) { wanted[i], wanted[j] = wanted[j], wanted[i] })
				if !slices.Equal(got, wanted) {
					t.Fatalf("seed %d, draw %d: got shuffle %v, want %v", seed, i, got, wanted)
				}
				continue
			}
			if got, wanted := src.Float64(), want.Float64(); got != wanted {
				t.Fatalf("seed %d, draw %d: got %v, want %v", seed, i, got, wanted)
			}
		}
	}
}
