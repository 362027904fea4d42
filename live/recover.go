package live

import (
	"context"
	"fmt"
	"time"

	"bullshit/engine"
	"bullshit/engine/bot"
	"bullshit/errcode"
	"bullshit/game"
	"bullshit/store"
)

// load starts a table for every open game, and for every live one rebuilt
// from its log. A game that cannot be rebuilt, even by a panic, gets a
// broken table that says so, so one bad game neither keeps the server down
// nor stops the others.
func (m *Manager) load(ctx context.Context) error {
	open, err := m.st.Games(ctx, game.StatusOpen, 0)
	if err != nil {
		return fmt.Errorf("live: load open games: %w", err)
	}
	// Read before anything marks this server alive: the last mark the
	// server before it wrote.
	alive, err := m.st.Alive(ctx)
	if err != nil {
		return fmt.Errorf("live: load: %w", err)
	}
	var running []store.Game
	if rr, ok := m.st.(runningReader); ok {
		// The games being played, read in a few streaming queries and
		// rebuilt on every core; the open ones below, a few at most.
		if err := m.loadRunning(ctx, rr, alive); err != nil {
			return err
		}
	} else if running, err = m.st.Unfinished(ctx); err != nil {
		return fmt.Errorf("live: load live games: %w", err)
	}
	for _, g := range append(open, running...) {
		var t *table
		err := guard(func() error {
			var err error
			t, err = m.rebuild(ctx, g.ID, alive)
			return err
		})
		if err != nil {
			t = m.brokenTable(ctx, g, fmt.Errorf("rebuilding the game: %w", err))
		}
		if err := m.add(t); err != nil {
			return err
		}
	}
	return nil
}

// rebuild is the table of a stored game: dealt again from its seed and
// replayed action by action at the stored times, settling each deadline
// between them as the live table did, then brought up to the moment the
// game was last known running: the later of alive (the server's last alive
// mark) and the game's last change. The table resumes from there when it
// starts (resumeAfterDown).
func (m *Manager) rebuild(ctx context.Context, id string, alive time.Time) (*table, error) {
	g, seats, err := m.stored(ctx, id)
	if err != nil {
		return nil, err
	}
	if g.Status != game.StatusLive {
		t := m.newTable(g, seats)
		t.openSince = openSince(g, seats, m.clock.Now())
		return t, nil
	}
	actions, err := m.st.Actions(ctx, id)
	if err != nil {
		return nil, err
	}
	return m.rebuilt(g, seats, timed(actions), alive)
}

// rebuilt is the table of a game being played, rebuilt from its stored
// actions (see rebuild). It reads nothing, so many can be rebuilt at once.
func (m *Manager) rebuilt(g store.Game, seats []store.Seat, actions []engine.Timed, alive time.Time) (*table, error) {
	t := m.newTable(g, seats)
	// Each deadline and action is the table's own as it replays, so the
	// seats' decisions stand as the live table left them.
	_, err := replayOf(g, seats, actions).Each(func(s *engine.State, st engine.Step) {
		switch st.Kind {
		case engine.StepDeal:
			n := s.Seats()
			t.state, t.pending, t.bots, t.at = s, make([]pending, n), make([]*bot.Bot, n), g.StartedAt
			t.moved(g.StartedAt)
		case engine.StepDeadline:
			t.ticked(st.At)
		case engine.StepAction:
			t.accepted(st.Timed)
		}
	})
	if err != nil {
		return nil, fmt.Errorf("replay %w", err)
	}
	t.downSince = later(alive, t.at)
	if now := m.clock.Now(); t.downSince.After(now) {
		// A mark from the future (the clock was set back): no time down.
		t.downSince = later(now, t.at)
	}
	t.settleUntil(t.downSince)
	t.refresh()
	return t, nil
}

// settleUntil settles every deadline due by then, one at a time.
func (t *table) settleUntil(then time.Time) {
	for {
		d := t.state.Deadline()
		if d.IsZero() || d.After(then) {
			return
		}
		t.tick(d)
	}
}

// replayed is a game that is no longer running, rebuilt from the store to
// be viewed.
func (m *Manager) replayed(ctx context.Context, id string) (*engine.State, error) {
	g, seats, err := m.stored(ctx, id)
	if err != nil {
		return nil, m.fromStore(id, err)
	}
	if g.StartedAt.IsZero() {
		return nil, refuse(errcode.Conflict, "The game ended before it started.")
	}
	actions, err := m.st.Actions(ctx, id)
	if err != nil {
		return nil, m.unsaved(id, err)
	}
	r := replayOf(g, seats, timed(actions))
	// The table had settled every deadline due by the time the host ended
	// it (a hand-over that ran out moves cards): so does the replay's end,
	// or the places it shows would not be those stored.
	r.Over, r.HostEnded = g.EndedAt, g.Status == game.StatusEnded
	s, err := r.State()
	if err != nil {
		return nil, m.notReplayed(id, err)
	}
	return s, nil
}

var _ storage = (*store.Store)(nil)

// replayOf is a started game as the engine replays it: its options with
// the seats taken at the start, its deal and its actions.
func replayOf(g store.Game, seats []store.Seat, actions []engine.Timed) engine.Replay {
	opts := g.Options
	opts.Seats = seated(seats)
	return engine.Replay{Options: opts, Seed: g.Seed, Start: g.StartedAt, Actions: actions}
}

// timed are stored actions as the engine replays them.
func timed(rows []store.Action) []engine.Timed {
	actions := make([]engine.Timed, len(rows))
	for i, a := range rows {
		actions[i] = a.Timed()
	}
	return actions
}
