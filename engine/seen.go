package engine

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
)

// Range is how big a pile of cards looks from across the table: Lo to Hi
// cards, exact when they are equal, and "Lo or more" when Hi is Open.
type Range struct {
	Lo, Hi int
}

// Open is the Hi of a range with no upper end ("30+").
const Open = -1

// Kind says whose cards a Range describes: a hand or the pile.
type Kind int8

// The kinds of counted piles.
const (
	HandKind Kind = iota
	PileKind
)

// The boundaries of what a table can count. A hand is counted exactly up to
// HandExact cards, the pile up to PileExact (it is spread out and messier);
// beyond that each falls in a bucket that widens as it grows, because telling
// 23 cards from 26 in someone's hand is harder than telling 9 from 10.
// The fixed points (10 looks like "9-10", the last hand bucket is "30+", a
// pile of 6 looks like "4-6", 7 to 10 like "7-10") are the specification's.
const (
	HandExact = 8
	PileExact = 3
)

var (
	handBuckets = []Range{{9, 10}, {11, 13}, {14, 17}, {18, 22}, {23, 29}, {30, Open}}
	pileBuckets = []Range{{4, 6}, {7, 10}, {11, 15}, {16, 22}, {23, 31}, {32, Open}}
)

// Seen is how n cards of the given kind look: the only function that turns a
// count into what the table sees.
func Seen(n int, k Kind) Range {
	if uint(n) < seenTop {
		// Bots and views ask this many times a decision: every count a game
		// can have is looked up, worked out once by seen.
		if k == PileKind {
			return seenTable[PileKind][n]
		}
		return seenTable[HandKind][n]
	}
	return seen(n, k)
}

// seenTop bounds the counts kept in seenTable: more than two decks, with
// room for the claims and sneaks added to a count when checking one.
const seenTop = 128

var seenTable = func() (t [2][seenTop]Range) {
	for n := range seenTop {
		t[HandKind][n], t[PileKind][n] = seen(n, HandKind), seen(n, PileKind)
	}
	return t
}()

func seen(n int, k Kind) Range {
	exact, buckets := HandExact, handBuckets
	if k == PileKind {
		exact, buckets = PileExact, pileBuckets
	}
	if n <= exact {
		return Range{n, n}
	}
	for _, b := range buckets {
		if b.Hi == Open || n <= b.Hi {
			return b
		}
	}
	panic("unreachable: the last bucket is open")
}

// Buckets lists the ranges a kind of pile can look like beyond its exact
// counts, for documentation and tests.
func Buckets(k Kind) []Range {
	if k == PileKind {
		return append([]Range(nil), pileBuckets...)
	}
	return append([]Range(nil), handBuckets...)
}

// Exact reports whether the range is a precise count.
func (r Range) Exact() bool { return r.Lo == r.Hi }

// Contains reports whether n cards look like r.
func (r Range) Contains(n int) bool { return n >= r.Lo && (r.Hi == Open || n <= r.Hi) }

// String writes the range as a table says it: "7", "9-10", "30+".
func (r Range) String() string {
	switch {
	case r.Hi == Open:
		return strconv.Itoa(r.Lo) + "+"
	case r.Exact():
		return strconv.Itoa(r.Lo)
	}
	return fmt.Sprintf("%d-%d", r.Lo, r.Hi)
}

// MarshalJSON writes [lo, hi], with null for an open end.
func (r Range) MarshalJSON() ([]byte, error) {
	if r.Hi == Open {
		return []byte("[" + strconv.Itoa(r.Lo) + ",null]"), nil
	}
	return []byte("[" + strconv.Itoa(r.Lo) + "," + strconv.Itoa(r.Hi) + "]"), nil
}

// UnmarshalJSON reads [lo, hi] or [lo, null].
func (r *Range) UnmarshalJSON(b []byte) error {
	var pair []*int
	if err := json.Unmarshal(b, &pair); err != nil || len(pair) != 2 || pair[0] == nil {
		return fmt.Errorf("a range is [lo, hi]: %s", bytes.TrimSpace(b))
	}
	r.Lo, r.Hi = *pair[0], Open
	if pair[1] != nil {
		r.Hi = *pair[1]
	}
	return nil
}

// looseTop bounds the search over an open range: no hand or pile holds more.
const looseTop = 104

// LooksClean reports whether a count seen as before, then after, could have
// changed by just the claim (a hand going down, the pile going up). False
// means anyone watching could tell more went down than was claimed.
func LooksClean(before, after Range, claim int, k Kind) bool {
	hi := before.Hi
	if hi == Open {
		hi = looseTop
	}
	for n := before.Lo; n <= hi; n++ {
		m := n - claim
		if k == PileKind {
			m = n + claim
		}
		if m >= 0 && Seen(m, k) == after {
			return true
		}
	}
	return false
}

// SneakShows reports whether playing claim+sneak cards from a hand of hand
// cards onto a pile of pile cards would give the sneak away in either the
// hand's count or the pile's. It is what the player sees before choosing and
// what careful bots check; with no sneak nothing shows.
func SneakShows(hand, pile, claim, sneak int) bool {
	if sneak <= 0 {
		return false
	}
	played := claim + sneak
	return !LooksClean(Seen(hand, HandKind), Seen(hand-played, HandKind), claim, HandKind) ||
		!LooksClean(Seen(pile, PileKind), Seen(pile+played, PileKind), claim, PileKind)
}

// SneakMayShow reports whether sneaking sneak cards under a claim might give
// the sneak away, judged as the player sees the table: their own hand exact,
// the pile only as the range it looks like. It is true if SneakShows is for
// any pile size that range allows. The bots and the player's hint both use it.
func SneakMayShow(hand int, pile Range, claim, sneak int) bool {
	hi := pile.Hi
	if hi == Open {
		hi = looseTop
	}
	for p := pile.Lo; p <= hi; p++ {
		if SneakShows(hand, p, claim, sneak) {
			return true
		}
	}
	return false
}
