package store

import (
	"context"
	"crypto/sha256"
	"errors"
	"math"
	"reflect"
	"testing"
	"time"

	"bullshit/engine"
	"bullshit/game"
)

// base is a time with microseconds, which every timestamp keeps.
var base = time.Date(2026, 11, 30, 9, 15, 30, 123456000, time.UTC)

// standard is the standard options of a table of seats under the current
// rules, as a new game is stored.
func standard(seats int) engine.Options {
	o := engine.Standard(seats)
	o.Rules = engine.CurrentRules
	return o
}

func newGame(id string, created time.Time) Game {
	return Game{
		ID:        id,
		Status:    "open",
		Options:   standard(4),
		Seed:      42,
		AwayAfter: 90 * time.Second,
		FillBots:  true,
		CreatedAt: created,
	}
}

func hashOf(token string) []byte {
	h := sha256.Sum256([]byte(token))
	return h[:]
}

func TestLifecycle(t *testing.T) {
	forEachDB(t, func(t *testing.T, db testDB) {
		ctx := context.Background()
		s := newStore(t, db)

		g := newGame("abc123", base)
		g.Seed = math.MaxUint64
		g.Options = engine.Options{Seats: 3, Sneak: 1, Window: 4 * time.Second, Pace: engine.Relaxed, Penalty: engine.Penalty{Cards: 2, PerCard: true}, Rules: 1}
		seats := []Seat{
			{No: 0, Kind: "person", Name: "Ann", TokenHash: hashOf("ann")},
			{No: 1, Kind: "bot", Name: "Bot", BotLevel: "hard", BotStyle: "bold"},
			{No: 2, Kind: "empty"},
		}
		if err := s.CreateGame(ctx, &g, seats); err != nil {
			t.Fatalf("CreateGame: %v", err)
		}
		wantSeats := withGameID(seats, g.ID)
		checkGame(t, s, g, wantSeats)

		// Bea takes the empty seat; then, at the start, Ann is away.
		bea := Seat{GameID: g.ID, No: 2, Kind: "person", Name: "Bea", TokenHash: hashOf("bea")}
		if err := s.SaveSeat(ctx, Fence{}, bea); err != nil {
			t.Fatalf("SaveSeat: %v", err)
		}
		wantSeats[2] = bea
		checkGame(t, s, g, wantSeats)

		started := base.Add(time.Minute)
		wantSeats[0].Away, wantSeats[0].Covered = true, true
		if err := s.StartGame(ctx, Fence{}, g.ID, started, wantSeats); err != nil {
			t.Fatalf("StartGame: %v", err)
		}
		g.Status, g.StartedAt = "live", started
		checkGame(t, s, g, wantSeats)
		checkIDs(t, "Unfinished", mustGames(s.Unfinished(ctx)), []string{g.ID})

		var actions []Action
		for i, a := range []engine.Action{
			{Kind: engine.ActPlay, Seat: 1, No: 0, Cards: []engine.Card{engine.NewCard(0, 0, 0), engine.NewCard(5, 2, 0)}, Claim: 1},
			{Kind: engine.ActCall, Seat: 2, No: 1},
			{Kind: engine.ActGive, Seat: 2, No: 1, Cards: []engine.Card{engine.NewCard(12, 3, 0)}},
			{Kind: engine.ActPass, Seat: 0, No: 2},
		} {
			a := Action{GameID: g.ID, Seq: i + 1, At: started.Add(time.Duration(i)*time.Second + 7), Action: a}
			if err := s.AppendAction(ctx, a); err != nil {
				t.Fatalf("AppendAction(%d): %v", a.Seq, err)
			}
			actions = append(actions, a)
		}
		got, err := s.Actions(ctx, g.ID)
		if err != nil {
			t.Fatalf("Actions: %v", err)
		}
		if !reflect.DeepEqual(got, actions) {
			t.Errorf("Actions:\ngot  %s\nwant %s", describe(got), describe(actions))
		}

		ended := started.Add(time.Hour)
		results := []Result{
			{Seat: 2, Place: 1, Left: 0, Rated: false},
			{Seat: 0, Place: 2, Left: 3, Rated: false},
			{Seat: 1, Place: 2, Left: 3, Rated: false},
		}
		if err := s.FinishGame(ctx, Fence{}, g.ID, "finished", ended, 4, true, results, nil); err != nil {
			t.Fatalf("FinishGame: %v", err)
		}
		g.Status, g.EndedAt, g.Plays, g.Capped = "finished", ended, 4, true
		checkGame(t, s, g, wantSeats)
		gotResults, err := s.Results(ctx, g.ID)
		if err != nil {
			t.Fatalf("Results: %v", err)
		}
		if want := withResultGame(results, g.ID); !reflect.DeepEqual(gotResults, want) {
			t.Errorf("Results:\ngot  %s\nwant %s", describe(gotResults), describe(want))
		}
		checkIDs(t, "Unfinished after finishing", mustGames(s.Unfinished(ctx)), nil)

		if err := s.StartGame(ctx, Fence{}, g.ID, ended, nil); !errors.Is(err, ErrNotOpen) {
			t.Errorf("StartGame of a finished game: got %v, want %v", err, ErrNotOpen)
		}
		if err := s.FinishGame(ctx, Fence{}, g.ID, "ended", ended, 5, false, nil, nil); !errors.Is(err, ErrOver) {
			t.Errorf("FinishGame of a finished game: got %v, want %v", err, ErrOver)
		}
		checkGame(t, s, g, wantSeats)
	})
}

