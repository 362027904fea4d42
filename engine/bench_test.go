package engine

import (
	"encoding/json"
	"fmt"
	"testing"
)

func BenchmarkGame(b *testing.B) {
	for _, seats := range []int{4, 10} {
		b.Run(fmt.Sprintf("seats=%d", seats), func(b *testing.B) {
			plays, seed := 0, uint64(0)
			for b.Loop() {
				seed++
				d := newDriver(b, Standard(seats), seed)
				d.play(b, nil)
				plays += d.s.plays
			}
			b.ReportMetric(float64(plays)/float64(b.N), "plays/game")
		})
	}
}

// midGame is a four-seat game some twenty plays in, with seat s.Turn() to
// play.
func midGame(b *testing.B) *State {
	b.Helper()
	for seed := uint64(1); ; seed++ {
		d := newDriver(b, Standard(4), seed)
		for d.step(b) {
			if d.s.phase == PhasePlay && d.s.plays >= 20 {
				return d.s
			}
		}
	}
}

// benchApply measures one Apply of the move made on a fresh copy of s (a
// scratch copy: its log is short, so refilling the pool is quick).
func benchApply(b *testing.B, s *State, a Action) {
	const pool = 1024
	copies := make([]*State, pool)
	now := s.log[len(s.log)-1].At
	i := 0
	for b.Loop() {
		if i%pool == 0 {
			b.StopTimer()
			for j := range copies {
				copies[j] = scratch(s)
			}
			b.StartTimer()
		}
		if err := copies[i%pool].Apply(a, now); err != nil {
			b.Fatal(err)
		}
		i++
	}
}

func BenchmarkApply(b *testing.B) {
	s := midGame(b)
	hand := s.hands[s.turn]
	play := Action{Kind: ActPlay, Seat: s.turn, No: s.plays, Cards: hand[:min(2, len(hand))]}
	b.Run("play", func(b *testing.B) { benchApply(b, s, play) })
	called := s.Clone()
	if err := called.Apply(play, called.log[len(called.log)-1].At); err != nil {
		b.Fatal(err)
	}
	caller := (s.turn + 1) % s.n
	b.Run("call", func(b *testing.B) {
		benchApply(b, called, Action{Kind: ActCall, Seat: caller, No: called.plays})
	})
	b.Run("pass", func(b *testing.B) {
		benchApply(b, called, Action{Kind: ActPass, Seat: caller, No: called.plays})
	})
}

func BenchmarkView(b *testing.B) {
	s := midGame(b)
	hand := s.hands[s.turn]
	if err := s.Apply(Action{Kind: ActPlay, Seat: s.turn, No: s.plays, Cards: hand[:1]}, s.log[len(s.log)-1].At); err != nil {
		b.Fatal(err)
	}
	seat := (s.turn + 1) % s.n
	b.Run("view", func(b *testing.B) {
		for b.Loop() {
			_ = s.View(seat)
		}
	})
	b.Run("into", func(b *testing.B) {
		var v View
		for b.Loop() {
			s.ViewInto(seat, &v)
		}
	})
	b.Run("json", func(b *testing.B) {
		for b.Loop() {
			if _, err := json.Marshal(s.View(seat)); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkDeciding measures who may act now, asked fresh and into a kept
// array, in a call window (the phase with the most deciders).
func BenchmarkDeciding(b *testing.B) {
	s := midGame(b)
	hand := s.hands[s.turn]
	if err := s.Apply(Action{Kind: ActPlay, Seat: s.turn, No: s.plays, Cards: hand[:1]}, s.log[len(s.log)-1].At); err != nil {
		b.Fatal(err)
	}
	b.Run("deciding", func(b *testing.B) {
		for b.Loop() {
			_ = s.Deciding()
		}
	})
	b.Run("into", func(b *testing.B) {
		var ds []Decider
		for b.Loop() {
			ds = s.AppendDeciding(ds[:0])
		}
	})
}

// BenchmarkReplay plays a recorded random-policy game through a fresh state,
// as a restart or a review does: the cost of one accepted action (a play,
// call, pass or hand-over, with every deadline between them settled), the
// log's chunks amortised over the game as they are in play.
func BenchmarkReplay(b *testing.B) {
	d := newDriver(b, Standard(4), 7)
	d.play(b, nil)
	plays := d.s.plays
	for b.Loop() {
		s, err := New(Standard(4), 7, t0)
		if err != nil {
			b.Fatal(err)
		}
		for _, ta := range d.applied {
			if err := s.Apply(ta.a, ta.at); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(plays), "ns/play")
	b.ReportMetric(float64(len(d.applied)), "actions/game")
}
