package live

import (
	"context"
	"strconv"

	"bullshit/engine"
	"bullshit/engine/review"
)

// RecordVersion is the version of the record's format: a reader checks it
// before anything else.
const RecordVersion = 1

// Record is a finished game's complete record: its settings, seats and
// seed, every hand as dealt, every accepted action with its time, and the
// results. Replaying the actions at their times through the engine gives
// the game again, exactly.
type Record struct {
	Version int     `json:"version"`
	Game    Summary `json:"game"`
	// Seed is the deal's seed in decimal: a JSON number loses precision
	// past 2^53.
	Seed    string           `json:"seed"`
	Dealt   [][]engine.Card  `json:"dealt"`
	Actions []RecordedAction `json:"actions"`
	// Ratings are the rating changes of the seats that belong to accounts.
	Ratings []RatingChange `json:"ratings"`
}

// RatingChange is an account's seat's rating before and after a game; the
// two are equal when the seat was not rated.
type RatingChange struct {
	Seat            int     `json:"seat"`
	Rated           bool    `json:"rated"`
	Before          float64 `json:"before"`
	BeforeDeviation float64 `json:"before_deviation"`
	After           float64 `json:"after"`
	AfterDeviation  float64 `json:"after_deviation"`
}

// RecordedAction is one accepted action with its time, to the nanosecond,
// and its number in the game, which the record's readers are given.
type RecordedAction struct {
	Seq int `json:"seq"`
	engine.Timed
}

var errSecretUntilOver = refuse(CodeConflict, "A game's record is kept until it is over: nothing hidden is shown while it is played.")

// Record is a game's complete record, once it is over.
func (m *Manager) Record(ctx context.Context, id string) (Record, error) {
	if err := m.ensureOpen(); err != nil {
		return Record{}, err
	}
	g, seats, err := m.st.Game(ctx, id)
	if err != nil {
		return Record{}, m.fromStore(id, err)
	}
	if g.Status != string(StatusFinished) && g.Status != string(StatusEnded) {
		return Record{}, errSecretUntilOver
	}
	if g.StartedAt.IsZero() {
		return Record{}, refuse(CodeConflict, "The game ended before it started: it has no record.")
	}
	actions, err := m.st.Actions(ctx, id)
	if err != nil {
		return Record{}, m.unsaved(id, err)
	}
	results, err := m.st.Results(ctx, id)
	if err != nil {
		return Record{}, m.unsaved(id, err)
	}
	players, err := m.st.GamePlayers(ctx, id)
	if err != nil {
		return Record{}, m.unsaved(id, err)
	}
	rec := Record{Version: RecordVersion, Game: storedSummary(g, seats, results), Seed: strconv.FormatUint(g.Seed, 10),
		Ratings: []RatingChange{}}
	rec.Ratings = append(rec.Ratings, ratingChanges(players)...)
	deal := replayOf(g, seats, nil)
	s, err := deal.State()
	if err != nil {
		return Record{}, m.unsaved(id, err)
	}
	for seat := range s.Seats() {
		rec.Dealt = append(rec.Dealt, s.View(seat).Hand)
	}
	rec.Actions = make([]RecordedAction, len(actions))
	for i, a := range actions {
		rec.Actions[i] = RecordedAction{Seq: a.Seq, Timed: a.Timed()}
	}
	return rec, nil
}

// ReviewGame is the record as the review reads it.
func (r Record) ReviewGame() (review.Game, error) {
	seed, err := strconv.ParseUint(r.Seed, 10, 64)
	if err != nil {
		return review.Game{}, err
	}
	g := review.Game{Options: r.Game.Options, Seed: seed, Start: r.Game.StartedAt, Over: r.Game.EndedAt,
		HostEnded: r.Game.Status == StatusEnded}
	for _, a := range r.Actions {
		g.Actions = append(g.Actions, a.Timed)
	}
	return g, nil
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
