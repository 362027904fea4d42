package engine

import (
	"slices"
	"testing"
	"time"
)

func playOn(seats int) Options {
	o := firstCome(seats)
	o.PlayOn = true
	return o
}

func playBy(seat, no int, codes string, ms int, tb testing.TB) step {
	return step{a: Action{Kind: ActPlay, Seat: seat, No: no, Cards: cards(tb, codes)}, ms: ms}
}

// TestPlayOnForPlaces: with PlayOn the first out takes first place and the
// game goes on without them, skipping their seat; when two are left they are
// placed by cards left. The last card must survive the call each time.
func TestPlayOnForPlaces(t *testing.T) {
	s := stage(t, table{opts: playOn(5), hands: map[int]string{0: "AS", 1: "2S 2H 9D", 2: "3S 9C", 3: "4S 4H 4D 9H"}})
	run(t, s, []step{playBy(0, 0, "AS", 1000, t), {ms: 1000 + ms(StandardWindow), tick: true}})
	if s.Over() || !slices.Equal(s.out, []int{0}) || s.Turn() != 1 {
		t.Fatalf("after the first out: got over %v out %v turn %d, want play on, seat 0 out, seat 1 to play", s.Over(), s.out, s.Turn())
	}
	if v := s.View(2); v.Seats[0].Out != 1 || v.Playing() != 4 {
		t.Errorf("got seat 0 out %d and %d playing, want place 1 and 4 playing", v.Seats[0].Out, v.Playing())
	}
	if e := s.event(&s.log[len(s.log)-1]); e.Kind != EventOut || e.Seat != 0 || e.Place != 1 {
		t.Errorf("got the log's last line %+v, want seat 0 out in place 1", e)
	}
	// Seat 0, out, can neither call nor let a play go, and decides nothing.
	run(t, s, []step{playBy(1, 1, "2S 2H", 8000, t)})
	for _, d := range s.Deciding() {
		if d.Seat == 0 {
			t.Errorf("seat 0 is out but deciding: %v", s.Deciding())
		}
	}
	if err := refusedUnchanged(t, s, Action{Kind: ActCall, Seat: 0, No: 2}, at(8100)); codeOf(t, err) != CodeNotYourTurn {
		t.Errorf("a call by a seat that is out: got %v, want %s", err, CodeNotYourTurn)
	}
	// Every listener still in lets it go: the play stands at once.
	run(t, s, []step{
		{a: Action{Kind: ActPass, Seat: 2, No: 2}, ms: 8100},
		{a: Action{Kind: ActPass, Seat: 3, No: 2}, ms: 8100},
		{a: Action{Kind: ActPass, Seat: 4, No: 2}, ms: 8100},
	})
	if s.Phase() != PhasePlay || s.Turn() != 2 {
		t.Fatalf("got phase %v turn %d, want seat 2 to play", s.Phase(), s.Turn())
	}
	run(t, s, []step{playBy(2, 2, "3S", 9000, t), {ms: 9000 + ms(StandardWindow), tick: true},
		playBy(3, 3, "4S 4H 4D", 16000, t), {ms: 16000 + ms(StandardWindow), tick: true},
		playBy(4, 4, "5S 5H", 23000, t), {ms: 23000 + ms(StandardWindow), tick: true}})
	// Round the table again, past seat 0.
	if s.Turn() != 1 || RankAt(s.rank) != Six {
		t.Fatalf("got turn %d rank %v, want seat 1 asked for sixes", s.Turn(), RankAt(s.rank))
	}
	// Seat 1's last card: a lie, called, so it is not out.
	run(t, s, []step{playBy(1, 5, "9D", 30000, t), callBy2(2, 6, 31000), {ms: 31000 + ms(revealTime()), tick: true}})
	if s.isOut(1) || s.HandSize(1) == 0 {
		t.Fatalf("a last card caught lying put seat 1 out")
	}
	// Seat 2's last card, a bluff nobody calls: it goes out second.
	run(t, s, []step{playBy(2, 6, "9C", 40000, t), {ms: 40000 + ms(StandardWindow), tick: true}})
	if !slices.Equal(s.out, []int{0, 2}) || s.Over() {
		t.Fatalf("got out %v over %v, want seats 0 and 2 out, three playing on", s.out, s.Over())
	}
	run(t, s, []step{playBy(3, 7, "9H", 47000, t), {ms: 47000 + ms(StandardWindow), tick: true}})
	if !s.Over() {
		t.Fatalf("two left: got phase %v, want over", s.Phase())
	}
	want := []Place{{0, 1, 0}, {2, 2, 0}, {3, 3, 0}, {1, 4, s.HandSize(1)}, {4, 5, s.HandSize(4)}}
	if got := s.Result(); !slices.Equal(got, want) {
		t.Errorf("got result %+v, want %+v", got, want)
	}
	checkResult(t, s)
}

func callBy2(seat, no, ms int) step {
	return step{a: Action{Kind: ActCall, Seat: seat, No: no}, ms: ms}
}

func revealTime() time.Duration {
	r, _ := RulesOf(0)
	return r.RevealTime()
}

// TestPlayOnAtThreeSeatsEndsAtTheFirstOut: two are left at once, so it is
// the standard game.
func TestPlayOnAtThreeSeatsEndsAtTheFirstOut(t *testing.T) {
	s := stage(t, table{opts: playOn(3), hands: map[int]string{0: "AS", 1: "2S 2H 9D"}})
	run(t, s, []step{playBy(0, 0, "AS", 1000, t), {ms: 1000 + ms(StandardWindow), tick: true}})
	if !s.Over() || s.Result()[0].Seat != 0 {
		t.Fatalf("got over %v result %+v, want seat 0 first and the game over", s.Over(), s.Result())
	}
}
