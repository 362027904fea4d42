package live

import (
	"context"
	"strconv"

	"bullshit/engine/review"
	"bullshit/errcode"
	"bullshit/game"
)

var errSecretUntilOver = refuse(errcode.Conflict, "A game's record is kept until it is over: nothing hidden is shown while it is played.")

// Record is a game's complete record, once it is over.
func (m *Manager) Record(ctx context.Context, id string) (game.Record, error) {
	if err := m.ensureOpen(); err != nil {
		return game.Record{}, err
	}
	g, seats, err := m.stored(ctx, id)
	if err != nil {
		return game.Record{}, m.fromStore(id, err)
	}
	if g.Status != game.StatusFinished && g.Status != game.StatusEnded {
		return game.Record{}, errSecretUntilOver
	}
	if g.StartedAt.IsZero() {
		return game.Record{}, refuse(errcode.Conflict, "The game ended before it started: it has no record.")
	}
	actions, err := m.st.Actions(ctx, id)
	if err != nil {
		return game.Record{}, m.unsaved(id, err)
	}
	results, err := m.st.Results(ctx, id)
	if err != nil {
		return game.Record{}, m.unsaved(id, err)
	}
	players, err := m.st.GamePlayers(ctx, id)
	if err != nil {
		return game.Record{}, m.unsaved(id, err)
	}
	rec := game.Record{Version: game.RecordVersion, Game: storedSummary(g, seats, results), Seed: strconv.FormatUint(g.Seed, 10),
		Ratings: []game.RatingChange{}}
	rec.Ratings = append(rec.Ratings, ratingChanges(players)...)
	deal := replayOf(g, seats, nil)
	s, err := deal.State()
	if err != nil {
		return game.Record{}, m.unsaved(id, err)
	}
	for seat := range s.Seats() {
		rec.Dealt = append(rec.Dealt, s.View(seat).Hand)
	}
	rec.Actions = make([]game.RecordedAction, len(actions))
	for i, a := range actions {
		rec.Actions[i] = game.RecordedAction{Seq: a.Seq, Timed: a.Timed()}
	}
	return rec, nil
}

// Review is a finished game read back play by play (see engine/review).
func (m *Manager) Review(ctx context.Context, id string) (*review.Review, error) {
	rec, err := m.Record(ctx, id)
	if err != nil {
		return nil, err
	}
	g, err := rec.ReviewGame()
	if err != nil {
		return nil, m.unsaved(id, err)
	}
	r, err := review.Of(g)
	if err != nil {
		return nil, m.unsaved(id, err)
	}
	return r, nil
}
