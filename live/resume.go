package live

import (
	"log/slog"
	"time"

	"bullshit/engine"
)

// The time the server is down counts against nobody: a live game rebuilt
// after a restart resumes with every clock (call window, reveal, hand-over,
// a person's away time, a bot's moment to think) holding the time it had
// left when the server stopped. The resume is an action in the game's log,
// so a replay makes the same shift.

// aliveEvery is how often the server marks itself alive in the store. The
// mark is one row for the whole server, so it costs one small write a
// second however many tables run. A crash can give the players up to this
// much more than the time they had left; a clean stop marks the moment it
// stops, so a deploy gives them exactly that.
const aliveEvery = time.Second

// keepAlive marks the server alive every aliveEvery until the tables stop,
// and once more when they have stopped.
func (m *Manager) keepAlive() {
	timer := m.clock.NewTimer(aliveEvery)
	defer timer.Stop()
	for {
		select {
		case <-m.ctx.Done():
			<-m.tablesDone
			m.markAlive()
			return
		case <-timer.C():
			m.markAlive()
			timer.Reset(aliveEvery)
		}
	}
}

// markAlive writes the alive mark; a run of failures is logged as it
// begins and as it ends (trouble), the only caller being keepAlive.
func (m *Manager) markAlive() {
	ctx, cancel := m.writeContext()
	defer cancel()
	now := m.clock.Now()
	if err := m.st.MarkAlive(ctx, now); err != nil {
		m.aliveTrouble.fail(m.log, now, "marking the server alive is failing; it tries again every second", err)
		return
	}
	m.aliveTrouble.over(m.log, now, "marking the server alive works again")
}

// resumeAfterDown resumes a rebuilt game as the table starts, before it
// serves anything: the time since the game was last known running
// (downSince) is stored as a resume and shifts every clock (accepted). If
// the resume isn't stored the shift is not made either (the log must
// replay to the same game), and the table plays on as if the server had
// been up.
func (t *table) resumeAfterDown() {
	since := t.downSince
	t.downSince = time.Time{}
	if since.IsZero() || t.state == nil || t.finishing || t.over {
		return
	}
	now := t.m.clock.Now()
	if !now.After(since) {
		return
	}
	if err := t.apply(engine.Action{Kind: engine.ActResume, Seat: -1, Since: since}, now); err == nil {
		t.m.log.Info("game resumed", slog.String("game", t.id), slog.Duration("down", now.Sub(since)))
	}
}

// shiftClocks moves the seats' decision clocks on by the time the server
// was down, as the engine moves its deadlines.
func (t *table) shiftClocks(down time.Duration) {
	t.clock.Shift(down)
	for i := range t.pending {
		// Zero unless the seat is deciding (moved).
		if p := &t.pending[i]; !p.taken.IsZero() {
			p.taken = p.taken.Add(down)
		}
	}
}
