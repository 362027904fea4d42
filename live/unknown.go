package live

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	"bullshit/engine"
	"bullshit/store"
)

// A write whose answer is lost (a connection reset, a time-out) may have
// committed or not. The table treats every failed write so: it settles it
// against the store before it changes anything else. An action is settled by
// reading its sequence number back (store.Settle): exactly this action there
// means it committed, and the table adopts what is stored; nothing there
// means it did not, and the table goes on from before it. A start or an end
// is settled by reading the game's row back. Until the store answers, the
// table makes no move, settles no deadline, takes no request that writes
// and stores nothing else, trying again every retryAfter; it shows the game
// as it was before the write, which both outcomes continue. A store that
// holds something this table did not write there, or that doesn't answer
// within settleWithin, stops the table as broken, its log untouched.

// settleWithin bounds how long a table waits for the store to settle a
// write whose outcome is unknown: long enough for a database to restart or
// fail over, short enough that its players soon learn the game stopped.
const settleWithin = 5 * time.Minute

// unknownWrite is a write of the table whose outcome is unknown.
type unknownWrite struct {
	what  string
	since time.Time // when its answer was lost, by the table's clock
	// settle asks the store: adopted when the write committed (and the
	// table then holds it), an error when the store still doesn't answer.
	// It halts the table when the write can't be settled.
	settle func(ctx context.Context) (adopted bool, err error)
}

// halt stops the table from inside its goroutine: guard turns it back into
// err, and the table stops as on any fault.
type halt struct{ err error }

func (t *table) halt(err error) { panic(halt{err}) }

// lost notes a write whose answer was lost and tries at once to settle it.
// adopted reports that the write committed and the table now holds it.
func (t *table) lost(what string, settle func(ctx context.Context) (bool, error)) (adopted bool) {
	t.unknown = &unknownWrite{what: what, since: t.m.clock.Now(), settle: settle}
	return t.settleUnknown()
}

// settleUnknown asks the store again about the write whose outcome is
// unknown, and halts the table once it has waited settleWithin.
func (t *table) settleUnknown() (adopted bool) {
	u := t.unknown
	ctx, cancel := t.m.writeContext()
	defer cancel()
	adopted, err := u.settle(ctx)
	if err == nil {
		t.unknown = nil
		return adopted
	}
	t.failed(err)
	now := t.m.clock.Now()
	if waited := now.Sub(u.since); waited >= settleWithin {
		t.halt(fmt.Errorf("the store did not answer for %v, so whether %s was stored is unknown: %w", waited, u.what, err))
	}
	t.retryAt = now.Add(retryAfter)
	return false
}

// settleAction settles the append of rec (see store.Settle). The table's
// state is the one before rec.
func (t *table) settleAction(ctx context.Context, rec store.Action) (bool, error) {
	outcome, stored, err := t.m.st.Settle(ctx, rec)
	switch {
	case err != nil:
		return false, err
	case outcome == store.NotStored:
		return false, nil
	case outcome == store.Taken:
		t.halt(fmt.Errorf("action %d of the stored log is %+v at %v, not the %+v at %v this table wrote",
			rec.Seq, stored.Action, stored.At, rec.Action, rec.At))
	}
	if err := t.state.Apply(stored.Action, stored.At); err != nil {
		t.halt(fmt.Errorf("action %d, stored, is refused by the state it was made in: %w", rec.Seq, err))
	}
	t.wrote()
	t.m.stats.stored()
	t.accepted(stored)
	return true, nil
}

// settleGame settles a write of the game's row (a start, an end) by reading
// the row back: outcome says what the row shows of the write, and adopt
// makes the table hold it.
func (t *table) settleGame(what string, outcome func(g *store.Game) store.Outcome, adopt func()) func(ctx context.Context) (bool, error) {
	return func(ctx context.Context) (bool, error) {
		g, _, err := t.m.st.Game(ctx, t.id)
		if err != nil {
			return false, err
		}
		switch outcome(g) {
		case store.NotStored:
			return false, nil
		case store.Taken:
			t.halt(fmt.Errorf("%s: the game is stored %s (started %v, ended %v), which this table did not write",
				what, g.Status, g.StartedAt, g.EndedAt))
		}
		t.wrote()
		adopt()
		return true, nil
	}
}

// accepted makes a stored action the table's: kept, and the state moved on
// at its time; a resume also moves the seats' clocks on by the time the
// server was down.
func (t *table) accepted(a store.Action) {
	t.actions.add(a.Action, a.At)
	t.at = a.At
	t.moved(a.At)
	if a.Action.Kind == engine.ActResume {
		t.shiftClocks(a.At.Sub(a.Action.Since))
	}
}

// writable refuses a write while the table has one to settle, or seats to
// store again whose write failed: those go first.
func (t *table) writable() error {
	if t.unknown != nil || !t.saveSeatsAgain() {
		return errUnsaved
	}
	return nil
}

// trouble is a run of failed store calls, logged as it begins (with the
// error) and as it ends (with how many failed and for how long), rather
// than once a retry.
type trouble struct {
	since  time.Time
	failed int
}

func (tr *trouble) fail(log *slog.Logger, now time.Time, msg string, err error, attrs ...any) {
	if tr.failed == 0 {
		tr.since = now
		log.Error(msg, append(attrs, slog.Any("err", err))...)
	}
	tr.failed++
}

func (tr *trouble) over(log *slog.Logger, now time.Time, msg string, attrs ...any) {
	if tr.failed == 0 {
		return
	}
	log.Warn(msg, append(attrs, slog.Int("failed", tr.failed), slog.Duration("lasted", now.Sub(tr.since)))...)
	*tr = trouble{}
}

// failed counts a store call of the table that failed.
func (t *table) failed(err error) {
	t.trouble.fail(t.m.log, t.m.clock.Now(), "a table's store calls are failing; it tries again by itself", err, slog.String("game", t.id))
}

// wrote notes a write of the table that is stored: any trouble is over.
func (t *table) wrote() {
	t.trouble.over(t.m.log, t.m.clock.Now(), "a table's store calls work again", slog.String("game", t.id))
}
