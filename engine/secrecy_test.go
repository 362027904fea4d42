package engine

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

// scramble changes everything seat keep cannot see (keep may be Spectator):
// it re-deals the other hands, each keeping its size, the pile under the last
// play, and the last play's cards while they are face down and not keep's
// own; it moves a card between someone else's face-down play and their hand,
// a sneak of another size, where neither the hand's nor the pile's count would
// show it; and, until the game is over, it makes up every seat's secret count
// of sneaks. It reports whether it re-dealt anything and whether it moved a
// card.
func scramble(s *State, keep int, rng *rand.Rand) (redealt, moved bool) {
	last := s.last
	onTop := last != nil && !last.Shown // the last play is on top of the pile
	down := onTop && s.phase != PhaseOver
	mine := down && last.Seat == keep
	top := 0
	if onTop {
		top = len(last.cards)
	}
	var others []int
	for seat := range s.n {
		if seat != keep {
			others = append(others, seat)
		}
	}
	rest := slices.Clone(s.pile[:len(s.pile)-top])
	var pool []Card
	for _, seat := range others {
		pool = append(pool, s.hands[seat]...)
	}
	pool = append(pool, rest...)
	if down && !mine {
		pool = append(pool, last.cards...)
	}
	before := slices.Clone(pool)
	rng.Shuffle(len(pool), func(i, j int) { pool[i], pool[j] = pool[j], pool[i] })
	redealt = !slices.Equal(before, pool)
	for _, seat := range others {
		size := len(s.hands[seat])
		s.hands[seat], pool = slices.Clone(pool[:size]), pool[size:]
	}
	rest, pool = pool[:len(rest)], pool[len(rest):]
	if down && !mine {
		last.cards = slices.Clone(pool)
		hand := s.hands[last.Seat]
		sneaked := last.Sneaked()
		pile := len(rest) + len(last.cards)
		unseen := func(dh int) bool {
			return Seen(len(hand), HandKind) == Seen(len(hand)+dh, HandKind) &&
				Seen(pile, PileKind) == Seen(pile-dh, PileKind)
		}
		switch {
		case sneaked > 0 && rng.IntN(2) == 0 && unseen(1):
			hand = append(hand, last.cards[len(last.cards)-1])
			last.cards = last.cards[:len(last.cards)-1]
			moved = true
		case len(hand) > 1 && sneaked < s.opts.Sneak && unseen(-1):
			i := rng.IntN(len(hand))
			last.cards = append(last.cards, hand[i])
			hand = slices.Delete(hand, i, i+1)
			moved = true
		}
		s.hands[last.Seat] = hand
	}
	for _, h := range s.hands {
		sortCards(h)
	}
	s.pile = rest
	if onTop {
		s.pile = append(s.pile, last.cards...)
	}
	if s.phase != PhaseOver {
		for i := range s.sneaks {
			s.sneaks[i] = rng.IntN(4)
		}
	}
	return redealt, moved
}

// secrecyStates is how many states the secrecy test scrambles.
const secrecyStates = 12_000

func TestViewKeepsSecrets(t *testing.T) {
	rng := rand.New(rand.NewPCG(42, 42))
	var states, checks, redealt, moved, telling, shouts, out int
	for g := 0; states < secrecyStates; g++ {
		seats := MinSeats + g%(MaxSeats-MinSeats+1)
		seed := uint64(1_000_000 + g)
		d := newDriver(t, randomOptions(rng, seats), seed)
		d.play(t, func() {
			states++
			if d.s.phase == PhaseShout {
				shouts++
			}
			if len(d.s.out) > 0 && d.s.phase != PhaseOver {
				out++
			}
			keep := rng.IntN(seats)
			for _, seat := range []int{keep, Spectator} {
				checks++
				want := viewJSON(t, d.s, seat)
				c := scratch(d.s) // a copy; its short log is all View reads
				r, m := scramble(c, seat, rng)
				checkCards(t, c)
				if r {
					redealt++
				}
				if m {
					moved++
				}
				if got := viewJSON(t, c, seat); !bytes.Equal(got, want) {
					t.Fatalf("seed %d, %d seats, phase %v: seat %d's view changed when what it cannot see was scrambled:\ngot  %s\nwant %s",
						seed, seats, d.s.phase, seat, got, want)
				}
				// The scramble does change what others see, so the
				// comparison above is not blind.
				if other := (seat + 1) % seats; checks%4 == 0 && !bytes.Equal(viewJSON(t, c, other), viewJSON(t, d.s, other)) {
					telling++
				}
			}
		})
	}
	t.Logf("%d states, %d scrambles: %d re-dealt, %d moved a card between a play and a hand, %d changed another seat's view",
		states, checks, redealt, moved, telling)
	if shouts == 0 || out == 0 {
		t.Errorf("got %d states in the grace after a first call and %d with a seat out and play going on, want some of each", shouts, out)
	}
	if states < 10_000 || redealt < checks*9/10 || moved < checks/50 || telling < checks/8 {
		t.Errorf("got %d states, %d scrambles, %d re-dealt, %d moved, %d telling: want 10000 states, nearly all re-dealt, some moved, most telling",
			states, checks, redealt, moved, telling)
	}
}

