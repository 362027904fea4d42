package live

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"
	"time"

	"bullshit/engine"
	"bullshit/engine/bot"
	"bullshit/engine/drive"
	"bullshit/game"
	"bullshit/internal/clocks"
	"bullshit/lease"
	"bullshit/store"
)

// A table is one game run by one goroutine, which this file reads top to
// bottom: run and play wait for a request or the table's next event; serve
// runs a request and catchUp what fell due, each at its own time; a move is
// applied to the engine, stored (apply, through the Manager's group commit)
// and accepted, which notes each seat's new decision (moved); and settle
// publishes the frames of what changed (publish) and sets the timer. The
// bots' moves are in bots.go, the store's trouble in writes.go, the
// rebuild after a restart in recover.go.

// retryAfter is how long a table waits after a store failure before it
// calls the store again on its own (a bot's move, an away seat, the finish,
// settling a write whose outcome is unknown).
const retryAfter = time.Second

type request struct {
	// at is when the request arrived: a move is made at that time, so time
	// spent queued behind a slow write doesn't make a call too late.
	at    time.Time
	fn    func(t *table) error
	reply chan error
	// taken is set once, by the table as it begins fn or by the caller as
	// it gives up waiting: a request given up before it began never runs
	// (a move its caller was told failed is not made after). Nil for a
	// request nobody gives up on.
	taken *atomic.Bool
	// then, if set, runs after fn once the table has settled.
	then func(t *table)
	// mayBeStored: a write fn made for the request is stored, or may be,
	// so a table that stops after it must not answer that nothing was
	// (see handOver).
	mayBeStored bool
}

// pending is what the table notes of a seat's decision beside the driver's
// clock (table.clock), which has what it is and since when: that sets when
// a bot playing it moves and when a person is marked away.
type pending struct {
	// taken is when a bot took the decision over from a person (away, or
	// handed over): the bot moves no earlier.
	taken time.Time
	// stuck: a bot's move and the fallback were both refused; the clock
	// settles it instead. It never happens with a correct engine and bot.
	stuck bool
}

type eventKind int8

const (
	evNone eventKind = iota
	evDeadline
	evBot
	evAway
	evFinish
	evExpire
	evSettle
	evSeats
)

// event is the next thing a table must do by itself, and when.
type event struct {
	kind eventKind
	seat int
	at   time.Time
}

// table is one game. Its fields below the line are owned by its goroutine.
type table struct {
	m     *Manager
	id    string
	inbox chan request
	done  chan struct{}
	snap  atomic.Pointer[snapshot]
	out   *outbox
	// addr is the key of the address that opened the table (ratelimit.AddressKey),
	// and countedOpen says it is counted among the open tables.
	addr        string
	countedOpen atomic.Bool

	game    store.Game
	seats   []store.Seat
	state   *engine.State
	actions kept
	// at is the latest time the state has been brought to: moves are never
	// applied earlier.
	at time.Time
	// clock is each seat's decision and since when, by the driver's rule;
	// pending the rest of what the table notes of it.
	clock   drive.Clock
	pending []pending
	bots    []*bot.Bot
	results []engine.Place
	// ratings are the accounts' rows as the finish stored them, for the
	// result sheet.
	ratings []game.RatingChange
	timer   clocks.Timer
	// retryAt holds back the table's own writes after a store failure.
	retryAt time.Time
	// unknown is a write whose outcome the table has yet to settle; trouble
	// the store calls failing since the last that worked.
	unknown   *unknownWrite
	trouble   trouble
	finishing bool // over in the engine, not yet stored as finished
	over      bool // stored as over: the goroutine stops
	// now is the arrival time of the request being served.
	now time.Time
	// changed: the state moved on since the views were last published, at
	// changedAt (by the clock); reseat: the seats or status changed.
	changed   bool
	changedAt time.Time
	reseat    bool
	// sentFinal: the final frames are out; nothing is published after them.
	sentFinal bool
	// revision counts the frames published (see Frame.Revision).
	revision int
	// unsavedSeats are seats whose last change the store refused.
	unsavedSeats map[int]bool
	// downSince is when a rebuilt game was last known running; the table
	// resumes it from then as it starts.
	downSince time.Time
	// openSince is when an open table began waiting for its next player.
	openSince time.Time
	// here is when this node began running the table: what fell due
	// before, while it ran nowhere or on another node, is caught up late
	// through no fault of this node's load (see capacity).
	here time.Time
	// serving is the request being served, answered if the table breaks;
	// asked is the same while its fn runs, so the writes fn makes are the
	// request's (askedMayBeStored) and those of catching up are not.
	serving *request
	asked   *request
	// fault is what stopped the table; it is broken from then on.
	fault error
	// gone is set, and moving closed, when the table is taken away from
	// this node of a cluster (see claims.go).
	gone   atomic.Pointer[handedOver]
	moving chan struct{}
	// hold is the session of the node's lease the table runs under, in a
	// cluster: once it lapses the table acknowledges nothing (checkHeld).
	hold *lease.Session
}

