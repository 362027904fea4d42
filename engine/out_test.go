package engine

import (
	"slices"
	"testing"
	"time"
)

func TestGoingOut(t *testing.T) {
	tests := []struct {
		name  string
		hand  string // seat 0's last cards
		play  Action
		steps []step
		// won: seat 0 wins, at wonAt; else the game goes on and seat 1
		// plays 2s, after a hand-over of owed cards.
		won   bool
		wonAt int
		owed  int
	}{
		{"the truth, uncalled", "AS", Action{Kind: ActPlay, Seat: 0, Cards: cards(t, "AS")}, []step{toClose}, true, windowEnd, 0},
		{"the truth, let go by all", "AS", Action{Kind: ActPlay, Seat: 0, Cards: cards(t, "AS")}, []step{pass1, pass2, pass3}, true, 2200, 0},
		{"a lie, uncalled", "KS", Action{Kind: ActPlay, Seat: 0, Cards: cards(t, "KS")}, []step{toClose}, true, windowEnd, 0},
		{"the truth, called", "AS", Action{Kind: ActPlay, Seat: 0, Cards: cards(t, "AS")}, []step{call1, revealOver}, true, revealEnd, 0},
		{"a lie, called", "KS", Action{Kind: ActPlay, Seat: 0, Cards: cards(t, "KS")}, []step{call1, revealOver}, false, 0, 0},
		{"a sneak, called", "AS 5D", Action{Kind: ActPlay, Seat: 0, Cards: cards(t, "AS 5D"), Claim: 1}, []step{call1, revealOver, giveTimes}, false, 0, 1},
		{"a sneak, uncalled", "AS 5D", Action{Kind: ActPlay, Seat: 0, Cards: cards(t, "AS 5D"), Claim: 1}, []step{toClose}, true, windowEnd, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := stage(t, table{hands: map[int]string{0: tt.hand, 1: "2S 6H JD QC 3C"}, pile: "7S 8S 9S"})
			tt.play.No = 0
			mustApply(t, s, tt.play, at(1000))
			if !s.last.Out || !s.View(2).Last.Out {
				t.Errorf("got out %v, want everyone told it is the last", s.last.Out)
			}
			// Until the play is settled the game goes on, even when called.
			if s.Over() {
				t.Fatalf("over as soon as the last card went down")
			}
			run(t, s, tt.steps)
			if !tt.won {
				if s.Over() || s.Phase() != PhasePlay || s.Turn() != 1 {
					t.Fatalf("got phase %v turn %d, want seat 1 to play on", s.Phase(), s.Turn())
				}
				if want := 3 + len(tt.play.Cards) + tt.owed; len(s.hands[0]) != want {
					t.Errorf("seat 0 holds %d, want %d (the pile and the penalty)", len(s.hands[0]), want)
				}
				return
			}
			if !s.Over() || s.Capped() {
				t.Fatalf("got phase %v capped %v, want seat 0 to win", s.Phase(), s.Capped())
			}
			over := s.event(&s.log[len(s.log)-1])
			if over.Kind != EventOver || over.Seat != 0 || !over.At.Equal(at(tt.wonAt)) {
				t.Errorf("got last line %+v, want seat 0 winning at %v", over, at(tt.wonAt))
			}
			if r := s.Result(); r[0].Seat != 0 || r[0].Place != 1 || r[0].Left != 0 {
				t.Errorf("got first place %+v, want seat 0 with no cards", r[0])
			}
			if !s.Deadline().IsZero() || s.Deciding() != nil {
				t.Errorf("a finished game still waits: deadline %v, deciding %v", s.Deadline(), s.Deciding())
			}
		})
	}
}

