package store

import (
	"context"
	"fmt"
	"testing"
	"time"
)

// placed rates ann at place, rated or not, at base plus hours.
func placed(ann int64, place int, rated bool, hours int) *Rater {
	return &Rater{Players: []int64{ann}, Rate: func(cur map[int64]Rating) ([]PlayerGame, []Rating, error) {
		r, ok := cur[ann]
		if !ok {
			r = Rating{PlayerID: ann, Rating: 1500, Deviation: 350, Volatility: 0.06}
		}
		after := r
		at := base.Add(time.Duration(hours) * time.Hour)
		if rated {
			after.Rating += 10
			after.Deviation -= 20
			after.Games++
			after.RatedAt = at
		}
		g := PlayerGame{Seat: 0, PlayerID: ann, At: at, Seats: 3, Place: place, Rated: rated,
			BeforeRating: r.Rating, BeforeDeviation: r.Deviation, AfterRating: after.Rating, AfterDeviation: after.Deviation}
		if !rated {
			return []PlayerGame{g}, nil, nil
		}
		return []PlayerGame{g}, []Rating{after}, nil
	}}
}

func TestRatingHistoryAndPlaces(t *testing.T) {
	forEachDB(t, func(t *testing.T, db testDB) {
		ctx := context.Background()
		s := newStore(t, db)
		ann := account(t, s, "ann", false)
		games := []struct {
			place int
			rated bool
		}{{1, true}, {2, true}, {3, false}, {1, true}, {2, true}}
		for i, g := range games {
			id := fmt.Sprintf("game%d", i)
			startedGame(t, s, id, ann)
			if err := s.FinishGame(ctx, Fence{}, id, "finished", base.Add(time.Duration(i+1)*time.Hour), 9, false, nil, placed(ann, g.place, g.rated, i+1)); err != nil {
				t.Fatalf("finish %s: %v", id, err)
			}
		}
		tests := []struct {
			limit int
			want  string
		}{
			{10, "[game0:1510 game1:1520 game3:1530 game4:1540]"},
			{2, "[game3:1530 game4:1540]"},
		}
		for _, tt := range tests {
			h, err := s.RatingHistory(ctx, ann, tt.limit)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, p := range h {
				got = append(got, fmt.Sprintf("%s:%v", p.GameID, p.Rating))
			}
			if fmt.Sprint(got) != tt.want {
				t.Errorf("history of %d: got %v, want %v", tt.limit, got, tt.want)
			}
		}
		places, err := s.Places(ctx, ann)
		if err != nil {
			t.Fatal(err)
		}
		if got, want := fmt.Sprint(places), "[{1 2} {2 2} {3 1}]"; got != want {
			t.Errorf("places: got %v, want %v", got, want)
		}
		none, err := s.Places(ctx, ann+1)
		if err != nil || len(none) != 0 {
			t.Errorf("places of nobody: got %v, %v, want none", none, err)
		}
	})
}
