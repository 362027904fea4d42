package game

import (
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
