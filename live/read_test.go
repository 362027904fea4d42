package live

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"sync/atomic"
	"testing"
	"time"

	"github.com/uptrace/bun"

	"bullshit/engine"
	"bullshit/game"
	"bullshit/store"
)

// queryCounter counts the queries a store makes.
type queryCounter struct{ n atomic.Int64 }

func (c *queryCounter) BeforeQuery(ctx context.Context, _ *bun.QueryEvent) context.Context {
	c.n.Add(1)
	return ctx
}

func (c *queryCounter) AfterQuery(context.Context, *bun.QueryEvent) {}

// queries is how many queries fn made.
func (c *queryCounter) queries(fn func()) int64 {
	before := c.n.Load()
	fn()
	return c.n.Load() - before
}

// storeFinished writes a finished three-seat game straight to the store.
func storeFinished(t *testing.T, st *store.Store, id string, created time.Time) {
	t.Helper()
	ctx := context.Background()
	opts := engine.Standard(3)
	opts.Rules = engine.CurrentRules
	g := &store.Game{ID: id, Status: game.StatusOpen, Options: opts, Seed: 7, AwayAfter: DefaultAwayAfter, CreatedAt: created}
	seats := []store.Seat{
		{No: 0, Kind: game.SeatPerson, Name: "Ada", TokenHash: hashToken(id)},
		{No: 1, Kind: game.SeatBot, Name: "Bold bot (easy)", BotLevel: "easy", BotStyle: "bold"},
		{No: 2, Kind: game.SeatBot, Name: "Caller bot (hard)", BotLevel: "hard", BotStyle: "caller"},
	}
	if err := st.CreateGame(ctx, g, seats); err != nil {
		t.Fatal(err)
	}
	if err := st.StartGame(ctx, store.Fence{}, id, created.Add(time.Minute), nil); err != nil {
		t.Fatal(err)
	}
	results := []store.Result{{Seat: 2, Place: 1}, {Seat: 0, Place: 2, Left: 3, Rated: true}, {Seat: 1, Place: 3, Left: 9}}
	if err := st.FinishGame(ctx, store.Fence{}, id, game.StatusFinished, created.Add(time.Hour), 40, false, results, nil); err != nil {
		t.Fatal(err)
	}
}

// TestListReadsTheStoreAFixedNumberOfTimes lists 1 and 200 games, running
// and not: the store is read the same few times for both.
func TestListReadsTheStoreAFixedNumberOfTimes(t *testing.T) {
	f := newFixture(t)
	for i := range 200 {
		storeFinished(t, f.st, fmt.Sprintf("done%03d", i), epoch.Add(-time.Duration(i+1)*time.Minute))
	}
	counter := &queryCounter{}
	m := f.open(f.st.WithQueryHook(counter))
	f.m = m
	open, _ := f.create(4, 1, "Bob")

	listed := map[int][]game.Summary{}
	queries := map[int]int64{}
	for _, limit := range []int{1, 200} {
		queries[limit] = counter.queries(func() {
			var err error
			listed[limit], err = m.List(f.ctx, "", limit)
			if err != nil {
				t.Fatalf("List(%d): %v", limit, err)
			}
		})
		if got := len(listed[limit]); got != limit {
			t.Errorf("List(%d): got %d games", limit, got)
		}
	}
	t.Logf("queries: %d for 1 game, %d for 200", queries[1], queries[200])
	if queries[1] != queries[200] || queries[200] > 5 {
		t.Errorf("queries: got %d for 1 game and %d for 200, want the same few for both", queries[1], queries[200])
	}
	if got := listed[200][0].ID; got != open {
		t.Errorf("newest game listed: got %s, want the open table %s", got, open)
	}
	for _, s := range listed[200] {
		want, err := m.Get(f.ctx, s.ID)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(s, want) {
			t.Errorf("listed %s:\ngot  %+v\nwant %+v", s.ID, s, want)
		}
	}
}

// reads is every seat's view and the spectator's, and the log, as JSON.
func reads(t *testing.T, m *Manager, id string, seats int) []string {
	t.Helper()
	ctx := context.Background()
	var out []string
	for seat := engine.Spectator; seat < seats; seat++ {
		v, err := m.View(ctx, id, seat)
		if err != nil {
			t.Fatalf("view %d: %v", seat, err)
		}
		events, err := m.Log(ctx, id, seat)
		if err != nil {
			t.Fatalf("log %d: %v", seat, err)
		}
		for _, x := range []any{v, events} {
			b, err := json.Marshal(x)
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, string(b))
		}
	}
	return out
}

// TestFinishedGameIsNotReplayedOnRead reads a finished game's views and log
// again and again: the table hands its final state over as it stops, so
// reads touch no store, and after a restart only the first read replays it,
// showing exactly what the table did.
func TestFinishedGameIsNotReplayedOnRead(t *testing.T) {
	f := newFixture(t)
	counter := &queryCounter{}
	f.m = f.open(f.st.WithQueryHook(counter))
	const seats = 4
	id := f.botGame(seats)
	f.playOut(id, 3*time.Hour)
	f.sync(id) // the table has stopped: its game is no longer running

	var shown []string
	if n := counter.queries(func() { shown = reads(t, f.m, id, seats) }); n != 0 {
		t.Errorf("reading a game just finished: got %d queries, want none", n)
	}
	if err := f.m.Close(f.ctx); err != nil {
		t.Fatal(err)
	}

	f.m = f.open(f.st.WithQueryHook(counter))
	var replayed []string
	if n := counter.queries(func() { replayed = reads(t, f.m, id, seats) }); n == 0 {
		t.Errorf("first read after a restart: got no queries, want the game replayed")
	}
	for i := range shown {
		if replayed[i] != shown[i] {
			t.Errorf("read %d after a restart:\ngot  %s\nwant %s", i, replayed[i], shown[i])
		}
	}
	for range 3 {
		if n := counter.queries(func() { reads(t, f.m, id, seats) }); n != 0 {
			t.Errorf("reading a finished game again: got %d queries, want none", n)
		}
	}
}

