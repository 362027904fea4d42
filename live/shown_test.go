package live

import (
	"bytes"
	"encoding/json"
	"log/slog"
	"strings"
	"sync"
	"time"

	"bullshit/engine"
	"bullshit/game"
)

// logLines is a log kept in memory, one JSON object a line.
type logLines struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (l *logLines) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.Write(p)
}

// captureLogs makes the Managers f opens from now on log into f.logs.
func (f *fixture) captureLogs() {
	f.logs = &logLines{}
	f.log = slog.New(slog.NewJSONHandler(f.logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
}

// matching are the lines logged at level whose message contains msg ("" for
// any) and whose attributes include every one of attrs.
func (l *logLines) matching(level, msg string, attrs map[string]any) []map[string]any {
	l.mu.Lock()
	defer l.mu.Unlock()
	var out []map[string]any
	for line := range strings.Lines(l.buf.String()) {
		var rec map[string]any
		if err := json.Unmarshal([]byte(line), &rec); err != nil {
			continue
		}
		if rec["level"] != level || !strings.Contains(rec["msg"].(string), msg) {
			continue
		}
		ok := true
		for k, v := range attrs {
			ok = ok && rec[k] == v
		}
		if ok {
			out = append(out, rec)
		}
	}
	return out
}

// String is the whole log, for failure messages.
func (l *logLines) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.String()
}

// checkTrouble checks that each of game's runs of store trouble (there
// were runs of them) was logged as one error as it began and one warning as
// it ended, saying how many calls failed and for how long, and that nothing
// else of the game was logged as an error.
func (f *fixture) checkTrouble(game string, runs int) {
	f.t.Helper()
	logs := f.logs
	attrs := map[string]any{"game": game}
	if got := logs.matching("ERROR", "", attrs); len(got) != runs {
		f.t.Errorf("got %d error lines for the game, want %d, one as each trouble began:\n%s", len(got), runs, logs)
	}
	over := logs.matching("WARN", "work again", attrs)
	if len(over) != runs {
		f.t.Fatalf("got %d lines saying the trouble is over, want %d:\n%s", len(over), runs, logs)
	}
	for _, line := range over {
		if n, _ := line["failed"].(float64); n < 1 {
			f.t.Errorf("got %v failed calls in the line ending the trouble, want a count", line["failed"])
		}
		if _, ok := line["lasted"]; !ok {
			f.t.Errorf("got no time lasted in the line ending the trouble: %v", line)
		}
	}
}

// checkShownIsStored checks that every view the spectator was shown of game
// id is the view a replay of the stored log gives at that version, action
// by action and deadline by deadline, as the table settles them.
func (f *fixture) checkShownIsStored(id string) {
	f.t.Helper()
	g, seats, err := f.st.Game(f.ctx, id)
	if err != nil {
		f.t.Fatal(err)
	}
	actions, err := f.st.Actions(f.ctx, id)
	if err != nil {
		f.t.Fatal(err)
	}
	opts := g.Options
	opts.Seats = seated(seats)
	replayed := map[int]string{}
	note := func(s *engine.State) {
		v := s.View(engine.Spectator)
		replayed[v.Version] = jsonOf(f, v)
	}
	ts := make([]engine.Timed, len(actions))
	for i, a := range actions {
		ts[i] = a.Timed()
	}
	s, err := engine.Replay{Options: opts, Seed: g.Seed, Start: g.StartedAt, Actions: ts}.Each(func(s *engine.State, _ engine.Step) { note(s) })
	if err != nil {
		f.t.Fatalf("replaying: %v", err)
	}
	settle := func(until time.Time) {
		for d := s.Deadline(); !d.IsZero() && !d.After(until); d = s.Deadline() {
			s.Tick(d)
			note(s)
		}
	}
	if g.Status == game.StatusEnded {
		settle(g.EndedAt)
		s.End(g.EndedAt)
		note(s)
	} else {
		settle(f.clock.Now())
	}

	// The table's latest frame may still be on its way to the recorder.
	want := f.view(id, engine.Spectator).Version
	var shown []engine.View
	for range 1000 {
		f.pub.mu.Lock()
		shown = append(shown[:0], f.pub.shown[id]...)
		f.pub.mu.Unlock()
		if len(shown) > 0 && shown[len(shown)-1].Version >= want {
			break
		}
		time.Sleep(5 * time.Millisecond)
	}
	if len(shown) == 0 {
		f.t.Fatalf("game %s: no view was published", id)
	}
	for _, v := range shown {
		if got, want := jsonOf(f, v), replayed[v.Version]; got != want {
			f.t.Fatalf("game %s: the table showed at version %d\n%s\nwhere its stored log gives\n%s", id, v.Version, got, want)
		}
	}
}

func jsonOf(f *fixture, v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		f.t.Fatal(err)
	}
	return string(b)
}
