package live

import (
	"testing"
	"time"

	"bullshit/engine"
	"bullshit/engine/glicko"
	"bullshit/game"
	"bullshit/store"
)

// seatAccount makes seat of an open game belong to a new account named
// name, and returns the account's id.
func (f *fixture) seatAccount(id string, seat int, name string) int64 {
	f.t.Helper()
	a := &store.Account{Name: name, NameKey: name, PasswordHash: "x", CreatedAt: epoch}
	if err := f.st.CreateAccount(f.ctx, a); err != nil {
		f.t.Fatal(err)
	}
	if _, err := f.m.do(f.ctx, id, func(t *table) error {
		s := t.seats[seat]
		s.PlayerID = a.ID
		return t.writeSeat(s)
	}); err != nil {
		f.t.Fatal(err)
	}
	return a.ID
}

func TestRatedGames(t *testing.T) {
	tests := []struct {
		name      string
		run       func(f *fixture, id string)
		wantRated bool
	}{
		{"played to the end", func(f *fixture, id string) {
			f.playPerson(id, 0, 3*time.Hour)
		}, true},
		{"ended by the host", func(f *fixture, id string) {
			f.step(id, 30*time.Second)
			if err := f.m.End(f.ctx, id, 0); err != nil {
				f.t.Fatal(err)
			}
		}, false},
		{"covered by a bot", func(f *fixture, id string) {
			if err := f.m.HandToBot(f.ctx, id, 0, 0); err != nil {
				f.t.Fatal(err)
			}
			f.playOut(id, 3*time.Hour)
		}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t)
			id, _ := f.create(4, 3)
			ann := f.seatAccount(id, 0, "ann")
			if err := f.m.Start(f.ctx, id, 0); err != nil {
				t.Fatal(err)
			}
			tt.run(f, id)
			if s := f.status(id); s != game.StatusFinished && s != game.StatusEnded {
				t.Fatalf("got status %s, want the game over", s)
			}
			rows, err := f.st.GamePlayers(f.ctx, id)
			if err != nil || len(rows) != 1 {
				t.Fatalf("got %v (%v), want Ann's row", rows, err)
			}
			row := rows[0]
			ratings, err := f.st.Ratings(f.ctx, []int64{ann})
			if err != nil {
				t.Fatal(err)
			}
			r, rated := ratings[ann]
			if row.Rated != tt.wantRated || rated != tt.wantRated {
				t.Fatalf("got rated %v with rating %+v, want rated %v", row.Rated, r, tt.wantRated)
			}
			if row.BeforeRating != glicko.Initial || row.BeforeDeviation != glicko.InitialDeviation {
				t.Errorf("got %v ± %v before, want a new player's rating", row.BeforeRating, row.BeforeDeviation)
			}
			rec, err := f.m.Record(f.ctx, id)
			if err != nil || len(rec.Ratings) != 1 || rec.Ratings[0].After != row.AfterRating || rec.Ratings[0].Rated != row.Rated {
				t.Errorf("got the record's ratings %+v (%v), want Ann's change %+v", rec.Ratings, err, row)
			}
			if !tt.wantRated {
				if row.AfterRating != row.BeforeRating {
					t.Errorf("got %v after an unrated game, want %v as before", row.AfterRating, row.BeforeRating)
				}
				return
			}
			if r.Rating != row.AfterRating || r.Games != 1 || r.Deviation >= glicko.InitialDeviation {
				t.Errorf("got rating %+v and row %+v, want the row's change applied once", r, row)
			}
			v := f.view(id, engine.Spectator)
			for _, res := range v.Result {
				if res.Seat == 0 && (res.Place.Place != row.Place || res.Calls != row.Calls || res.Right != row.Right) {
					t.Errorf("got row %+v, want the result sheet's %+v", row, res)
				}
			}
			// A rise for a good place, a fall for a bad one.
			if won := row.Place == 1; won != (row.AfterRating > row.BeforeRating) && row.Place != 2 {
				t.Errorf("place %d: got %v → %v", row.Place, row.BeforeRating, row.AfterRating)
			}
		})
	}
}

// playPerson plays seat's moves with each view's fallback, advancing the
// clock when the seat has nothing to do, until the game is over.
func (f *fixture) playPerson(id string, seat int, limit time.Duration) {
	f.t.Helper()
	for spent := time.Duration(0); f.status(id) == game.StatusLive; {
		v := f.view(id, seat)
		if a, ok := v.Fallback(); ok && v.Phase != engine.PhaseCall {
			if _, err := f.m.Act(f.ctx, id, a); err != nil && codeOf(err) != string(engine.CodeStale) {
				f.t.Fatalf("act %+v: %v", a, err)
			}
			continue
		}
		if spent > limit {
			f.t.Fatalf("game %s still live after %v", id, limit)
		}
		f.step(id, 250*time.Millisecond)
		spent += 250 * time.Millisecond
	}
}
