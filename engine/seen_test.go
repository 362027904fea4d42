package engine

import (
	"encoding/json"
	"testing"
)

func TestSeenCoversEverySize(t *testing.T) {
	for _, tt := range []struct {
		kind  Kind
		exact int
	}{{HandKind, HandExact}, {PileKind, PileExact}} {
		prev := Seen(0, tt.kind)
		if prev != (Range{0, 0}) {
			t.Errorf("kind %d: got Seen(0) %v, want 0", tt.kind, prev)
		}
		for n := 1; n <= 104; n++ {
			r := Seen(n, tt.kind)
			if !r.Contains(n) {
				t.Errorf("kind %d: Seen(%d) = %v does not contain it", tt.kind, n, r)
			}
			if got := r.Exact(); got != (n <= tt.exact) {
				t.Errorf("kind %d: Seen(%d) = %v: got exact %v, want %v", tt.kind, n, r, got, n <= tt.exact)
			}
			if r == prev {
				continue
			}
			// A new range starts just after the last one ended: no gaps,
			// no overlaps, always rising.
			if prev.Hi != n-1 || r.Lo != n {
				t.Errorf("kind %d: Seen(%d) = %v follows %v: want contiguous", tt.kind, n, r, prev)
			}
			prev = r
		}
		if prev.Hi != Open {
			t.Errorf("kind %d: the last range %v is not open", tt.kind, prev)
		}
		buckets := Buckets(tt.kind)
		if buckets[0].Lo != tt.exact+1 || buckets[len(buckets)-1].Hi != Open {
			t.Errorf("kind %d: got buckets %v, want them from %d to open", tt.kind, buckets, tt.exact+1)
		}
		for _, b := range buckets {
			if Seen(b.Lo, tt.kind) != b {
				t.Errorf("kind %d: bucket %v is not what Seen(%d) says", tt.kind, b, b.Lo)
			}
		}
	}
}

func TestSeenFixedPoints(t *testing.T) {
	tests := []struct {
		n    int
		kind Kind
		want string
	}{
		{0, HandKind, "0"}, {8, HandKind, "8"}, {9, HandKind, "9-10"}, {10, HandKind, "9-10"},
		{29, HandKind, "23-29"}, {30, HandKind, "30+"}, {104, HandKind, "30+"},
		{3, PileKind, "3"}, {4, PileKind, "4-6"}, {6, PileKind, "4-6"}, {7, PileKind, "7-10"}, {10, PileKind, "7-10"},
		{11, PileKind, "11-15"}, {104, PileKind, "32+"},
	}
	for _, tt := range tests {
		if got := Seen(tt.n, tt.kind).String(); got != tt.want {
			t.Errorf("Seen(%d, %d): got %q, want %q", tt.n, tt.kind, got, tt.want)
		}
	}
}

func TestRangeJSON(t *testing.T) {
	tests := []struct {
		r    Range
		want string
	}{
		{Range{5, 5}, "[5,5]"}, {Range{9, 10}, "[9,10]"}, {Range{30, Open}, "[30,null]"},
	}
	for _, tt := range tests {
		b, err := json.Marshal(tt.r)
		if err != nil || string(b) != tt.want {
			t.Errorf("Marshal(%v): got %s, %v, want %s", tt.r, b, err, tt.want)
		}
		var back Range
		if err := json.Unmarshal(b, &back); err != nil || back != tt.r {
			t.Errorf("Unmarshal(%s): got %v, %v, want %v", b, back, err, tt.r)
		}
	}
	for _, bad := range []string{`null`, `[]`, `[1]`, `[1,2,3]`, `[null,2]`, `{"lo":1}`, `[1.5,2]`, `"9-10"`} {
		var r Range
		if err := json.Unmarshal([]byte(bad), &r); err == nil {
			t.Errorf("Unmarshal(%s): got %v, want an error", bad, r)
		}
	}
}

func TestLooksClean(t *testing.T) {
	tests := []struct {
		name          string
		before, after Range
		claim         int
		kind          Kind
		want          bool
	}{
		{"a counted hand drops by the claim", Range{7, 7}, Range{5, 5}, 2, HandKind, true},
		{"a counted hand drops by more", Range{7, 7}, Range{4, 4}, 2, HandKind, false},
		{"9-10 to 7 could be two from nine", Range{9, 10}, Range{7, 7}, 2, HandKind, true},
		{"9-10 to 6 can't be two", Range{9, 10}, Range{6, 6}, 2, HandKind, false},
		{"inside a bucket", Range{18, 22}, Range{18, 22}, 1, HandKind, true},
		{"an open hand", Range{30, Open}, Range{30, Open}, 4, HandKind, true},
		{"a pile 4-6 to 7-10 by two", Range{4, 6}, Range{7, 10}, 2, PileKind, true},
		{"a counted pile up by more", Range{2, 2}, Range{5, 5}, 2, PileKind, false},
		{"a pile jumping two buckets", Range{4, 6}, Range{11, 15}, 2, PileKind, false},
	}
	for _, tt := range tests {
		if got := LooksClean(tt.before, tt.after, tt.claim, tt.kind); got != tt.want {
			t.Errorf("%s: got %v, want %v", tt.name, got, tt.want)
		}
	}
}

