package live

import "bullshit/game"

// snapshot is what readers off the table's goroutine may see.
type snapshot struct {
	summary game.Summary
	tokens  [][]byte
}

// refresh updates what readers off the goroutine see.
func (t *table) refresh() {
	t.snap.Store(&snapshot{summary: t.summary(), tokens: t.tokenHashes()})
	if t.game.Status != game.StatusOpen {
		t.m.leftOpen(t)
	}
}

// tokenHashes are the seats' token hashes, by seat number.
func (t *table) tokenHashes() [][]byte {
	tokens := make([][]byte, len(t.seats))
	for i, s := range t.seats {
		tokens[i] = s.TokenHash
	}
	return tokens
}

// summary is the game as the lobby lists it.
func (t *table) summary() game.Summary {
	s := game.Summary{
		ID: t.id, Status: t.game.Status, Options: t.game.Options, AwayAfter: t.game.AwayAfter,
		Host: t.game.Host, Plays: t.game.Plays, CreatedAt: t.game.CreatedAt, StartedAt: t.game.StartedAt,
		EndedAt: t.game.EndedAt, Result: t.results,
	}
	seats := t.seats
	if t.state != nil {
		s.Options.Seats = t.state.Seats()
		s.Plays = t.state.Plays()
		seats = seats[:t.state.Seats()]
	}
	s.Seats = make([]game.SeatInfo, len(seats))
	for i, seat := range seats {
		s.Seats[i] = seatInfo(seat)
	}
	return s
}