func (m *Manager) newTable(g store.Game, seats []store.Seat) *table {
	// A new game's seats are built before its id is drawn, and each seat
	// the table writes must carry it.
	for i := range seats {
		seats[i].GameID = g.ID
	}
	t := &table{
		m: m, id: g.ID, inbox: make(chan request), done: make(chan struct{}), moving: make(chan struct{}),
		game: g, seats: seats, openSince: g.CreatedAt, here: m.clock.Now(),
	}
	if m.cl != nil {
		t.hold = m.cl.held()
	}
	if m.hooks.Publisher != nil {
		t.out = newOutbox(m.hooks.Publisher, g.ID, m.clock, &m.stats.publish, &m.tables)
	}
	// The first settle publishes the table as it is: the waiting room, or
	// the game rebuilt after a restart.
	t.reseat = true
	t.refresh()
	return t
}

// run is the table's goroutine: it plays, and once a fault stops the table
// (a panic here, in a bot or in the table's Publisher), it answers as a
// broken table until the server stops, so every other table plays on. A
// table that left this node of a cluster just ends (handOver).
func (t *table) run(ctx context.Context) {
	defer func() {
		t.m.remove(t)
		close(t.done)
	}()
	if t.fault == nil {
		err := guard(func() error { return t.play(ctx) })
		if h, ok := errors.AsType[*handedOver](err); ok {
			t.handOver(h)
			return
		}
		if err != nil {
			t.stop(err)
		}
	}
	if t.fault != nil {
		t.broken(ctx)
	}
}

// play serves requests and wakes at the table's next event, one timer for
// all of them, until the game is over. An error is a fault that stops the
// table.
func (t *table) play(ctx context.Context) error {
	t.timer = t.m.clock.NewTimer(time.Hour)
	defer t.timer.Stop()
	t.resumeAfterDown()
	for !t.over {
		if h := t.gone.Load(); h != nil {
			// Taken away: nothing more is done here.
			return h
		}
		// A request waiting goes first: it is served at the time it
		// arrived, before the events that fell due while it waited.
		select {
		case r := <-t.inbox:
			t.serve(r)
		default:
		}
		t.catchUp(t.m.clock.Now())
		t.settle()
		if t.over {
			return nil
		}
		select {
		case <-ctx.Done():
			t.publish(true)
			return nil
		case r := <-t.inbox:
			t.serve(r)
		case <-t.timer.C():
		case <-t.out.failed():
			return t.out.fault
		case <-t.moving:
			return t.gone.Load()
		}
	}
	return nil
}

// serve runs a request at the time it arrived.
func (t *table) serve(r request) {
	// Not restored by a defer: a panic must find it set (see stop).
	outer := t.serving
	t.serving = &r
	t.catchUp(r.at)
	if t.over && t.state == nil {
		// An open table that closed as the request waited.
		t.settle()
		r.reply <- errOverGame
		t.serving = outer
		return
	}
	if r.taken != nil && !r.taken.CompareAndSwap(false, true) {
		// Its caller has gone.
		t.settle()
		r.reply <- context.Canceled
		t.serving = outer
		return
	}
	t.now = later(r.at, t.at)
	t.asked = t.serving
	err := r.fn(t)
	t.asked = nil
	// Caught up (a move that ended the game finishes it) and settled
	// before the reply, so the caller reads its own change.
	t.catchUp(t.now)
	t.settle()
	if r.then != nil {
		r.then(t)
	}
	r.reply <- err
	t.serving = outer
}

// catchUp does everything due by now, in the order it fell due, each at its
// own time, so the game does not depend on how late the table woke.
func (t *table) catchUp(now time.Time) {
	if t.over {
		return
	}
	for !t.over {
		ev := t.next()
		if ev.kind == evNone || ev.at.After(now) {
			return
		}
		woke := t.m.clock.Now()
		late := woke.Sub(ev.at)
		if ev.at.After(t.here) && (ev.kind == evDeadline || ev.kind == evBot || ev.kind == evAway) {
			t.m.capacity.record(woke, late)
		}
		switch ev.kind {
		case evDeadline:
			t.m.stats.deadlines.record(late)
			t.tick(ev.at)
		case evBot:
			t.m.stats.bots.record(late)
			t.botMove(ev.seat, ev.at)
		case evAway:
			t.m.stats.bots.record(late)
			t.markAway(ev.seat, ev.at)
		case evFinish:
			t.finish()
		case evExpire:
			t.expire(ev.at)
		case evSettle:
			t.settleUnknown()
		case evSeats:
			t.saveSeatsAgain()
		}
	}
}

