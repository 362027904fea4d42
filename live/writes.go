package live

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"bullshit/engine"
	"bullshit/game"
	"bullshit/store"
)

// The table's writes. Each is made before anyone sees its change, and one
// that fails may have committed all the same (its answer lost with the
// connection, or timed out), so the table settles it against the store
// before it changes anything else:
//   - an action, by reading its sequence number back (store.Settle): this
//     action there means it committed, and the table adopts what is stored;
//     nothing there, that it did not, and the table goes on from before it;
//   - a start or an end, by reading the game's row back;
//   - the finish and an open table's close, which are conditional on the
//     game's status, by making them again: refused as over, they committed;
//   - a seat, whose write is the whole row, by writing it again as the table
//     shows it, before anything else is stored.
// Until an action, a start, an end or a close is settled the table makes no
// move, settles no deadline and takes no request that writes, asking again
// every retryAfter; it shows the game as it was before the write, which
// either outcome continues. A store that holds what this table did not
// write, or that doesn't answer within settleWithin, stops the table as
// broken (see guard.go), its log untouched.

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

// rollback rebuilds the state from the stored actions, as it was before a
// move whose write failed. The engine is deterministic and its version
// counts the same however ticks were spread, so the rebuilt state equals the
// old one.
func (t *table) rollback() {
	s, err := t.replayKept()
	if err != nil {
		// The same actions were accepted before, so only a broken engine
		// gets here. The table stops as on any other fault rather than
		// play on from a state its store doesn't hold.
		panic(fmt.Sprintf("replaying the game's accepted actions failed: %v", err))
	}
	s.Tick(t.at)
	t.state = s
}

// replayKept is the game rebuilt from its deal and the actions it keeps.
func (t *table) replayKept() (*engine.State, error) {
	return replayOf(t.game, t.seats, t.actions.timed()).State()
}

// saveSeat stores a seat the table changed by itself. The table's memory
// is what it shows, and a seat's write is the whole row, so a write that
// failed (committed or not) is settled by writing the seat again until it
// is stored: before any later write of the table (writable), and on its
// own at retryAt. A seat a bot covered must not come back from a restart
// as one to rate.
func (t *table) saveSeat(seat int) {
	t.reseat = true
	ctx, cancel := t.writeContext()
	defer cancel()
	if err := t.m.st.SaveSeat(ctx, t.fence(), t.seats[seat]); err != nil {
		t.failed(err)
		t.seatUnsaved(seat)
		return
	}
	t.wrote()
	delete(t.unsavedSeats, seat)
}

// seatUnsaved marks seat to be stored again, as the table holds it.
func (t *table) seatUnsaved(seat int) {
	if t.unsavedSeats == nil {
		t.unsavedSeats = make(map[int]bool)
	}
	t.unsavedSeats[seat] = true
	t.retryAt = t.m.clock.Now().Add(retryAfter)
}

// saveSeatsAgain stores the seats whose write failed, and reports whether
// every seat is now stored.
func (t *table) saveSeatsAgain() bool {
	for seat := range t.unsavedSeats {
		t.saveSeat(seat)
		if t.unsavedSeats[seat] {
			return false
		}
	}
	return true
}

