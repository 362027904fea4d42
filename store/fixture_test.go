package store

import (
	"context"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"bullshit/engine"
	"bullshit/engine/bot"
	"bullshit/engine/drive"
	"bullshit/game"
)

var writeFixture = flag.Bool("write-fixture", false, "rewrite "+fixturePath+" with the games of fixtureGames")

// fixturePath is a database written by this version of the store, kept so
// that every later version is tested against it: its games must still read
// and replay to the results stored with them. It was written by
//
//	go test ./store -run TestFixtureDatabase -write-fixture
//
// and is not to be rewritten to make a later change pass: a version that
// changes what is stored adds a fixture of its own beside this one.
const fixturePath = "testdata/fixture.db"

// fixtureGame is a game the fixture holds, played by bots on a made-up
// clock.
type fixtureGame struct {
	id      string
	opts    engine.Options
	seed    uint64
	persons int // the first seats are people's; the rest are bots
	// stopAfter stops after that many actions (0: play to the end); ended
	// then has the host end the game a little later, else it stays live.
	stopAfter int
	ended     bool
	// open games are never started; with ended too, ended before the start.
	open bool
	// slowGive lets the caller's hand-over run out (the clock picks the
	// cards) this often, out of 4. edgy has a seat act at the edge of a
	// deadline this often, out of 4: the caller hands over a millisecond
	// before the hand-over runs out, the next player plays a millisecond
	// after a reveal or a hand-over ends. Replayed with other timings, such
	// moves would be refused.
	slowGive, edgy int
}

// fixtureStart is when the fixture's games are created.
var fixtureStart = time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)

func fixtureGames() []fixtureGame {
	relaxed := engine.Options{Seats: 7, Sneak: 3, Window: 4 * time.Second, Pace: engine.Relaxed,
		Penalty: engine.Penalty{Cards: 1, PerCard: true}}
	sneakless := engine.Options{Seats: 5, Sneak: 0, Window: 10 * time.Second, Pace: engine.Brisk, Penalty: engine.StandardPenalty}
	return []fixtureGame{
		{id: "finished3", opts: engine.Standard(3), seed: 101, persons: 1, edgy: 2},
		{id: "finished4", opts: engine.Standard(4), seed: 102, slowGive: 2, edgy: 2},
		{id: "finished7", opts: relaxed, seed: 103, persons: 2, slowGive: 1, edgy: 2},
		{id: "finished5", opts: sneakless, seed: 104, edgy: 1},
		{id: "ended4", opts: engine.Standard(4), seed: 105, persons: 1, stopAfter: 40, ended: true, slowGive: 4},
		{id: "ended10", opts: engine.Standard(10), seed: 106, stopAfter: 25, ended: true, edgy: 2},
		{id: "live6", opts: engine.Standard(6), seed: 107, persons: 3, stopAfter: 30, slowGive: 2, edgy: 2},
		{id: "live3", opts: engine.Standard(3), seed: 108, stopAfter: 1},
		{id: "open4", opts: engine.Standard(4), seed: 109, persons: 1, open: true},
		{id: "ended-unstarted", opts: engine.Standard(3), seed: 110, persons: 1, open: true, ended: true},
	}
}

// TestFixtureDatabase replays every game of the fixture database, as this
// version of the store reads it, and checks each against what was stored:
// finished and ended games come to their stored results, live ones replay
// without a refused move. With -write-fixture it first writes the fixture
// afresh. On PostgreSQL the fixture's games are copied in first.
func TestFixtureDatabase(t *testing.T) {
	if *writeFixture {
		writeFixtureDB(t)
	}
	forEachDB(t, func(t *testing.T, db testDB) {
		ctx := context.Background()
		// A copy: opening migrates, and the committed file must stay as
		// this version wrote it.
		fixture := openStore(t, copyFixture(t))
		s := fixture
		if db.name != SQLite {
			s = newStore(t, db)
			copyGames(t, fixture, s)
		}
		games, err := s.Games(ctx, "", 0)
		if err != nil {
			t.Fatal(err)
		}
		count := map[string]int{}
		for _, g := range games {
			count[string(g.Status)]++
			t.Run(g.ID, func(t *testing.T) { checkStoredGame(t, s, g) })
		}
		if count["finished"] < 3 || count["ended"] < 2 || count["live"] < 2 || count["open"] < 1 {
			t.Errorf("fixture holds %v games by status, want at least 3 finished, 2 ended, 2 live, 1 open", count)
		}
	})
}