func TestPlayCap(t *testing.T) {
	tests := []struct {
		name   string
		hand   string
		play   string
		capped bool
		want   []Place
	}{
		{
			name: "the 500th play stands: fewest cards win, ties sharing", hand: "AS AH 5D", play: "AS", capped: true,
			want: []Place{{Seat: 0, Place: 1, Left: 2}, {Seat: 1, Place: 1, Left: 2}, {Seat: 3, Place: 3, Left: 23}, {Seat: 2, Place: 4, Left: 24}},
		},
		{
			name: "the 500th play goes out: a win", hand: "AS", play: "AS", capped: false,
			want: []Place{{Seat: 0, Place: 1, Left: 0}, {Seat: 1, Place: 2, Left: 2}, {Seat: 3, Place: 3, Left: 24}, {Seat: 2, Place: 4, Left: 25}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := stage(t, table{hands: map[int]string{0: tt.hand, 1: "2S 6H"}, rank: PlayCap - 1})
			mustApply(t, s, Action{Kind: ActPlay, Seat: 0, No: PlayCap - 1, Cards: cards(t, tt.play)}, at(1000))
			run(t, s, []step{toClose})
			if !s.Over() || s.Capped() != tt.capped || s.Plays() != PlayCap {
				t.Fatalf("got over %v capped %v after %d plays, want over, capped %v, %d plays", s.Over(), s.Capped(), s.Plays(), tt.capped, PlayCap)
			}
			if got := s.Result(); !slices.Equal(got, tt.want) {
				t.Errorf("got result %+v, want %+v", got, tt.want)
			}
			if got := s.View(Spectator).Capped; got != tt.capped {
				t.Errorf("view: got capped %v, want %v", got, tt.capped)
			}
		})
	}
}

func TestPlacesByCardsLeft(t *testing.T) {
	tests := []struct {
		name   string
		sizes  []int
		winner int
		want   []Place
	}{
		{"all different", []int{4, 0, 9, 2}, 1,
			[]Place{{1, 1, 0}, {3, 2, 2}, {0, 3, 4}, {2, 4, 9}}},
		{"a tie for second", []int{3, 7, 0, 3, 5}, 2,
			[]Place{{2, 1, 0}, {0, 2, 3}, {3, 2, 3}, {4, 4, 5}, {1, 5, 7}}},
		{"everyone else tied", []int{6, 6, 6, 0}, 3,
			[]Place{{3, 1, 0}, {0, 2, 6}, {1, 2, 6}, {2, 2, 6}}},
		{"capped, a tie for first", []int{3, 3, 8}, -1,
			[]Place{{0, 1, 3}, {1, 1, 3}, {2, 3, 8}}},
		{"capped, a tie for last", []int{9, 2, 9, 5}, -1,
			[]Place{{1, 1, 2}, {3, 2, 5}, {0, 3, 9}, {2, 3, 9}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := New(Standard(len(tt.sizes)), 0, t0)
			if err != nil {
				t.Fatal(err)
			}
			all := deck(1)
			for seat, n := range tt.sizes {
				s.hands[seat], all = all[:n:n], all[n:]
			}
			if tt.winner >= 0 {
				s.out = []int{tt.winner}
			}
			s.finish(at(1))
			if got := s.Result(); !slices.Equal(got, tt.want) {
				t.Errorf("got %+v, want %+v", got, tt.want)
			}
			rows := s.View(0).Result
			for i, r := range rows {
				if r.Place != tt.want[i] {
					t.Errorf("view row %d: got %+v, want %+v", i, r.Place, tt.want[i])
				}
			}
		})
	}
}

func TestEndEarly(t *testing.T) {
	s := rulesTable(t, Options{})
	run(t, s, []step{playSneak})
	s.End(at(2000))
	if !s.Over() || !s.Ended() || s.Deadline() != (time.Time{}) || len(s.Deciding()) != 0 {
		t.Fatalf("got phase %v ended %v deadline %v deciding %v: want over, ended, nothing pending",
			s.Phase(), s.Ended(), s.Deadline(), s.Deciding())
	}
	checkResult(t, s)
	v := s.View(1)
	if !v.Ended || len(v.Can) != 0 || len(v.Result) != s.Seats() || v.Last == nil || v.Last.Cards == nil {
		t.Errorf("got view ended %v can %v result %v last %+v: want ended, no moves, every seat placed, the last play shown",
			v.Ended, v.Can, v.Result, v.Last)
	}
	version := s.Version()
	s.End(at(3000))
	if s.Version() != version {
		t.Errorf("ending an ended game again: got version %d, want %d", s.Version(), version)
	}
	if err := s.Apply(Action{Kind: ActCall, Seat: 1, No: 1}, at(3000)); codeOf(t, err) != CodeOver {
		t.Errorf("a call after the end: got %v, want %s", err, CodeOver)
	}
}