// checkGame reads game want.ID and compares it and its seats with want.
func checkGame(t *testing.T, s *Store, want Game, wantSeats []Seat) {
	t.Helper()
	got, seats, err := s.Game(context.Background(), want.ID)
	if err != nil {
		t.Fatalf("Game(%s): %v", want.ID, err)
	}
	if !reflect.DeepEqual(*got, want) {
		t.Errorf("Game(%s):\ngot  %s\nwant %s", want.ID, describe(*got), describe(want))
	}
	if !reflect.DeepEqual(seats, wantSeats) {
		t.Errorf("seats of %s:\ngot  %s\nwant %s", want.ID, describe(seats), describe(wantSeats))
	}
}

func withResultGame(results []Result, id string) []Result {
	out := make([]Result, len(results))
	for i, r := range results {
		r.GameID = id
		out[i] = r
	}
	return out
}

func mustGames(games []Game, err error) []Game {
	if err != nil {
		panic(err)
	}
	return games
}

func checkIDs(t *testing.T, what string, games []Game, want []string) {
	t.Helper()
	var got []string
	for _, g := range games {
		got = append(got, g.ID)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("%s: got %q, want %q", what, got, want)
	}
}

func TestNotFound(t *testing.T) {
	forEachDB(t, func(t *testing.T, db testDB) {
		ctx := context.Background()
		s := newStore(t, db)
		tests := []struct {
			name string
			do   func() error
		}{
			{"Game", func() error { _, _, err := s.Game(ctx, "nope"); return err }},
			{"SaveSeat", func() error { return s.SaveSeat(ctx, Fence{}, Seat{GameID: "nope", Kind: "bot"}) }},
			{"StartGame", func() error { return s.StartGame(ctx, Fence{}, "nope", base, nil) }},
			{"AppendAction", func() error {
				return s.AppendAction(ctx, Action{GameID: "nope", Seq: 1, At: base, Action: engine.Action{Kind: engine.ActPass}})
			}},
			{"FinishGame", func() error { return s.FinishGame(ctx, Fence{}, "nope", "ended", base, 0, false, nil, nil) }},
		}
		for _, tt := range tests {
			if err := tt.do(); !errors.Is(err, ErrNotFound) {
				t.Errorf("%s of a missing game: got %v, want %v", tt.name, err, ErrNotFound)
			}
		}
	})
}

func TestDuplicates(t *testing.T) {
	forEachDB(t, func(t *testing.T, db testDB) {
		ctx := context.Background()
		s := newStore(t, db)
		mustCreate(t, s, newGame("dup", base), Seat{No: 0, Kind: "person", Name: "Ann"})

		if err := s.CreateGame(ctx, &Game{ID: "dup", Status: "open", Options: standard(3), CreatedAt: base}, nil); !errors.Is(err, ErrDuplicate) {
			t.Errorf("CreateGame with a taken id: got %v, want %v", err, ErrDuplicate)
		}
		if err := s.CreateGame(ctx, &Game{ID: "dup", Status: "open", Options: standard(3), CreatedAt: base}, []Seat{{No: 1, Kind: "bot"}}); !errors.Is(err, ErrDuplicate) {
			t.Errorf("CreateGame with a taken id and seats: got %v, want %v", err, ErrDuplicate)
		}
		if _, seats, err := s.Game(ctx, "dup"); err != nil || len(seats) != 1 {
			t.Errorf("the game whose id was taken again: got %d seats (%v), want its 1", len(seats), err)
		}
		// The failed transaction leaves no seat behind for a new id either.
		if err := s.CreateGame(ctx, &Game{ID: "two", Status: "open", Options: standard(3), CreatedAt: base}, []Seat{{No: 0, Kind: "bot"}, {No: 0, Kind: "bot"}}); !errors.Is(err, ErrDuplicate) {
			t.Errorf("CreateGame with a seat twice: got %v, want %v", err, ErrDuplicate)
		}
		if _, _, err := s.Game(ctx, "two"); !errors.Is(err, ErrNotFound) {
			t.Errorf("game whose creation failed: got %v, want %v", err, ErrNotFound)
		}

		first := Action{GameID: "dup", Seq: 1, At: base, Action: engine.Action{Kind: engine.ActPlay, Seat: 0, Cards: []engine.Card{1}}}
		if err := s.AppendAction(ctx, first); err != nil {
			t.Fatalf("AppendAction: %v", err)
		}
		again := Action{GameID: "dup", Seq: 1, At: base.Add(time.Second), Action: engine.Action{Kind: engine.ActCall, Seat: 2, No: 1}}
		if err := s.AppendAction(ctx, again); !errors.Is(err, ErrNotNext) {
			t.Errorf("AppendAction with a used seq: got %v, want %v", err, ErrNotNext)
		}
		got, err := s.Actions(ctx, "dup")
		if err != nil {
			t.Fatalf("Actions: %v", err)
		}
		if want := []Action{first}; !reflect.DeepEqual(got, want) {
			t.Errorf("Actions after a refused duplicate:\ngot  %s\nwant %s", describe(got), describe(want))
		}
	})
}