// checkStoredGame replays a stored game and compares it with what was
// stored with it.
func checkStoredGame(t *testing.T, s *Store, g Game) {
	ctx := context.Background()
	_, seats, err := s.Game(ctx, g.ID)
	if err != nil {
		t.Fatal(err)
	}
	actions, err := s.Actions(ctx, g.ID)
	if err != nil {
		t.Fatal(err)
	}
	results, err := s.Results(ctx, g.ID)
	if err != nil {
		t.Fatal(err)
	}
	if g.StartedAt.IsZero() {
		if len(actions) > 0 || len(results) > 0 || (g.Status != game.StatusOpen && g.Status != game.StatusEnded) {
			t.Errorf("unstarted %s game with %d actions and %d results", g.Status, len(actions), len(results))
		}
		return
	}
	opts := g.Options
	opts.Seats = 0
	for _, seat := range seats {
		if seat.Kind != "empty" {
			opts.Seats++
		}
	}
	gives := 0
	timed := make([]engine.Timed, len(actions))
	for i, a := range actions {
		timed[i] = a.Timed()
		if a.Action.Kind == engine.ActGive {
			gives++
		}
	}
	r := engine.Replay{Options: opts, Seed: g.Seed, Start: g.StartedAt, Actions: timed}
	if g.Status == game.StatusFinished || g.Status == game.StatusEnded {
		r.Over, r.HostEnded = g.EndedAt, g.Status == game.StatusEnded
	}
	state, err := r.State()
	if err != nil {
		t.Fatalf("replay: %v", err)
	}
	defer func() {
		calls, gave := 0, 0
		for _, e := range state.Log(engine.Spectator) {
			switch e.Kind {
			case engine.EventCalled:
				calls++
			case engine.EventGave:
				gave++
			}
		}
		t.Logf("%s: %d actions, %d plays, %d calls, %d hand-overs by the clock", g.Status, len(actions), state.Plays(), calls, gave-gives)
	}()
	switch g.Status {
	case game.StatusLive:
		if state.Over() {
			t.Errorf("a live game is over once replayed")
		}
		return
	case game.StatusFinished:
		if !state.Over() || state.Ended() {
			t.Fatalf("a finished game replays as over %v, ended %v", state.Over(), state.Ended())
		}
	case game.StatusEnded:
		if !state.Over() || !state.Ended() {
			t.Fatalf("an ended game replays as over %v, ended %v", state.Over(), state.Ended())
		}
	default:
		t.Fatalf("a started game with status %q", g.Status)
	}
	if state.Plays() != g.Plays || state.Capped() != g.Capped {
		t.Errorf("replayed %d plays, capped %v; stored %d, %v", state.Plays(), state.Capped(), g.Plays, g.Capped)
	}
	var replayed []Result
	for _, p := range state.Result() {
		replayed = append(replayed, Result{GameID: g.ID, Seat: p.Seat, Place: p.Place, Left: p.Left})
	}
	slices.SortStableFunc(replayed, func(a, b Result) int {
		if a.Place != b.Place {
			return a.Place - b.Place
		}
		return a.Seat - b.Seat
	})
	stored := make([]Result, len(results))
	for i, r := range results {
		r.Rated = false // the replay knows nothing of ratings
		stored[i] = r
	}
	if !slices.Equal(replayed, stored) {
		t.Errorf("results:\ngot  %s\nwant %s", describe(replayed), describe(stored))
	}
}

