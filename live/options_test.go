package live

import (
	"slices"
	"strconv"
	"testing"
	"time"

	"bullshit/engine"
	"bullshit/game"
)

// TestPracticeTable: a table given a seed is dealt from it (the same deal
// as any other table with that seed), says it is practice in every summary
// and view, is never rated, and its record names the seed.
func TestPracticeTable(t *testing.T) {
	f := newFixture(t)
	seed := uint64(18446744073709551557)
	opts := engine.Standard(4)
	opts.PlayOn = true
	j, err := f.m.Create(f.ctx, game.CreateRequest{Options: opts, HostName: "Ada", Seed: &seed,
		Bots: []game.BotSpec{{Level: "medium", Style: "bold"}, {Level: "hard", Style: "caller"}, {Level: "easy", Style: "cautious"}}})
	if err != nil {
		t.Fatal(err)
	}
	id := j.Game.ID
	if !j.Game.Options.Practice {
		t.Errorf("the new table's summary: got options %+v, want practice", j.Game.Options)
	}
	ann := f.seatAccount(id, 0, "ann")
	if err := f.m.Start(f.ctx, id, 0); err != nil {
		t.Fatal(err)
	}
	v := f.view(id, 0)
	want, err := engine.New(opts, seed, epoch)
	if err != nil {
		t.Fatal(err)
	}
	if !v.Options.Practice || !slices.Equal(v.Hand, want.View(0).Hand) {
		t.Errorf("got practice %v and hand %v, want practice and the seed's deal %v", v.Options.Practice, v.Hand, want.View(0).Hand)
	}
	f.playPerson(id, 0, 3*time.Hour)
	rows, err := f.st.GamePlayers(f.ctx, id)
	if err != nil || len(rows) != 1 || rows[0].Rated || rows[0].AfterRating != rows[0].BeforeRating {
		t.Fatalf("got %+v (%v), want Ann's row unrated", rows, err)
	}
	if ratings, err := f.st.Ratings(f.ctx, []int64{ann}); err != nil || len(ratings) != 0 {
		t.Errorf("got ratings %+v (%v), want none", ratings, err)
	}
	results, err := f.st.Results(f.ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range results {
		if r.Rated {
			t.Errorf("got result %+v rated, want none at a practice table", r)
		}
	}
	rec, err := f.m.Record(f.ctx, id)
	if err != nil || rec.Seed != strconv.FormatUint(seed, 10) || !rec.Game.Options.Practice || !rec.Game.Options.PlayOn {
		t.Errorf("got the record's seed %q options %+v (%v), want %d, practice, playing on", rec.Seed, rec.Game.Options, err, seed)
	}
}

// TestPlayOnRatesTheOrderOut: a finished game played on for places is
// stored and rated by the order the seats went out.
func TestPlayOnRatesTheOrderOut(t *testing.T) {
	f := newFixture(t)
	opts := engine.Standard(5)
	opts.PlayOn = true
	j, err := f.m.Create(f.ctx, game.CreateRequest{Options: opts, HostName: "Ada",
		Bots: []game.BotSpec{{Level: "medium", Style: "bold"}, {Level: "hard", Style: "caller"}, {Level: "easy", Style: "cautious"}, {Level: "medium", Style: "cautious"}}})
	if err != nil {
		t.Fatal(err)
	}
	id := j.Game.ID
	f.seatAccount(id, 0, "ann")
	if err := f.m.Start(f.ctx, id, 0); err != nil {
		t.Fatal(err)
	}
	f.playPerson(id, 0, 6*time.Hour)
	final := f.view(id, engine.Spectator)
	var out []int
	for _, e := range mustLog(t, f, id) {
		if e.Kind == engine.EventOut {
			out = append(out, e.Seat)
		}
	}
	if final.Capped {
		t.Skip("the game reached the play cap")
	}
	if len(out) != 3 {
		t.Fatalf("got seats out %v, want three of five before two are left", out)
	}
	for i, seat := range out {
		if final.Result[i].Seat != seat || final.Result[i].Place.Place != i+1 {
			t.Errorf("got result row %d %+v, want seat %d in place %d", i, final.Result[i], seat, i+1)
		}
	}
	results, err := f.st.Results(f.ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	rows, err := f.st.GamePlayers(f.ctx, id)
	if err != nil || len(rows) != 1 || !rows[0].Rated {
		t.Fatalf("got %+v (%v), want Ann's row rated", rows, err)
	}
	for _, r := range results {
		if r.Seat == 0 && r.Place != rows[0].Place {
			t.Errorf("got Ann's stored place %d and rated place %d, want them equal", r.Place, rows[0].Place)
		}
	}
	if got := final.Result[slices.IndexFunc(final.Result, func(r engine.ResultRow) bool { return r.Seat == 0 })].Place.Place; got != rows[0].Place {
		t.Errorf("got Ann rated in place %d, want the result's %d", rows[0].Place, got)
	}
}

func mustLog(t *testing.T, f *fixture, id string) []engine.Event {
	t.Helper()
	log, err := f.m.Log(f.ctx, id, engine.Spectator)
	if err != nil {
		t.Fatal(err)
	}
	return log
}
