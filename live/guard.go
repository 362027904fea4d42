package live

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"runtime/debug"

	"bullshit/engine"
	"bullshit/errcode"
	"bullshit/game"
	"bullshit/store"
)

// A fault in one game (a panic of its table, of a bot playing at it, of its
// Publisher, or of its replay at a start) stops that game's table alone. The
// table stays registered, answering every request with errBroken; its log
// and its stored status are left exactly as they were, so the game can be
// looked into, and a server without the fault takes it up again at its next
// start.

var errBroken = refuse(errcode.Broken,
	"This game stopped because of a fault on our side. Its moves are kept, but it can't go on for now.")

// panicked is a fault raised by a panic, with the stack it came from.
type panicked struct {
	value any
	stack []byte
}

func (p *panicked) Error() string { return fmt.Sprintf("panic: %v", p.value) }

// LogValue puts the stack in the log beside the panic.
func (p *panicked) LogValue() slog.Value {
	return slog.GroupValue(slog.String("panic", fmt.Sprint(p.value)), slog.String("stack", string(p.stack)))
}

// guard runs fn, turning a panic into a *panicked error, and a table's
// halt into the error it carries.
func guard(fn func() error) (err error) {
	defer func() {
		if r := recover(); r != nil {
			if h, ok := r.(halt); ok {
				err = h.err
				return
			}
			err = &panicked{value: r, stack: debug.Stack()}
		}
	}()
	return fn()
}

// stop marks the table broken by fault, for its readers too, and logs it;
// the request being served, if any, is answered.
func (t *table) stop(fault error) {
	t.fault = fault
	snap := *t.snap.Load()
	snap.summary.Status = game.StatusBroken
	t.snap.Store(&snap)
	t.m.leftOpen(t)
	attrs := []any{slog.String("game", t.id), slog.String("err", fault.Error())}
	if p, ok := errors.AsType[*panicked](fault); ok {
		attrs = append(attrs, slog.String("stack", string(p.stack)))
	}
	t.m.log.Error("a fault stopped a table; the other tables play on", attrs...)
	if t.serving != nil {
		t.serving.reply <- t.refusal()
		t.serving = nil
	}
}

// refusal is what a broken table answers: that the game stopped, or, for a
// game played under rules this server doesn't have, just that.
func (t *table) refusal() error {
	if errors.Is(t.fault, engine.ErrUnknownRules) {
		return errUnknownRules
	}
	return errBroken
}

// broken is a stopped table's goroutine: its streams are closed, and every
// request is answered with errBroken until the server stops. Nothing is
// written.
func (t *table) broken(ctx context.Context) {
	if t.out != nil {
		// A final batch of frames that say the table is broken, without
		// views (the state may be what failed): screens show it, and the
		// Publisher closes the game's streams (unless it is what failed).
		sum := t.snap.Load().summary
		b := &batch{at: t.m.clock.Now(), final: true}
		for seat := range sum.Seats {
			b.frames = append(b.frames, game.Frame{Revision: t.revision + 1, Epoch: t.game.Epoch, Game: sum, Seat: seat, Final: true})
		}
		b.frames = append(b.frames, game.Frame{Revision: t.revision + 1, Epoch: t.game.Epoch, Game: sum, Seat: engine.Spectator, Final: true})
		t.out.put(b)
	}
	for {
		select {
		case <-ctx.Done():
			return
		case r := <-t.inbox:
			r.reply <- t.refusal()
		case <-t.moving:
			return
		}
	}
}

// brokenTable stands for a stored game that couldn't be rebuilt, with what
// the store holds of its seats, so its players' tokens are still known and
// they are told what happened.
func (m *Manager) brokenTable(ctx context.Context, g store.Game, fault error) *table {
	var seats []store.Seat
	_ = guard(func() error {
		_, s, err := m.st.Game(ctx, g.ID)
		seats = s
		return err
	})
	t := &table{m: m, id: g.ID, inbox: make(chan request), done: make(chan struct{}), moving: make(chan struct{}), game: g, seats: seats}
	t.snap.Store(&snapshot{summary: storedSummary(g, seats, nil), tokens: t.tokenHashes()})
	t.stop(fault)
	return t
}
