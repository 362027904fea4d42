package store

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"
)

// account stores an account named name.
func account(t *testing.T, s *Store, name string, bot bool) int64 {
	t.Helper()
	a := &Account{Name: name, NameKey: name, PasswordHash: "x", Bot: bot, CreatedAt: base}
	if err := s.CreateAccount(context.Background(), a); err != nil {
		t.Fatal(err)
	}
	return a.ID
}

// startedGame stores a live game with ann in seat 0.
func startedGame(t *testing.T, s *Store, id string, ann int64) {
	t.Helper()
	ctx := context.Background()
	g := newGame(id, base)
	seats := []Seat{
		{No: 0, Kind: "person", Name: "Ann", PlayerID: ann},
		{No: 1, Kind: "bot", Name: "Bot", BotLevel: "hard", BotStyle: "bold"},
		{No: 2, Kind: "bot", Name: "Bot", BotLevel: "easy", BotStyle: "bold"},
	}
	if err := s.CreateGame(ctx, &g, seats); err != nil {
		t.Fatal(err)
	}
	if err := s.StartGame(ctx, Fence{}, id, base, withGameID(seats, id)); err != nil {
		t.Fatal(err)
	}
}

// oneUp rates ann one point up from whatever she had.
func oneUp(ann int64, seen *[]map[int64]Rating) *Rater {
	return &Rater{Players: []int64{ann}, Rate: func(cur map[int64]Rating) ([]PlayerGame, []Rating, error) {
		*seen = append(*seen, cur)
		r, ok := cur[ann]
		if !ok {
			r = Rating{PlayerID: ann, Rating: 1500, Deviation: 350, Volatility: 0.06}
		}
		after := r
		after.Rating++
		after.Games++
		after.RatedAt = base.Add(time.Hour)
		return []PlayerGame{{Seat: 0, PlayerID: ann, At: base.Add(time.Hour), Seats: 3, Place: 1, Calls: 2, Right: 1,
			Lies: 3, Sneaks: 1, Rated: true, BeforeRating: r.Rating, AfterRating: after.Rating}}, []Rating{after}, nil
	}}
}

func TestFinishRatesOnce(t *testing.T) {
	forEachDB(t, func(t *testing.T, db testDB) {
		ctx := context.Background()
		s := newStore(t, db)
		ann := account(t, s, "ann", false)
		var seen []map[int64]Rating
		for i, id := range []string{"game1", "game2"} {
			startedGame(t, s, id, ann)
			if err := s.FinishGame(ctx, Fence{}, id, "finished", base.Add(time.Hour), 9, false, nil, oneUp(ann, &seen)); err != nil {
				t.Fatalf("finish %s: %v", id, err)
			}
			// A finish retried, or replayed after a restart, rates nothing.
			if err := s.FinishGame(ctx, Fence{}, id, "finished", base.Add(time.Hour), 9, false, nil, oneUp(ann, &seen)); !errors.Is(err, ErrOver) {
				t.Fatalf("finish %s again: got %v, want ErrOver", id, err)
			}
			r, err := s.Ratings(ctx, []int64{ann})
			if err != nil {
				t.Fatal(err)
			}
			if got, want := r[ann].Rating, 1501.0+float64(i); got != want || r[ann].Games != i+1 {
				t.Errorf("after %s: got rating %v over %d games, want %v over %d", id, got, r[ann].Games, want, i+1)
			}
		}
		if len(seen) < 2 || len(seen[0]) != 0 || seen[len(seen)-1][ann].Rating != 1501 {
			t.Errorf("the rater saw %v, want nothing first, then the first game's rating", seen)
		}
		games, err := s.PlayerGames(ctx, ann, 0)
		if err != nil || len(games) != 2 {
			t.Fatalf("got %d games (%v), want 2", len(games), err)
		}
		tot, err := s.Totals(ctx, ann)
		if err != nil {
			t.Fatal(err)
		}
		if want := (PlayerTotals{Games: 2, Wins: 2, Calls: 4, Right: 2, Lies: 6, Sneaks: 2}); tot != want {
			t.Errorf("got totals %+v, want %+v", tot, want)
		}
	})
}

func TestLeaderboard(t *testing.T) {
	forEachDB(t, func(t *testing.T, db testDB) {
		ctx := context.Background()
		s := newStore(t, db)
		var ratings []Rating
		for i := range 6 {
			id := account(t, s, fmt.Sprintf("p%d", i), i%3 == 2)
			ratings = append(ratings, Rating{PlayerID: id, Rating: 1400 + float64(i*50), Deviation: 60 + float64(i%2)*100, Volatility: 0.06, Games: 3, RatedAt: base})
		}
		if _, err := s.db.NewInsert().Model(&ratings).Exec(ctx); err != nil {
			t.Fatal(err)
		}
		tests := []struct {
			q    LeaderboardQuery
			want []string
		}{
			{LeaderboardQuery{Who: People, Limit: 10}, []string{"p4", "p3", "p1", "p0"}},
			{LeaderboardQuery{Who: People, Limit: 10, MaxDeviation: 110}, []string{"p4", "p0"}},
			{LeaderboardQuery{Who: People, Limit: 1, Offset: 1}, []string{"p3"}},
			{LeaderboardQuery{Who: Programs, Limit: 10}, []string{"p5", "p2"}},
			{LeaderboardQuery{Limit: 10}, []string{"p5", "p4", "p3", "p2", "p1", "p0"}},
			{LeaderboardQuery{Limit: 2, Offset: 4}, []string{"p1", "p0"}},
			{LeaderboardQuery{Limit: 10, MinDeviation: 110}, []string{"p5", "p3", "p1"}},
		}
		for _, tt := range tests {
			got, err := s.Leaderboard(ctx, tt.q)
			if err != nil {
				t.Fatal(err)
			}
			var names []string
			for _, r := range got {
				names = append(names, r.Name)
			}
			if fmt.Sprint(names) != fmt.Sprint(tt.want) {
				t.Errorf("%+v: got %v, want %v", tt.q, names, tt.want)
			}
			n, err := s.LeaderboardCount(ctx, tt.q)
			if err != nil {
				t.Fatal(err)
			}
			if tt.q.Offset == 0 && n != len(tt.want) && tt.q.Limit >= len(tt.want) {
				t.Errorf("%+v: counted %d, want %d", tt.q, n, len(tt.want))
			}
		}
	})
}
