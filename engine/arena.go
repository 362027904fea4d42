package engine

import "slices"

// The log keeps every line a game makes, so the values its lines point to
// (cards, sizes, ranks, seats) are carved from arrays the state owns rather
// than allocated one by one: a play then costs no allocation of its own,
// only a chunk now and then. Lines never change once written, and a reader
// of the log gets copies (State.event), so a line may share its values with
// other lines, with the last play, or with a constant table.

// chunk is how many values a fresh chunk holds.
const chunk = 64

// keepCards copies cards to the end of the state's cards and returns the
// copy, clipped so that appending to it can never write into them.
func (s *State) keepCards(cards []Card) []Card {
	i := len(s.cards)
	s.cards = append(s.cards, cards...)
	return s.cards[i:len(s.cards):len(s.cards)]
}

// cardsRef is where cards lie in the state's cards, as a line records them:
// the last ones kept when they are the same, else a copy kept after them.
// Lines carry their cards this way, five bytes rather than a slice's
// twenty-four.
func (s *State) cardsRef(cards []Card) (first uint32, n uint8) {
	if len(cards) == 0 {
		return 0, 0
	}
	// The cards of a play are kept once for its private line and the line
	// that turns it up: they are the last kept when it is called.
	i := len(s.cards) - len(cards)
	if i < 0 || !slices.Equal(s.cards[i:], cards) {
		i = len(s.cards)
		s.cards = append(s.cards, cards...)
	}
	return uint32(i), uint8(len(cards))
}

// keepSizes stores sizes in the state's chunk and points to it there.
func (s *State) keepSizes(sizes Sizes) *Sizes {
	if len(s.sizeChunk) == cap(s.sizeChunk) {
		s.sizeChunk = make([]Sizes, 0, chunk/4)
	}
	s.sizeChunk = append(s.sizeChunk, sizes)
	return &s.sizeChunk[len(s.sizeChunk)-1]
}

// keepSeats copies seats into the state's seat chunk, clipped.
func (s *State) keepSeats(seats ...int) []int {
	if cap(s.seatChunk)-len(s.seatChunk) < len(seats) {
		s.seatChunk = make([]int, 0, max(chunk/2, len(seats)))
	}
	i := len(s.seatChunk)
	s.seatChunk = append(s.seatChunk, seats...)
	return s.seatChunk[i:len(s.seatChunk):len(s.seatChunk)]
}

// rankRefs and seatRefs are constant values for lines to point to: nothing
// writes through a line's pointers.
var (
	rankRefs = func() (r [Ranks]Rank) {
		for i := range r {
			r[i] = Rank(i)
		}
		return r
	}()
	seatRefs = func() (r [MaxSeats]int) {
		for i := range r {
			r[i] = i
		}
		return r
	}()
)

// rankRef points to a constant copy of r.
func rankRef(r Rank) *Rank { return &rankRefs[r] }

// seatRef points to a constant copy of seat.
func seatRef(seat int) *int {
	if seat < 0 || seat >= MaxSeats {
		return ptr(seat)
	}
	return &seatRefs[seat]
}

// roomForMoves gives a copy of the state arrays of its own, with room for
// the next few moves, so that a move tried on a copy (a bot's or a test's)
// costs no allocation, and the two never write into the same array.
func (s *State) roomForMoves() {
	s.cards = append(make([]Card, 0, len(s.cards)+16), s.cards...)
	s.sizeChunk = make([]Sizes, 0, 2)
	s.seatChunk = make([]int, 0, 4)
	s.spare = &window{passed: make([]bool, s.n)}
	s.spareShout = &shout{callers: make([]int, 0, s.n)}
	s.spareBeats = nil
}
