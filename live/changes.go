package live

import (
	"context"

	"bullshit/engine"
	"bullshit/game"
	"bullshit/naming"
)

// Act makes a seat's move (a.Seat is the seat the caller's token is for). The
// action is stored before the view after it is returned.
func (m *Manager) Act(ctx context.Context, id string, a engine.Action) (engine.View, error) {
	var v engine.View
	running, err := m.do(ctx, id, asSeat(ctx, a.Seat, func(t *table) error {
		var err error
		v, err = t.act(a)
		return err
	}))
	if running {
		if gaveUp(ctx, err) {
			return engine.View{}, err
		}
		return v, err
	}
	if _, _, err := m.st.Game(ctx, id); err != nil {
		return engine.View{}, m.fromStore(id, err)
	}
	if err := m.elsewhere(ctx, id); err != nil {
		return engine.View{}, err
	}
	return engine.View{}, errOver
}

// Move makes a move for the seat whose token this is (a.Seat is ignored)
// and returns that seat's frame after it: what a front end shows once a
// person moves, in one request to the table. A refused move comes back
// with the frame as it stands where there is one, for the page to show the
// refusal over it.
func (m *Manager) Move(ctx context.Context, id, token string, a engine.Action) (game.Frame, error) {
	if token == "" {
		return game.Frame{}, errNoToken
	}
	var f game.Frame
	seat := -1
	running, err := m.doThen(ctx, id, func(t *table) error {
		s, ok := matchToken(t.tokenHashes(), token)
		if !ok {
			return errNoToken
		}
		seat, a.Seat = s, s
		_, err := t.act(a)
		return err
	}, func(t *table) {
		// After the table settled, so the frame has the move's revision.
		if seat >= 0 {
			f = t.frame(t.snap.Load().summary, seat)
		}
	})
	if running {
		if gaveUp(ctx, err) || f.Game.ID == "" {
			return game.Frame{}, err
		}
		return f, err
	}
	// Not running here: the game is over, or at another node; Act says
	// which, and the frame is the store's.
	if seat, err = m.Authenticate(ctx, id, token); err != nil {
		return game.Frame{}, err
	}
	a.Seat = seat
	ctx = game.WithToken(ctx, token)
	_, err = m.Act(ctx, id, a)
	if f, ferr := m.Frame(ctx, id, seat); ferr == nil {
		return f, err
	}
	return game.Frame{}, err
}

// Join seats a person in the first empty seat of an open game. player is
// their account, 0 for a guest; an account takes one seat per table.
func (m *Manager) Join(ctx context.Context, id, name string, player int64) (game.Joined, error) {
	name, err := naming.Clean(name)
	if err != nil {
		return game.Joined{}, err
	}
	if player == 0 {
		if err := m.guestName(ctx, name); err != nil {
			return game.Joined{}, err
		}
	}
	var j game.Joined
	running, err := m.do(ctx, id, func(t *table) error {
		// Asked of the table, so a game that is over or broken says so
		// rather than that the node is busy.
		if err := m.admit(); err != nil {
			return err
		}
		var err error
		j, err = t.join(name, player)
		return err
	})
	if running {
		if gaveUp(ctx, err) {
			return game.Joined{}, err
		}
		return j, err
	}
	return game.Joined{}, m.notRunning(ctx, id)
}

// notRunning is the refusal of a change to a game that is not running: it is
// over, or there is no such game.
func (m *Manager) notRunning(ctx context.Context, id string) error {
	if _, _, err := m.st.Game(ctx, id); err != nil {
		return m.fromStore(id, err)
	}
	if err := m.elsewhere(ctx, id); err != nil {
		return err
	}
	return errOverGame
}

// change runs fn on a running table, refusing when there is none.
func (m *Manager) change(ctx context.Context, id string, fn func(t *table) error) error {
	running, err := m.do(ctx, id, fn)
	if running {
		return err
	}
	return m.notRunning(ctx, id)
}

// Start starts an open game (host only). With FillBots every empty seat gets
// a bot; at least 3 must be seated.
func (m *Manager) Start(ctx context.Context, id string, by int) error {
	return m.change(ctx, id, asSeat(ctx, by, func(t *table) error { return t.start(by) }))
}

// Leave frees a seat before the start; during play a bot takes it over.
func (m *Manager) Leave(ctx context.Context, id string, seat int) error {
	return m.change(ctx, id, asSeat(ctx, seat, func(t *table) error { return t.leave(seat) }))
}

// HandToBot hands seat to a bot for the rest of the game: by must be that
// seat, or the host when the seat's person is away.
func (m *Manager) HandToBot(ctx context.Context, id string, by, seat int) error {
	return m.change(ctx, id, asSeat(ctx, by, func(t *table) error { return t.handToBot(by, seat) }))
}

// End ends the game early (host only): it is kept, marked ended, and never
// rated.
func (m *Manager) End(ctx context.Context, id string, by int) error {
	return m.change(ctx, id, asSeat(ctx, by, func(t *table) error { return t.end(by) }))
}

// asSeat runs fn only if the request's token (see WithToken) still belongs to
// seat when the table serves it. Without a token there is nothing to check.
func asSeat(ctx context.Context, seat int, fn func(t *table) error) func(t *table) error {
	token, ok := game.TokenFrom(ctx)
	if !ok || seat == engine.Spectator {
		return fn
	}
	return func(t *table) error {
		if s, ok := matchToken(t.tokenHashes(), token); !ok || s != seat {
			return errSeatMoved
		}
		return fn(t)
	}
}

// Authenticate finds the seat whose token this is, comparing sha256 hashes
// in constant time.
func (m *Manager) Authenticate(ctx context.Context, id, token string) (int, error) {
	if token == "" {
		return 0, errNoToken
	}
	t, err := m.table(id)
	if err != nil {
		return 0, err
	}
	var hashes [][]byte
	if t != nil {
		hashes = t.snap.Load().tokens
	} else {
		_, seats, err := m.st.Game(ctx, id)
		if err != nil {
			return 0, m.fromStore(id, err)
		}
		hashes = make([][]byte, len(seats))
		for i, s := range seats {
			hashes[i] = s.TokenHash
		}
	}
	if seat, ok := matchToken(hashes, token); ok {
		return seat, nil
	}
	return 0, errNoToken
}
