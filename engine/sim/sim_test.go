package sim

import (
	"context"
	"encoding/xml"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"bullshit/engine"
	"bullshit/engine/bot"
)

// randomSeats gives every seat a level and style drawn from rng.
func randomSeats(n int, rng *rand.Rand) []Seat {
	seats := make([]Seat, n)
	for i := range seats {
		styles := bot.Styles()
		seats[i] = Seat{Level: bot.Levels()[rng.IntN(3)], Style: styles[rng.IntN(len(styles))]}
	}
	return seats
}

func TestWholeGamesConserveCardsAndEnd(t *testing.T) {
	for seats := engine.MinSeats; seats <= engine.MaxSeats; seats++ {
		t.Run(fmt.Sprintf("%d seats", seats), func(t *testing.T) {
			rng := rand.New(rand.NewPCG(uint64(seats), 3))
			for game := range 12 {
				g := Game{Options: engine.Standard(seats), Seats: randomSeats(seats, rng), Seed: rng.Uint64()}
				total := 52 * g.Options.Decks()
				steps := 0
				out, err := play(g, func(s *engine.State) {
					steps++
					held := 0
					for i := range seats {
						held += s.HandSize(i)
					}
					pile := total - held
					if seen := s.View(engine.Spectator).Pile; pile < 0 || !seen.Contains(pile) {
						t.Fatalf("game %d: hands hold %d of %d cards, so the pile has %d, but it looks like %v",
							game, held, total, pile, seen)
					}
				})
				if err != nil {
					t.Fatalf("game %d: %v", game, err)
				}
				if steps == 0 || out.Plays == 0 || out.Plays > engine.PlayCap {
					t.Fatalf("game %d: got %d plays in %d steps, want 1 to %d", game, out.Plays, steps, engine.PlayCap)
				}
				if !out.Capped && (out.Winner < 0 || out.Places[out.Winner] != 1) {
					t.Fatalf("game %d: got winner %d with places %v, want a winner placed first", game, out.Winner, out.Places)
				}
			}
		})
	}
}

func TestSameReportWhateverTheWorkers(t *testing.T) {
	cfg := Config{Seed: 7, Games: 4, KnobGames: 2}
	var got []string
	for _, workers := range []int{1, 3} {
		cfg.Workers = workers
		r, err := Measure(context.Background(), cfg, nil)
		if err != nil {
			t.Fatal(err)
		}
		a, err := Anchors(context.Background(), cfg, nil)
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, r.Markdown("charts/")+AnchorsMarkdown(a, cfg))
	}
	if got[0] != got[1] {
		t.Errorf("got a different report with 3 workers than with 1:\n%s\nwant:\n%s", got[1], got[0])
	}
}

func TestReportShape(t *testing.T) {
	done, total := 0, 0
	r, err := Measure(context.Background(), Config{Seed: 2, Games: 3, KnobGames: 2}, func(d, n int) { done, total = d, n })
	if err != nil {
		t.Fatal(err)
	}
	if done != total || total == 0 {
		t.Errorf("got progress %d of %d at the end, want all", done, total)
	}
	if got, want := len(r.Length), engine.MaxSeats-engine.MinSeats+1; got != want {
		t.Errorf("got %d length rows, want %d", got, want)
	}
	if got, want := len(r.Sneak), len(Sneakers)*len(SneakSeats); got != want {
		t.Errorf("got %d sneak rows, want %d", got, want)
	}
	if got, want := len(r.Knobs), len(Penalties)*(engine.MaxSneakLimit+1); got != want {
		t.Errorf("got %d knob rows, want %d", got, want)
	}
	md := r.Markdown("charts/")
	for _, want := range []string{"### Length and balance", "### Is sneaking worth it?", "### The knobs", "(chosen)", "charts/knobs.svg"} {
		if !strings.Contains(md, want) {
			t.Errorf("the Markdown lacks %q", want)
		}
	}
	for name, svg := range r.Charts() {
		dec := xml.NewDecoder(strings.NewReader(string(svg)))
		rects := 0
		for {
			tok, err := dec.Token()
			if err != nil {
				if err.Error() != "EOF" {
					t.Fatalf("%s: not well-formed: %v", name, err)
				}
				break
			}
			if el, ok := tok.(xml.StartElement); ok && el.Name.Local == "rect" {
				rects++
			}
		}
		if rects < 4 {
			t.Errorf("%s: got %d rects, want bars", name, rects)
		}
	}
}