func TestSneakShows(t *testing.T) {
	tests := []struct {
		name                     string
		hand, pile, claim, sneak int
		want                     bool
	}{
		{"no sneak never shows", 5, 2, 1, 0, false},
		{"from a small hand it shows", 6, 0, 1, 1, true},
		{"from an eight-card hand it shows", 8, 12, 2, 1, true},
		{"from a big hand onto a big pile it hides", 20, 12, 1, 1, false},
		{"from 10 to 7 onto 6 it hides", 10, 6, 2, 1, false},
		{"a hand of 9 falling to 7 on a claim of 1 shows", 9, 20, 1, 1, true},
		{"a hidden hand but a counted pile shows", 20, 1, 1, 1, true},
		{"a hidden hand but the pile skipping a bucket shows", 25, 6, 2, 3, true},
		{"two under a bucket's top hides", 22, 17, 1, 2, false},
		{"an open hand hides", 40, 40, 4, 3, false},
	}
	for _, tt := range tests {
		if got := SneakShows(tt.hand, tt.pile, tt.claim, tt.sneak); got != tt.want {
			t.Errorf("%s: SneakShows(%d, %d, %d, %d) got %v, want %v", tt.name, tt.hand, tt.pile, tt.claim, tt.sneak, got, tt.want)
		}
	}
}

func TestDoubt(t *testing.T) {
	clean := Sizes{Hand: [2]Range{Seen(20, HandKind), Seen(18, HandKind)}, Pile: [2]Range{{1, 1}, {3, 3}}}
	tests := []struct {
		name  string
		hand  string
		claim int
		sizes Sizes
		want  string
	}{
		{"nothing wrong", "AS KS", 2, clean, ""},
		{"more kings than exist", "KS KH KD", 2, clean, "Can't be true: you hold 3 of the 4 kings."},
		{"exactly every king", "KS KH", 2, clean, ""},
		{"a hand dropping too far", "", 1, Sizes{Hand: [2]Range{{7, 7}, {5, 5}}, Pile: [2]Range{{2, 2}, {4, 6}}}, "Can't be just 1: their hand went 7 → 5."},
		{"a pile growing too far", "", 1, Sizes{Hand: [2]Range{{18, 22}, {18, 22}}, Pile: [2]Range{{2, 2}, {4, 6}}}, "Can't be just 1: the pile went 2 → 4-6."},
	}
	for _, tt := range tests {
		if got := Doubt(cards(t, tt.hand), King, tt.claim, tt.sizes, 4); got != tt.want {
			t.Errorf("%s: got %q, want %q", tt.name, got, tt.want)
		}
	}
}

func TestLeastUseful(t *testing.T) {
	tests := []struct {
		name            string
		hand            string
		first, seats, k int
		want            string
	}{
		// Four seats from rank 1: 2s, 6s, 10s, aces, 5s, 9s, kings, 4s, 8s,
		// queens, 3s, 7s, jacks.
		{"the rank asked for last", "2S 6H JD QC 3C", 1, 4, 1, "JD"},
		{"the two asked for last", "2S 6H JD QC 3C", 1, 4, 2, "JD 3C"},
		{"ties go to the lower card", "JS JD 2S", 1, 4, 1, "JS"},
		{"more than the hand", "2S", 1, 4, 3, "2S"},
		// Three seats from rank 0: aces, 4s, 7s, 10s, kings, 3s, ...
		{"three seats", "AS 4S 7S KS", 0, 3, 1, "KS"},
	}
	for _, tt := range tests {
		got := LeastUseful(cards(t, tt.hand), tt.first, tt.seats, tt.k)
		if want := cards(t, tt.want); !equalCards(got, want) {
			t.Errorf("%s: got %v, want %v", tt.name, got, want)
		}
	}
}

func equalCards(a, b []Card) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestSneakMayShow checks the pile-as-a-range judgement against SneakShows
// at every pile size the range allows.
func TestSneakMayShow(t *testing.T) {
	tests := []struct {
		hand       int
		pile       Range
		claim, sne int
		want       bool
	}{
		{hand: 20, pile: Range{0, 0}, claim: 2, sne: 0, want: false},
		{hand: 6, pile: Range{2, 2}, claim: 1, sne: 1, want: true}, // an exact hand shows the extra card
		{hand: 20, pile: Range{7, 10}, claim: 2, sne: 1, want: SneakShows(20, 7, 2, 1) || SneakShows(20, 8, 2, 1) || SneakShows(20, 9, 2, 1) || SneakShows(20, 10, 2, 1)},
	}
	for _, tt := range tests {
		if got := SneakMayShow(tt.hand, tt.pile, tt.claim, tt.sne); got != tt.want {
			t.Errorf("SneakMayShow(%d, %v, %d, %d): got %v, want %v", tt.hand, tt.pile, tt.claim, tt.sne, got, tt.want)
		}
	}
	// A pile that could be at a size where the sneak shows must say so.
	for p := 4; p <= 6; p++ {
		if SneakShows(15, p, 2, 1) && !SneakMayShow(15, Range{4, 6}, 2, 1) {
			t.Errorf("pile of %d shows the sneak, but the 4-6 range says it can't", p)
		}
	}
}