func viewJSON(tb testing.TB, s *State, seat int) []byte {
	tb.Helper()
	b, err := json.Marshal(s.View(seat))
	if err != nil {
		tb.Fatal(err)
	}
	return b
}

func TestViewShowsOnlyRoughCounts(t *testing.T) {
	s := rulesTable(t, Options{})
	run(t, s, []step{playTrue})
	for _, seat := range []int{1, Spectator} {
		v := s.View(seat)
		if seat == Spectator && v.Hand != nil {
			t.Errorf("spectator: got hand %v, want none", v.Hand)
		}
		for _, sv := range v.Seats {
			if want := Seen(len(s.hands[sv.Seat]), HandKind); sv.Hand != want {
				t.Errorf("seat %d sees seat %d as %v, want %v", seat, sv.Seat, sv.Hand, want)
			}
		}
		if v.Result != nil {
			t.Errorf("seat %d: got a result before the end", seat)
		}
		b, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		// Neither the cards played nor another seat's cards appear.
		for _, c := range append(cards(t, "AS AH"), s.hands[2]...) {
			if bytes.Contains(b, []byte(fmt.Sprintf("%q", c.String()))) {
				t.Errorf("seat %d's view names %v: %s", seat, c, b)
			}
		}
	}
}

func TestLogTellsEachSeatItsOwn(t *testing.T) {
	s := rulesTable(t, Options{})
	run(t, s, []step{playSneak, call1, revealOver, giveJack})
	kinds := func(seat int) []EventKind {
		var ks []EventKind
		for _, e := range s.Log(seat) {
			ks = append(ks, e.Kind)
		}
		return ks
	}
	public := []EventKind{EventDeal, EventPlay, EventCalled, EventGave}
	tests := []struct {
		seat int
		want []EventKind
	}{
		{0, []EventKind{EventDeal, EventPlay, EventMine, EventCalled, EventGave, EventHanded}},
		{1, []EventKind{EventDeal, EventPlay, EventCalled, EventGave, EventHanded}},
		{2, public},
		{Spectator, public},
	}
	for _, tt := range tests {
		if got := kinds(tt.seat); !slices.Equal(got, tt.want) {
			t.Errorf("seat %d: got %v, want %v", tt.seat, got, tt.want)
		}
	}
	if got, want := s.LogLen(), 6; got != want {
		t.Errorf("got %d lines, want %d", got, want)
	}
}

func TestLogIsACopy(t *testing.T) {
	s := rulesTable(t, Options{})
	run(t, s, []step{playSneak, call1, revealOver, giveJack})
	before, err := json.Marshal(s.Log(0))
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range s.Log(0) {
		for i := range e.Cards {
			e.Cards[i] = 0
		}
		if e.Showdown != nil {
			e.Showdown.Cards[0], e.Showdown.Truth = 0, !e.Showdown.Truth
		}
		if e.Rank != nil {
			*e.Rank = King
		}
	}
	after, _ := json.Marshal(s.Log(0))
	if string(after) != string(before) {
		t.Errorf("got the log changed through a copy:\n%s\nwant\n%s", after, before)
	}
}
