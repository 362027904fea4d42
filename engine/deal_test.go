package engine

import (
	"fmt"
	"slices"
	"testing"
)

func TestDealOneAtATimeFromTheDealersLeft(t *testing.T) {
	tests := []struct {
		seats, dealer int
		// want is the first card each seat gets, by card index in the
		// unshuffled deck, and how many cards each ends with.
		first []int
		sizes []int
	}{
		{seats: 3, dealer: 0, first: []int{2, 0, 1}, sizes: []int{17, 18, 17}},
		{seats: 3, dealer: 2, first: []int{0, 1, 2}, sizes: []int{18, 17, 17}},
		{seats: 4, dealer: 1, first: []int{2, 3, 0, 1}, sizes: []int{13, 13, 13, 13}},
		{seats: 5, dealer: 4, first: []int{0, 1, 2, 3, 4}, sizes: []int{11, 11, 10, 10, 10}},
		{seats: 6, dealer: 3, first: []int{2, 3, 4, 5, 0, 1}, sizes: []int{9, 9, 8, 8, 9, 9}},
		{seats: 7, dealer: 0, first: []int{6, 0, 1, 2, 3, 4, 5}, sizes: []int{14, 15, 15, 15, 15, 15, 15}},
		{seats: 10, dealer: 9, first: []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}, sizes: []int{11, 11, 11, 11, 10, 10, 10, 10, 10, 10}},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("%d seats, dealer %d", tt.seats, tt.dealer), func(t *testing.T) {
			decks := Standard(tt.seats).Decks()
			hands := deal(deck(decks), tt.seats, tt.dealer)
			for seat, h := range hands {
				if got := len(h); got != tt.sizes[seat] {
					t.Errorf("seat %d: got %d cards, want %d", seat, got, tt.sizes[seat])
				}
				// Unshuffled, a seat's cards are every n-th card from its first.
				if !slices.IsSortedFunc(h, func(a, b Card) int { return order(a) - order(b) }) {
					t.Errorf("seat %d: hand not sorted: %v", seat, h)
				}
				h = slices.Clone(h)
				slices.Sort(h)
				for i, c := range h {
					if want := Card(tt.first[seat] + i*tt.seats); c != want {
						t.Fatalf("seat %d card %d: got %v, want %v", seat, i, c, want)
					}
				}
			}
		})
	}
}

func TestNewDealsEveryCard(t *testing.T) {
	for seats := MinSeats; seats <= MaxSeats; seats++ {
		for _, seed := range []uint64{0, 1, 7, 12345, 1 << 40, ^uint64(0)} {
			t.Run(fmt.Sprintf("seats=%d/seed=%d", seats, seed), func(t *testing.T) {
				s, err := New(Standard(seats), seed, t0)
				if err != nil {
					t.Fatal(err)
				}
				decks := 1
				if seats >= 7 {
					decks = 2
				}
				if got := s.opts.Decks(); got != decks {
					t.Errorf("got %d decks, want %d", got, decks)
				}
				var all []Card
				for _, h := range s.hands {
					all = append(all, h...)
				}
				slices.Sort(all)
				if !slices.Equal(all, deck(decks)) {
					t.Errorf("got %d cards dealt, want each of the %d once", len(all), 52*decks)
				}
				if len(s.pile) != 0 {
					t.Errorf("got a pile of %d, want none", len(s.pile))
				}
				// The deal is the seed's shuffle, dealt from the dealer's left.
				if got, want := s.hands, deal(shuffled(decks, seed), seats, s.dealer); !slices.EqualFunc(got, want, slices.Equal) {
					t.Errorf("got hands %v, want %v", got, want)
				}
				if want := int(seed % uint64(seats)); s.dealer != want {
					t.Errorf("got dealer %d, want %d", s.dealer, want)
				}
				if want := (s.dealer + 1) % seats; s.Turn() != want {
					t.Errorf("got turn %d, want %d (the dealer's left)", s.Turn(), want)
				}
				v := s.View(s.Turn())
				if v.Rank != Ace || v.Phase != PhasePlay || !slices.Equal(v.Can, []ActionKind{ActPlay}) {
					t.Errorf("got first view rank %v phase %v can %v, want aces to play", v.Rank, v.Phase, v.Can)
				}
			})
		}
	}
}

func TestShuffleDependsOnSeed(t *testing.T) {
	a, b := shuffled(1, 1), shuffled(1, 2)
	if slices.Equal(a, b) {
		t.Errorf("seeds 1 and 2 shuffled alike: %v", a)
	}
	if !slices.Equal(a, shuffled(1, 1)) {
		t.Errorf("seed 1 shuffled two ways")
	}
}

func TestOptionsValidate(t *testing.T) {
	tests := []struct {
		name string
		edit func(*Options)
		want string
	}{
		{"standard", func(*Options) {}, ""},
		{"too few", func(o *Options) { o.Seats = 2 }, "A table seats 3 to 10 players."},
		{"too many", func(o *Options) { o.Seats = 11 }, "A table seats 3 to 10 players."},
		{"sneak off", func(o *Options) { o.Sneak = 0 }, ""},
		{"sneak 3", func(o *Options) { o.Sneak = 3 }, ""},
		{"sneak 4", func(o *Options) { o.Sneak = 4 }, "Sneaking is 0 to 3 extra cards."},
		{"sneak negative", func(o *Options) { o.Sneak = -1 }, "Sneaking is 0 to 3 extra cards."},
		{"window 5s", func(o *Options) { o.Window = 5e9 }, "The time to call is 4, 6 or 10 seconds."},
		{"no pace", func(o *Options) { o.Pace = "" }, "Bot speed is brisk or relaxed."},
		{"penalty 4", func(o *Options) { o.Penalty.Cards = 4 }, "The penalty is 0 to 3 cards."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o := Standard(5)
			tt.edit(&o)
			err := o.Validate()
			got := ""
			if err != nil {
				got = err.Error()
				if c := codeOf(t, err); c != CodeBadOptions {
					t.Errorf("got code %q, want %q", c, CodeBadOptions)
				}
			}
			if got != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
			if _, err := New(o, 1, t0); (err == nil) != (tt.want == "") {
				t.Errorf("New: got %v, want refused %v", err, tt.want != "")
			}
		})
	}
}