func TestAnchorsLineups(t *testing.T) {
	rows, err := Anchors(context.Background(), Config{Seed: 3, Games: 20}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != len(Pairings)*len(AnchorSeats) {
		t.Fatalf("got %d rows, want %d", len(rows), len(Pairings)*len(AnchorSeats))
	}
	for _, r := range rows {
		if r.Score.Value < 0 || r.Score.Value > 1 || r.Score.Lo > r.Score.Value || r.Score.Hi < r.Score.Value {
			t.Errorf("%s vs %s: got score %v, want a share inside its interval", r.Strong, r.Weak, r.Score)
		}
		for i, l := range r.Lineups {
			want := []int{1, r.Seats - 1}[i]
			if l.Strong != want || l.Strong+l.Weak != r.Seats {
				t.Errorf("%s vs %s at %d seats: got line-up %d vs %d, want %d vs %d", r.Strong, r.Weak, r.Seats, l.Strong, l.Weak,
					want, r.Seats-want)
			}
		}
	}
}

func TestRunStopsWhenCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	games := make([]Game, 50)
	for i := range games {
		games[i] = Game{Options: engine.Standard(4), Seats: randomSeats(4, rand.New(rand.NewPCG(1, uint64(i)))), Seed: uint64(i)}
	}
	if _, err := Run(ctx, games, 2, nil); !errors.Is(err, context.Canceled) {
		t.Errorf("got %v, want context.Canceled", err)
	}
}

func TestRunReportsABadGame(t *testing.T) {
	games := []Game{{Options: engine.Standard(4), Seats: []Seat{{Level: "expert", Style: bot.Honest}}, Seed: 1}}
	if _, err := Run(context.Background(), games, 1, nil); err == nil {
		t.Errorf("got no error for a bot of no known level, want one")
	}
}

func TestStats(t *testing.T) {
	near := func(a, b float64) bool { return math.Abs(a-b) < 0.005 }
	tests := []struct {
		name string
		got  Estimate
		want Estimate
	}{
		// Wilson's interval for 0 of 100 and 50 of 100.
		{"none of 100", proportion(0, 100), Estimate{0, 0, 0.037}},
		{"half of 100", proportion(50, 100), Estimate{0.5, 0.404, 0.596}},
		// A constant has no spread.
		{"mean of equal values", mean([]float64{3, 3, 3}), Estimate{3, 3, 3}},
		// Worked conversions: a score of 83.8% is a gap of +286, 56.2% of +43.
		{"elo of 0.838", elo(Estimate{0.838, 0.838, 0.838}).Scale(0.01), Estimate{2.856, 2.856, 2.856}},
		{"elo of 0.562", elo(Estimate{0.562, 0.5, 0.562}).Scale(0.01), Estimate{0.432, 0, 0.432}},
	}
	for _, tt := range tests {
		if !near(tt.got.Value, tt.want.Value) || !near(tt.got.Lo, tt.want.Lo) || !near(tt.got.Hi, tt.want.Hi) {
			t.Errorf("%s: got %v, want %v", tt.name, tt.got, tt.want)
		}
	}
}

func BenchmarkGame(b *testing.B) {
	for _, seats := range []int{4, 8} {
		b.Run(fmt.Sprintf("%d seats", seats), func(b *testing.B) {
			rng := rand.New(rand.NewPCG(1, 2))
			games := make([]Game, 64)
			for i := range games {
				g := Game{Options: engine.Standard(seats), Seats: make([]Seat, seats), Seed: rng.Uint64()}
				for s := range g.Seats {
					g.Seats[s] = siteBot([]bot.Level{bot.Medium, bot.Hard}[rng.IntN(2)], rng)
				}
				games[i] = g
			}
			plays := 0
			i := 0
			for b.Loop() {
				out, err := Play(games[i%len(games)])
				if err != nil {
					b.Fatal(err)
				}
				plays += out.Plays
				i++
			}
			b.ReportMetric(float64(i)/b.Elapsed().Seconds(), "games/s")
			b.ReportMetric(float64(plays)/float64(i), "plays/game")
		})
	}
}

// BenchmarkRun is the simulator's own loop: games of four medium and hard
// bots, the report's mix, played by Run on every core it is given (set
// GOMAXPROCS=1 for one), with its garbage-collector budget.
func BenchmarkRun(b *testing.B) {
	rng := rand.New(rand.NewPCG(3, 4))
	games := make([]Game, 256)
	for i := range games {
		g := Game{Options: engine.Standard(4), Seats: make([]Seat, 4), Seed: rng.Uint64()}
		for s := range g.Seats {
			g.Seats[s] = siteBot([]bot.Level{bot.Medium, bot.Hard}[rng.IntN(2)], rng)
		}
		games[i] = g
	}
	n := 0
	for b.Loop() {
		if _, err := Run(context.Background(), games, 0, nil); err != nil {
			b.Fatal(err)
		}
		n += len(games)
	}
	b.ReportMetric(float64(n)/b.Elapsed().Seconds(), "games/s")
}