// finish stores the finished game with its results. A seat is rated if a
// person played it throughout, and never at a practice table. The finish is
// conditional on the game being live, so trying it again settles one whose
// answer was lost: refused as over, it had committed.
func (t *table) finish() {
	if !t.saveSeatsAgain() {
		return
	}
	places := t.state.Result()
	results := make([]store.Result, len(places))
	for i, p := range places {
		s := t.seats[p.Seat]
		results[i] = store.Result{Seat: p.Seat, Place: p.Place, Left: p.Left,
			Rated: s.Kind == game.SeatPerson && !s.Covered && !t.game.Options.Practice}
	}
	ctx, cancel := t.writeContext()
	defer cancel()
	rater, rated := t.keepRatings(t.rater(t.state, t.at, true))
	err := t.m.st.FinishGame(ctx, t.fence(), t.id, game.StatusFinished, t.at, t.state.Plays(), t.state.Capped(), results, rater)
	if errors.Is(err, store.ErrOver) && rater != nil {
		// The accounts' rows the earlier try wrote are the ones to show.
		var rows []store.PlayerGame
		if rows, err = t.m.st.GamePlayers(ctx, t.id); err == nil {
			*rated = ratingChanges(rows)
		}
	}
	if err != nil && !errors.Is(err, store.ErrOver) {
		t.failed(err)
		t.retryAt = t.m.clock.Now().Add(retryAfter)
		return
	}
	t.wrote()
	t.finishing, t.over = false, true
	t.game.Status, t.game.EndedAt, t.game.Plays = game.StatusFinished, t.at, t.state.Plays()
	t.results = places
	t.ratings = *rated
}

// holdFor bounds how long a person's request waits, by the wall clock, for
// the store to settle its write whose answer was lost before it is answered
// as unknown. A connection reset is usually over at once, the pool's next
// connection answering, so a short wait turns most unknowns into a stored
// or a not-stored answer; the table serves nothing else meanwhile, so it is
// short.
const holdFor = time.Second

// lost notes a write whose answer was lost and tries at once to settle it,
// and for a person's request again for up to holdFor. adopted reports that
// the write committed and the table now holds it.
func (t *table) lost(what string, settle func(ctx context.Context) (bool, error)) (adopted bool) {
	t.unknown = &unknownWrite{what: what, since: t.m.clock.Now(), settle: settle}
	adopted = t.settleUnknown()
	until := time.Now().Add(holdFor)
	for wait := 10 * time.Millisecond; t.unknown != nil && t.asked != nil && time.Now().Add(wait).Before(until); wait = min(2*wait, 200*time.Millisecond) {
		time.Sleep(wait)
		adopted = t.settleUnknown()
	}
	return adopted
}

// unsettled answers a request whose write failed and which lost just
// tried to settle: not stored, or, while the store can't say, unknown.
func (t *table) unsettled() error {
	if t.unknown != nil {
		return errUnknown
	}
	t.askedMayBeStored(false)
	return errUnsaved
}

// askedMayBeStored notes, of the request whose fn is running, whether a
// write it made is stored or may be (see request.mayBeStored).
func (t *table) askedMayBeStored(v bool) {
	if t.asked != nil {
		t.asked.mayBeStored = v
	}
}

// settleUnknown asks the store again about the write whose outcome is
// unknown, and halts the table once it has waited settleWithin.
func (t *table) settleUnknown() (adopted bool) {
	u := t.unknown
	ctx, cancel := t.writeContext()
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
	t.accepted(stored.Timed())
	return true, nil
}

// settleGame settles a write of the game's row (a start, an end) by reading
// the row back: outcome says what the row shows of the write, and adopt
// makes the table hold it.
func (t *table) settleGame(what string, outcome func(g store.Game) store.Outcome, adopt func()) func(ctx context.Context) (bool, error) {
	return func(ctx context.Context) (bool, error) {
		row, _, err := t.m.st.Game(ctx, t.id)
		if err != nil {
			return false, err
		}
		g := *row
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

// failed counts a store call of the table that failed. A write refused by
// the fence stops the table (checkHeld).
func (t *table) failed(err error) {
	t.checkHeld(err)
	t.trouble.fail(t.m.log, t.m.clock.Now(), "a table's store calls are failing; it tries again by itself", err, slog.String("game", t.id))
}

// wrote notes a write of the table that is stored: any trouble is over.
// In a cluster whose lease lapsed meanwhile the table stops instead, the
// write unacknowledged (checkHeld).
func (t *table) wrote() {
	t.checkHeld(nil)
	t.trouble.over(t.m.log, t.m.clock.Now(), "a table's store calls work again", slog.String("game", t.id))
}
