package live

import (
	"testing"
	"time"

	"bullshit/engine"
	"bullshit/engine/bot"
	"bullshit/engine/drive"
	"bullshit/game"
)

// TestBotMovesKeepTheDriversTime plays bot-only games on live tables on the
// fake clock, then replays each one's stored actions through the driver's
// rule (drive.Table, as the simulator keeps time): every action is the move
// of the seat the rule names next, stamped at the moment it names, so the
// simulator's minutes are the minutes a live table runs.
func TestBotMovesKeepTheDriversTime(t *testing.T) {
	relaxed := engine.Standard(5)
	relaxed.Pace, relaxed.Window = engine.Relaxed, 4*time.Second
	tests := []struct {
		name string
		opts engine.Options
	}{
		{"three seats", engine.Standard(3)},
		{"four seats", engine.Standard(4)},
		{"seven seats", engine.Standard(7)},
		{"five seats, relaxed", relaxed},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t)
			req := game.CreateRequest{Options: tt.opts, HostName: "Ada"}
			for i := 1; i < tt.opts.Seats; i++ {
				req.Bots = append(req.Bots, game.BotSpec{Level: string(bot.Levels()[i%3]), Style: string(bot.SiteStyles()[i%3])})
			}
			j, err := f.m.Create(f.ctx, req)
			if err != nil {
				t.Fatal(err)
			}
			id := j.Game.ID
			if err := f.m.Start(f.ctx, id, 0); err != nil {
				t.Fatal(err)
			}
			if err := f.m.HandToBot(f.ctx, id, 0, 0); err != nil {
				t.Fatal(err)
			}
			f.playOut(id, 2*time.Hour)

			g, _, err := f.st.Game(f.ctx, id)
			if err != nil {
				t.Fatal(err)
			}
			rows, err := f.st.Actions(f.ctx, id)
			if err != nil {
				t.Fatal(err)
			}
			s, err := engine.New(g.Options, g.Seed, g.StartedAt)
			if err != nil {
				t.Fatal(err)
			}
			pace := g.Options.Pace
			dt := drive.New(s, g.StartedAt, func(d engine.Decider) time.Duration { return engine.ThinkTime(d.Think, pace) })
			for _, row := range rows {
				n := dt.Next()
				for n.Deadline {
					dt.Settle(n.At)
					n = dt.Next()
				}
				if n.Over {
					t.Fatalf("action %d: got %+v stored, want none after the game's end", row.Seq, row.Action)
				}
				if got, want := row.Action.Seat, n.Deciders[0].Seat; got != want {
					t.Fatalf("action %d: got seat %d's move stored, want seat %d's", row.Seq, got, want)
				}
				if got, want := row.At, n.At; !got.Equal(want) {
					t.Fatalf("action %d (%s by seat %d): got it stored at %v, want %v (by the rule)",
						row.Seq, row.Action.Kind, row.Action.Seat, got.Sub(g.StartedAt), want.Sub(g.StartedAt))
				}
				if err := s.Apply(row.Action, row.At); err != nil {
					t.Fatalf("action %d: %v", row.Seq, err)
				}
				dt.Moved(row.Action, row.At)
			}
			// The game may end at a deadline after the last move.
			n := dt.Next()
			for n.Deadline {
				dt.Settle(n.At)
				n = dt.Next()
			}
			if !n.Over {
				t.Errorf("got the replay of %d actions not over, want it over as the table is", len(rows))
			}
		})
	}
}