// copyFixture copies the fixture to a new folder, returning its path.
func copyFixture(t *testing.T) string {
	t.Helper()
	src, err := os.Open(fixturePath)
	if err != nil {
		t.Fatalf("open the fixture (write it with -write-fixture): %v", err)
	}
	defer src.Close()
	path := filepath.Join(t.TempDir(), "fixture.db")
	dst, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(dst, src); err != nil {
		t.Fatal(err)
	}
	if err := dst.Close(); err != nil {
		t.Fatal(err)
	}
	return path
}

// copyGames copies every game, with its seats, actions and results, through
// the store's own reads and writes.
func copyGames(t *testing.T, from, to *Store) {
	t.Helper()
	ctx := context.Background()
	games, err := from.Games(ctx, "", 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, g := range games {
		_, seats, err := from.Game(ctx, g.ID)
		if err != nil {
			t.Fatal(err)
		}
		actions, err := from.Actions(ctx, g.ID)
		if err != nil {
			t.Fatal(err)
		}
		results, err := from.Results(ctx, g.ID)
		if err != nil {
			t.Fatal(err)
		}
		// The whole row, status and times included.
		if err := to.CreateGame(ctx, &g, seats); err != nil {
			t.Fatal(err)
		}
		if err := to.AppendActions(ctx, actions); err != nil {
			t.Fatal(err)
		}
		if len(results) > 0 {
			if _, err := to.db.NewInsert().Model(&results).Exec(ctx); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// writeFixtureDB writes the fixture afresh: every game of fixtureGames,
// played and stored as a server stores it.
func writeFixtureDB(t *testing.T) {
	t.Helper()
	for _, suffix := range []string{"", "-wal", "-shm"} {
		if err := os.Remove(fixturePath + suffix); err != nil && !os.IsNotExist(err) {
			t.Fatal(err)
		}
	}
	s, err := Open(context.Background(), fixturePath)
	if err != nil {
		t.Fatal(err)
	}
	for i, fg := range fixtureGames() {
		if err := storeFixtureGame(s, fg, fixtureStart.Add(time.Duration(i)*time.Hour)); err != nil {
			t.Fatalf("game %s: %v", fg.id, err)
		}
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	for _, suffix := range []string{"-wal", "-shm"} {
		if _, err := os.Stat(fixturePath + suffix); err == nil {
			t.Fatalf("%s%s left behind: the fixture is not one file", fixturePath, suffix)
		}
	}
}

// storeFixtureGame plays fg from created on and stores it.
func storeFixtureGame(s *Store, fg fixtureGame, created time.Time) error {
	ctx := context.Background()
	opts := fg.opts
	opts.Rules = engine.CurrentRules
	n := opts.Seats
	seats := make([]Seat, n)
	for i := range seats {
		seats[i] = Seat{No: i, Kind: "bot", BotLevel: fixtureLevel(i), BotStyle: fixtureStyle(i)}
		seats[i].Name = fmt.Sprintf("Bot %d", i)
		if i < fg.persons {
			seats[i] = Seat{No: i, Kind: "person", Name: fmt.Sprintf("Person %d", i), TokenHash: hashOf(fmt.Sprint(fg.id, i))}
		}
	}
	g := &Game{ID: fg.id, Status: game.StatusOpen, Options: opts, Seed: fg.seed, AwayAfter: time.Minute, FillBots: true, CreatedAt: created}
	if err := s.CreateGame(ctx, g, seats); err != nil {
		return err
	}
	if fg.open {
		if fg.ended {
			return s.FinishGame(ctx, Fence{}, fg.id, game.StatusEnded, created.Add(time.Minute), 0, false, nil, nil)
		}
		return nil
	}
	start := created.Add(2 * time.Minute)
	if err := s.StartGame(ctx, Fence{}, fg.id, start, seats); err != nil {
		return err
	}
	state, actions, now, err := playFixture(fg, opts, start)
	if err != nil {
		return err
	}
	if err := s.AppendActions(ctx, actions); err != nil {
		return err
	}
	switch {
	case fg.stopAfter > 0 && !fg.ended:
		return nil
	case fg.ended:
		// The host ends it a while later, after any deadline then due.
		now = now.Add(20 * time.Second)
		state.Tick(now)
		state.End(now)
	}
	var results []Result
	for _, p := range state.Result() {
		results = append(results, Result{Seat: p.Seat, Place: p.Place, Left: p.Left, Rated: !fg.ended && p.Seat < fg.persons})
	}
	status := game.StatusFinished
	if fg.ended {
		status = game.StatusEnded
	}
	return s.FinishGame(ctx, Fence{}, fg.id, status, now, state.Plays(), state.Capped(), results, nil)
}

func fixtureLevel(seat int) bot.Level {
	return []bot.Level{bot.Easy, bot.Medium, bot.Hard}[seat%3]
}

func fixtureStyle(seat int) bot.Style {
	styles := bot.SiteStyles()
	return styles[seat%len(styles)]
}

// playFixture plays fg with bots, each acting when its think time has
// passed by the rule of package drive (bent at the edges as fg says), and
// returns the state, the actions with their times, and the time
// of the last change. Every time is a whole number of microseconds, as the
// store keeps a game's start and end.
func playFixture(fg fixtureGame, opts engine.Options, start time.Time) (*engine.State, []Action, time.Time, error) {
	s, err := engine.New(opts, fg.seed, start)
	if err != nil {
		return nil, nil, time.Time{}, err
	}
	bots := make([]*bot.Bot, opts.Seats)
	for i := range bots {
		if bots[i], err = bot.New(fixtureLevel(i), fixtureStyle(i), fg.seed+uint64(i)); err != nil {
			return nil, nil, time.Time{}, err
		}
	}
	rng := rand.New(rand.NewPCG(fg.seed, 8))
	var actions []Action
	t := drive.New(s, start, func(d engine.Decider) time.Duration { return engine.ThinkTime(d.Think, opts.Pace) })
	// settled: the last change was a deadline, not a move, settled at
	// settledAt.
	settled := false
	var settledAt time.Time
	settle := func(d time.Time) {
		t.Settle(d)
		settled, settledAt = true, d
	}
	for !s.Over() && (fg.stopAfter == 0 || len(actions) < fg.stopAfter) {
		next := t.Next()
		if next.Deadline {
			settle(next.At)
			continue
		}
		d, at := next.Deciders[0], next.At
		switch {
		case d.Think == engine.ThinkGive && rng.IntN(4) < fg.slowGive:
			settle(s.Deadline())
			continue
		case d.Think == engine.ThinkGive && rng.IntN(4) < fg.edgy:
			at = s.Deadline().Add(-time.Millisecond)
		case d.Think == engine.ThinkTurn && settled && rng.IntN(4) < fg.edgy:
			at = settledAt.Add(time.Millisecond)
		}
		v := s.View(d.Seat)
		a, ok := bots[d.Seat].Choose(v)
		if !ok {
			return nil, nil, time.Time{}, fmt.Errorf("seat %d has no move", d.Seat)
		}
		if err := s.Apply(a, at); err != nil {
			if a, ok = v.Fallback(); !ok {
				return nil, nil, time.Time{}, err
			}
			if err := s.Apply(a, at); err != nil {
				return nil, nil, time.Time{}, err
			}
		}
		actions = append(actions, Action{GameID: fg.id, Seq: len(actions) + 1, At: at, Action: a})
		t.Moved(a, at)
		settled = false
	}
	log := s.Log(engine.Spectator)
	return s, actions, log[len(log)-1].At, nil
}