func TestGamesOrder(t *testing.T) {
	forEachDB(t, func(t *testing.T, db testDB) {
		ctx := context.Background()
		s := newStore(t, db)
		// Created out of order; "b" and "c" share a time, broken by id.
		for _, g := range []struct {
			id      string
			status  game.Status
			created time.Time
		}{
			{"a", "open", base},
			{"d", "live", base.Add(3 * time.Microsecond)},
			{"b", "live", base.Add(time.Second)},
			{"c", "finished", base.Add(time.Second)},
			{"e", "live", base.Add(-time.Hour)},
		} {
			row := newGame(g.id, g.created)
			row.Status = g.status
			mustCreate(t, s, row)
		}
		tests := []struct {
			status game.Status
			limit  int
			want   []string
		}{
			{"", 0, []string{"c", "b", "d", "a", "e"}},
			{"", 2, []string{"c", "b"}},
			{"live", 0, []string{"b", "d", "e"}},
			{"live", 1, []string{"b"}},
			{"open", 10, []string{"a"}},
			{"ended", 0, nil},
		}
		for _, tt := range tests {
			games, err := s.Games(ctx, tt.status, tt.limit)
			if err != nil {
				t.Fatalf("Games(%q, %d): %v", tt.status, tt.limit, err)
			}
			checkIDs(t, "Games("+string(tt.status)+")", games, tt.want)
		}
		checkIDs(t, "Unfinished", mustGames(s.Unfinished(ctx)), []string{"e", "d", "b"})
	})
}

func TestNullableTimes(t *testing.T) {
	forEachDB(t, func(t *testing.T, db testDB) {
		ctx := context.Background()
		s := newStore(t, db)
		mustCreate(t, s, newGame("fresh", base))
		mustCreate(t, s, newGame("begun", base))
		if err := s.StartGame(ctx, Fence{}, "begun", base.Add(time.Second), nil); err != nil {
			t.Fatalf("StartGame: %v", err)
		}
		tests := []struct {
			id                   string
			startNull, endedNull bool
		}{
			{"fresh", true, true},
			{"begun", false, true},
		}
		for _, tt := range tests {
			var startNull, endedNull bool
			err := s.DB().NewSelect().Table("games").
				ColumnExpr("started_at IS NULL, ended_at IS NULL").
				Where("id = ?", tt.id).Scan(ctx, &startNull, &endedNull)
			if err != nil {
				t.Fatalf("read %s: %v", tt.id, err)
			}
			if startNull != tt.startNull || endedNull != tt.endedNull {
				t.Errorf("%s: started_at, ended_at NULL: got %v, %v, want %v, %v", tt.id, startNull, endedNull, tt.startNull, tt.endedNull)
			}
			g, _, err := s.Game(ctx, tt.id)
			if err != nil {
				t.Fatalf("Game(%s): %v", tt.id, err)
			}
			if g.StartedAt.IsZero() != tt.startNull || g.EndedAt.IsZero() != tt.endedNull {
				t.Errorf("%s: StartedAt, EndedAt zero: got %v, %v, want %v, %v", tt.id, g.StartedAt.IsZero(), g.EndedAt.IsZero(), tt.startNull, tt.endedNull)
			}
		}
	})
}