// next is the earliest thing the table must do by itself. A bot moves by
// the driver's rule, as the simulator's do: its think runs from the moment
// its decision became its own (drive.Clock); a deadline goes before a move
// due at the same moment, as the engine settles it first (drive.First); of
// bots due together, the lower seat moves first.
func (t *table) next() event {
	var best event
	consider := func(e event) {
		if best.kind == evNone || e.at.Before(best.at) {
			best = e
		}
	}
	if t.over {
		return best
	}
	if t.unknown != nil {
		consider(event{kind: evSettle, at: t.retryAt})
		return best
	}
	if len(t.unsavedSeats) > 0 {
		consider(event{kind: evSeats, at: t.retryAt})
	}
	if t.state == nil {
		consider(event{kind: evExpire, at: later(t.openSince.Add(ExpireOpenAfter), t.retryAt)})
		return best
	}
	if t.finishing {
		consider(event{kind: evFinish, at: later(t.at, t.retryAt)})
		return best
	}
	if d := t.state.Deadline(); !d.IsZero() {
		consider(event{kind: evDeadline, at: d})
	}
	pace := t.game.Options.Pace
	for seat, p := range t.pending {
		key, since, ok := t.clock.Deciding(seat)
		if !ok || p.stuck {
			continue
		}
		switch {
		case t.botPlays(seat):
			due, _ := t.clock.Due(seat, engine.ThinkTime(key.Think, pace))
			consider(event{kind: evBot, seat: seat, at: later(later(due, p.taken), t.retryAt)})
		case key.Think == engine.ThinkTurn || key.Think == engine.ThinkGive:
			consider(event{kind: evAway, seat: seat, at: later(since.Add(t.game.AwayAfter), t.retryAt)})
		}
	}
	return best
}

func later(a, b time.Time) time.Time {
	if b.After(a) {
		return b
	}
	return a
}

// settle publishes what changed and sets the timer for the next event.
func (t *table) settle() {
	if t.sentFinal {
		return
	}
	if t.changed || t.reseat || t.over {
		t.refresh()
		t.publish(t.over)
		t.changed = false
	}
	t.reseat = false
	if t.over {
		return
	}
	ev := t.next()
	if ev.kind == evNone {
		t.timer.Stop()
		return
	}
	t.timer.Reset(ev.at.Sub(t.m.clock.Now()))
}

// apply makes a move at time at and stores it before anything else sees it.
// A refused move is an *engine.Error. A write that failed may have
// committed all the same: the table settles it (see unknownWrite), the
// move standing only if it was stored.
func (t *table) apply(a engine.Action, at time.Time) error {
	if err := t.writable(); err != nil {
		return err
	}
	if err := t.state.Apply(a, at); err != nil {
		return err
	}
	rec := store.Action{GameID: t.id, Seq: t.actions.len() + 1, At: at, Action: a, Fence: t.fence()}
	if err := t.m.appendAction(rec); err != nil {
		t.failed(err)
		t.rollback()
		t.askedMayBeStored(true)
		if t.lost(fmt.Sprintf("action %d", rec.Seq), func(ctx context.Context) (bool, error) { return t.settleAction(ctx, rec) }) {
			return nil
		}
		return t.unsettled()
	}
	t.askedMayBeStored(true)
	t.wrote()
	t.m.stats.stored()
	t.accepted(rec.Timed())
	return nil
}

// accepted makes a stored action the table's: kept, and the state moved on
// at its time; a resume also moves the seats' clocks on by the time the
// server was down.
func (t *table) accepted(a engine.Timed) {
	t.actions.add(a)
	t.at = a.At
	t.moved(a.At)
	if a.Kind == engine.ActResume {
		t.shiftClocks(a.At.Sub(a.Since))
	}
}

// tick settles the deadline due at d.
func (t *table) tick(d time.Time) {
	t.state.Tick(d)
	t.ticked(d)
}

// ticked notes the deadline due at d, settled.
func (t *table) ticked(d time.Time) {
	t.at = later(t.at, d)
	t.moved(d)
}

// moved notes a change of the state made at time at: each seat's decision,
// and whether the game is over.
func (t *table) moved(at time.Time) {
	// A decision begun or ended here starts with nothing taken or stuck.
	renewed := t.clock.Changed(t.state, at)
	for seat := range t.pending {
		if renewed[seat] {
			t.pending[seat] = pending{}
		}
	}
	if !t.changed {
		t.changed, t.changedAt = true, t.m.clock.Now()
	}
	if t.state.Over() {
		t.finishing = true
	}
}

// publish hands every seat's frame and the spectator's to the Publisher;
// final closes the game's streams after them.
func (t *table) publish(final bool) {
	t.sentFinal = final
	t.revision++
	if t.out == nil {
		return
	}
	b := &batch{at: t.changedAt, final: final}
	if !t.changed || b.at.IsZero() {
		b.at = t.m.clock.Now()
	}
	sum := t.snap.Load().summary
	b.frames = make([]game.Frame, 0, len(sum.Seats)+1)
	for seat := range sum.Seats {
		b.frames = append(b.frames, t.frame(sum, seat))
	}
	b.frames = append(b.frames, t.frame(sum, engine.Spectator))
	t.out.put(b)
}

// frame is seat's frame now, with sum the table's current summary.
func (t *table) frame(sum game.Summary, seat int) game.Frame {
	f := game.Frame{Revision: t.revision, Epoch: t.game.Epoch, Game: sum, Seat: seat, Final: t.sentFinal}
	if t.over {
		f.Ratings = t.ratings
	}
	if t.state != nil {
		v := t.state.View(seat)
		f.View = &v
	}
	return f
}