// TestEndedGameShowsItsStoredPlaces ends a game after a hand-over ran out:
// the replay settles it before the end, as the table did, so the places it
// shows are those stored.
func TestEndedGameShowsItsStoredPlaces(t *testing.T) {
	f := newFixture(t)
	ctx := f.ctx
	opts := engine.Standard(3)
	opts.Rules = engine.CurrentRules
	start := epoch
	s, err := engine.New(opts, 11, start)
	if err != nil {
		t.Fatal(err)
	}
	// The seat on turn sneaks a card under its claim and is called; the
	// caller never hands a card over, so the clock does, before the end.
	turn := s.Turn()
	hand := s.View(turn).Hand
	actions := []store.Action{
		{GameID: "ended", Seq: 1, At: start.Add(time.Second), Action: engine.Action{Kind: engine.ActPlay, Seat: turn, No: 0, Cards: hand[:2], Claim: 1}},
		{GameID: "ended", Seq: 2, At: start.Add(2 * time.Second), Action: engine.Action{Kind: engine.ActCall, Seat: (turn + 1) % 3, No: 1}},
	}
	for _, a := range actions {
		if err := s.Apply(a.Action, a.At); err != nil {
			t.Fatal(err)
		}
	}
	end := start.Add(time.Minute)
	s.Tick(end)
	s.End(end)
	var results []store.Result
	for _, p := range s.Result() {
		results = append(results, store.Result{Seat: p.Seat, Place: p.Place, Left: p.Left})
	}

	g := &store.Game{ID: "ended", Status: game.StatusOpen, Options: opts, Seed: 11, AwayAfter: DefaultAwayAfter, CreatedAt: start}
	seats := []store.Seat{{No: 0, Kind: game.SeatBot}, {No: 1, Kind: game.SeatBot}, {No: 2, Kind: game.SeatBot}}
	if err := f.st.CreateGame(ctx, g, seats); err != nil {
		t.Fatal(err)
	}
	if err := f.st.StartGame(ctx, store.Fence{}, g.ID, start, nil); err != nil {
		t.Fatal(err)
	}
	if err := f.st.AppendActions(ctx, actions); err != nil {
		t.Fatal(err)
	}
	if err := f.st.FinishGame(ctx, store.Fence{}, g.ID, game.StatusEnded, end, s.Plays(), false, results, nil); err != nil {
		t.Fatal(err)
	}

	v := f.view(g.ID, engine.Spectator)
	var shown []store.Result
	for _, r := range v.Result {
		shown = append(shown, store.Result{Seat: r.Seat, Place: r.Place.Place, Left: r.Left})
	}
	if !reflect.DeepEqual(shown, results) {
		t.Errorf("places shown: got %+v, want those stored %+v", shown, results)
	}
	if want := s.View(engine.Spectator).Version; v.Version != want {
		t.Errorf("version shown: got %d, want %d", v.Version, want)
	}
}

// TestUnknownRulesAreRefused stores games under a rules version the server
// doesn't have: they are refused plainly, never replayed under other rules.
func TestUnknownRulesAreRefused(t *testing.T) {
	f := newFixture(t)
	opts := engine.Standard(3)
	opts.Rules = engine.CurrentRules + 41
	for _, status := range []game.Status{game.StatusLive, game.StatusFinished} {
		id := string(status)
		g := &store.Game{ID: id, Status: game.StatusOpen, Options: opts, Seed: 3, AwayAfter: DefaultAwayAfter, CreatedAt: epoch}
		seats := []store.Seat{{No: 0, Kind: game.SeatBot}, {No: 1, Kind: game.SeatBot}, {No: 2, Kind: game.SeatBot}}
		if err := f.st.CreateGame(f.ctx, g, seats); err != nil {
			t.Fatal(err)
		}
		if err := f.st.StartGame(f.ctx, store.Fence{}, id, epoch, nil); err != nil {
			t.Fatal(err)
		}
		if status == game.StatusFinished {
			if err := f.st.FinishGame(f.ctx, store.Fence{}, id, status, epoch.Add(time.Hour), 0, false, nil, nil); err != nil {
				t.Fatal(err)
			}
		}
	}
	// A restart does not rebuild the live one under other rules.
	f.m = f.open(f.st)
	for _, id := range []string{string(game.StatusLive), string(game.StatusFinished)} {
		if _, err := f.m.View(f.ctx, id, engine.Spectator); err != errUnknownRules {
			t.Errorf("view of a %s game under unknown rules: got %v, want %v", id, err, errUnknownRules)
		}
		if _, err := f.m.Log(f.ctx, id, engine.Spectator); err != errUnknownRules {
			t.Errorf("log of a %s game under unknown rules: got %v, want %v", id, err, errUnknownRules)
		}
	}
}

func TestNewGamesGetTheCurrentRules(t *testing.T) {
	f := newFixture(t)
	id, _ := f.create(4, 2)
	g, _, err := f.st.Game(f.ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if g.Options.Rules != engine.CurrentRules {
		t.Errorf("stored rules version: got %d, want %d", g.Options.Rules, engine.CurrentRules)
	}
}
