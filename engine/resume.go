package engine

import "time"

// resume is the server coming back at now after being down: since is the
// moment the game was last known to be running. What fell due by since is
// settled, at its own time, as the running server would have; then every
// clock still running (the call window, the reveal's beats, the hand-over)
// moves on by the time the server was down, so it runs on from now with
// exactly the time it had left. Nobody loses a shout, a beat or a hand-over
// to an outage, and a replay of the log makes the same shift.
//
// since may not lie before the game's last change (the server was running
// then) and now must be after it: a resume with no time down is not one.
func (s *State) resume(since, now time.Time) error {
	if since.Before(s.log[len(s.log)-1].At) {
		return illegal("A game can't resume from before its last change.")
	}
	if !now.After(since) {
		return illegal("A game resumes after the time it was down from.")
	}
	s.Tick(since)
	if s.phase == PhaseOver {
		return errOver
	}
	gap := now.Sub(since)
	switch s.phase {
	case PhaseCall:
		s.win.closes = s.win.closes.Add(gap)
	case PhaseShout:
		s.shout.first, s.shout.closes = s.shout.first.Add(gap), s.shout.closes.Add(gap)
	case PhaseReveal, PhaseGive:
		s.until = s.until.Add(gap)
		for i := range s.beats {
			s.beats[i].At = s.beats[i].At.Add(gap)
		}
	}
	s.emit(&Event{At: now, Kind: EventResumed, Seat: -1, Since: since})
	s.version++
	return nil
}