func TestGameValues(t *testing.T) {
	tests := []struct {
		name      string
		seed      uint64
		awayAfter time.Duration
		options   engine.Options
	}{
		{"zero seed", 0, 0, standard(3)},
		{"largest signed seed", math.MaxInt64, time.Millisecond, standard(10)},
		{"smallest seed with the top bit", 1 << 63, time.Hour, standard(5)},
		{"largest seed", math.MaxUint64, 2 * time.Minute, engine.Options{Seats: 6, Sneak: 0, Window: 10 * time.Second, Pace: engine.Brisk, Rules: 1}},
	}
	forEachDB(t, func(t *testing.T, db testDB) {
		s := newStore(t, db)
		for i, tt := range tests {
			g := newGame(string(rune('a'+i)), base)
			g.Seed, g.AwayAfter, g.Options = tt.seed, tt.awayAfter, tt.options
			mustCreate(t, s, g)
			got, _, err := s.Game(context.Background(), g.ID)
			if err != nil {
				t.Fatalf("%s: Game: %v", tt.name, err)
			}
			if !reflect.DeepEqual(*got, g) {
				t.Errorf("%s:\ngot  %s\nwant %s", tt.name, describe(*got), describe(g))
			}
		}
	})
}

func TestActionTimes(t *testing.T) {
	east := time.FixedZone("east", 5*3600+1800)
	tests := []struct {
		name string
		at   time.Time
	}{
		{"nanoseconds", time.Date(2026, 11, 30, 9, 15, 30, 123456789, time.UTC)},
		{"one nanosecond past the second", time.Date(2026, 1, 1, 0, 0, 0, 1, time.UTC)},
		{"another zone", time.Date(2027, 6, 1, 23, 59, 59, 999999999, east)},
		{"with a monotonic reading", time.Now()},
		{"before 1970", time.Date(1969, 12, 31, 23, 59, 59, 999999999, time.UTC)},
	}
	forEachDB(t, func(t *testing.T, db testDB) {
		ctx := context.Background()
		s := newStore(t, db)
		mustCreate(t, s, newGame("times", base))
		for i, tt := range tests {
			a := Action{GameID: "times", Seq: i + 1, At: tt.at, Action: engine.Action{Kind: engine.ActPass, Seat: i % 3, No: i}}
			if err := s.AppendAction(ctx, a); err != nil {
				t.Fatalf("%s: AppendAction: %v", tt.name, err)
			}
		}
		got, err := s.Actions(ctx, "times")
		if err != nil {
			t.Fatalf("Actions: %v", err)
		}
		if len(got) != len(tests) {
			t.Fatalf("Actions: got %d, want %d", len(got), len(tests))
		}
		for i, tt := range tests {
			if !got[i].At.Equal(tt.at) {
				t.Errorf("%s: got %v, want %v", tt.name, got[i].At, tt.at)
			}
		}

		far := Action{GameID: "times", Seq: 99, At: time.Date(2300, 1, 1, 0, 0, 0, 0, time.UTC)}
		if err := s.AppendAction(ctx, far); err == nil {
			t.Errorf("AppendAction at %v: got no error, want one", far.At)
		}
	})
}

func TestFinishStatus(t *testing.T) {
	tests := []struct {
		status  game.Status
		from    game.Status
		wantErr error
		ok      bool
	}{
		{status: "ended", from: "open", ok: true},
		{status: "ended", from: "live", ok: true},
		{status: "finished", from: "live", ok: true},
		{status: "finished", from: "ended", wantErr: ErrOver},
		{status: "live", from: "live"},
		{status: "", from: "live"},
	}
	forEachDB(t, func(t *testing.T, db testDB) {
		ctx := context.Background()
		s := newStore(t, db)
		for i, tt := range tests {
			g := newGame(string(rune('a'+i)), base)
			g.Status = tt.from
			mustCreate(t, s, g)
			err := s.FinishGame(ctx, Fence{}, g.ID, tt.status, base.Add(time.Hour), 3, false, nil, nil)
			switch {
			case tt.ok && err != nil:
				t.Errorf("FinishGame %s game as %q: got %v, want no error", tt.from, tt.status, err)
			case !tt.ok && err == nil:
				t.Errorf("FinishGame %s game as %q: got no error, want one", tt.from, tt.status)
			case tt.wantErr != nil && !errors.Is(err, tt.wantErr):
				t.Errorf("FinishGame %s game as %q: got %v, want %v", tt.from, tt.status, err, tt.wantErr)
			}
			got, _, err := s.Game(ctx, g.ID)
			if err != nil {
				t.Fatalf("Game: %v", err)
			}
			want := tt.from
			if tt.ok {
				want = tt.status
			}
			if got.Status != want {
				t.Errorf("status after finishing %s game as %q: got %q, want %q", tt.from, tt.status, got.Status, want)
			}
		}
	})
}
