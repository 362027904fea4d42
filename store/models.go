package store

import (
	"fmt"
	"time"

	"github.com/uptrace/bun"

	"bullshit/engine"
	"bullshit/engine/bot"
	"bullshit/game"
)

// Game is a game's settings and where it is in its life.
type Game struct {
	bun.BaseModel `bun:"table:games"`
	// ID is the short random code chosen by the caller.
	ID string
	// Status is open, live, finished or ended; it is stored as its text.
	Status game.Status
	// Options are the game's settings. Options.Rules, the rules version the
	// game is played under, must be set: a game is always replayed with its
	// own version's rules.
	Options engine.Options
	Seed    uint64
	// Host is the host's seat.
	Host int
	// AwayAfter is kept to the millisecond.
	AwayAfter time.Duration
	Plays     int
	// Capped says the game was ended by the play cap.
	Capped bool
	// FillBots gives every seat still empty at the start a bot.
	FillBots  bool
	CreatedAt time.Time
	// StartedAt is zero until the game starts.
	StartedAt time.Time
	// EndedAt is zero until the game is over.
	EndedAt time.Time
	// Owner is the server running the game's table when several share the
	// database, and Epoch counts the times it changed hands (see nodes.go);
	// one server alone leaves them "" and 0.
	Owner string
	Epoch int64
}

// Seat is one seat of a game.
type Seat struct {
	bun.BaseModel `bun:"table:seats"`
	GameID        string `bun:"game_id,pk"`
	No            int    `bun:"seat,pk"`
	// Kind, BotLevel and BotStyle are stored as their text.
	Kind     game.SeatKind `bun:"kind"`
	Name     string        `bun:"name"`
	BotLevel bot.Level     `bun:"bot_level"`
	BotStyle bot.Style     `bun:"bot_style"`
	// TokenHash is the SHA-256 of the seat's token; nil for bots and empty
	// seats.
	TokenHash []byte `bun:"token_hash,nullzero"`
	Away      bool   `bun:"away"`
	// Covered says a bot played this seat at some point, so it is not rated.
	Covered bool `bun:"covered"`
	// PlayerID is the account the seat belongs to; 0 for a guest, a bot or
	// an empty seat.
	PlayerID int64 `bun:"player_id,nullzero"`
}

// Action is one action the engine accepted, with the time it was applied.
type Action struct {
	bun.BaseModel `bun:"table:actions"`
	GameID        string
	// Seq numbers a game's actions 1, 2, 3... in the order they were accepted.
	Seq int
	// At is kept to the nanosecond, so a replay sees the exact same times.
	At     time.Time
	Action engine.Action
	// Fence is who the writer believes holds the game: the append is
	// refused (ErrFenced) unless the game's owner and epoch still match.
	// It is not stored.
	Fence Fence `bun:"-"`
}

// Timed is the row as the engine replays it: the one place a stored action
// becomes an engine.Timed.
func (a Action) Timed() engine.Timed { return engine.Timed{Action: a.Action, At: a.At} }

// Result is one seat's place in a finished game.
type Result struct {
	bun.BaseModel `bun:"table:results"`
	GameID        string `bun:"game_id,pk"`
	Seat          int    `bun:"seat,pk"`
	Place         int    `bun:"place"`
	// Left is how many cards the seat held at the end.
	Left  int  `bun:"cards_left"`
	Rated bool `bun:"rated"`
}

// gameRow is a Game as stored: the options as JSON text (optionsRecord)
// with the rules version in a column of its own, the seed as the
// bits of a signed 64-bit integer (both dialects' widest integer), the away
// time in milliseconds, and the start and end as NULL until they happen.
type gameRow struct {
	bun.BaseModel `bun:"table:games,alias:g"`
	ID            string    `bun:"id,pk"`
	Status        string    `bun:"status"`
	Options       string    `bun:"options"`
	Rules         int       `bun:"rules"`
	Seed          int64     `bun:"seed"`
	Host          int       `bun:"host"`
	AwayAfterMS   int64     `bun:"away_after_ms"`
	Plays         int       `bun:"plays"`
	Capped        bool      `bun:"capped"`
	FillBots      bool      `bun:"fill_bots"`
	CreatedAt     time.Time `bun:"created_at"`
	StartedAt     time.Time `bun:"started_at,nullzero"`
	EndedAt       time.Time `bun:"ended_at,nullzero"`
	Owner         string    `bun:"owner"`
	Epoch         int64     `bun:"epoch"`
}

func toGameRow(g *Game) (gameRow, error) {
	if g.Options.Rules <= 0 {
		return gameRow{}, fmt.Errorf("game %s: no rules version", g.ID)
	}
	opts, err := encodeOptions(g.Options)
	if err != nil {
		return gameRow{}, fmt.Errorf("encode the options of game %s: %w", g.ID, err)
	}
	return gameRow{
		ID:          g.ID,
		Status:      string(g.Status),
		Options:     opts,
		Rules:       g.Options.Rules,
		Seed:        int64(g.Seed),
		Host:        g.Host,
		AwayAfterMS: g.AwayAfter.Milliseconds(),
		Plays:       g.Plays,
		Capped:      g.Capped,
		FillBots:    g.FillBots,
		CreatedAt:   g.CreatedAt,
		StartedAt:   g.StartedAt,
		EndedAt:     g.EndedAt,
		Owner:       g.Owner,
		Epoch:       g.Epoch,
	}, nil
}

func (r *gameRow) game() (Game, error) {
	g := Game{
		ID:        r.ID,
		Status:    game.Status(r.Status),
		Seed:      uint64(r.Seed),
		Host:      r.Host,
		AwayAfter: time.Duration(r.AwayAfterMS) * time.Millisecond,
		Plays:     r.Plays,
		Capped:    r.Capped,
		FillBots:  r.FillBots,
		CreatedAt: utc(r.CreatedAt),
		StartedAt: utc(r.StartedAt),
		EndedAt:   utc(r.EndedAt),
		Owner:     r.Owner,
		Epoch:     r.Epoch,
	}
	if r.Rules <= 0 {
		return Game{}, fmt.Errorf("game %s: rules version %d is not one", r.ID, r.Rules)
	}
	opts, err := decodeOptions(r.Options, r.Rules)
	if err != nil {
		return Game{}, fmt.Errorf("decode the options of game %s: %w", r.ID, err)
	}
	g.Options = opts
	return g, nil
}

// utc gives every time read back the same location whatever the driver
// returned, leaving the zero time zero.
func utc(t time.Time) time.Time {
	if t.IsZero() {
		return time.Time{}
	}
	return t.UTC()
}

// actionRow is an Action as stored: the time as Unix nanoseconds, because
// neither dialect's timestamp keeps nanoseconds, and the action as JSON text
// (actionRecord).
type actionRow struct {
	bun.BaseModel `bun:"table:actions,alias:a"`
	GameID        string `bun:"game_id,pk"`
	Seq           int    `bun:"seq,pk"`
	AtNS          int64  `bun:"at_ns"`
	Action        string `bun:"action"`
}

// The times an action may carry: those whose Unix nanoseconds fit in int64.
var (
	minActionTime = time.Unix(0, -1<<63)
	maxActionTime = time.Unix(0, 1<<63-1)
)

func toActionRow(a Action) (actionRow, error) {
	if a.At.Before(minActionTime) || a.At.After(maxActionTime) {
		return actionRow{}, fmt.Errorf("action %d of game %s: time %v out of range", a.Seq, a.GameID, a.At)
	}
	b, err := encodeAction(a.Action)
	if err != nil {
		return actionRow{}, fmt.Errorf("encode action %d of game %s: %w", a.Seq, a.GameID, err)
	}
	return actionRow{GameID: a.GameID, Seq: a.Seq, AtNS: a.At.UnixNano(), Action: b}, nil
}

func (r *actionRow) action() (Action, error) {
	act, err := decodeAction(r.Action)
	if err != nil {
		return Action{}, fmt.Errorf("decode action %d of game %s: %w", r.Seq, r.GameID, err)
	}
	return Action{GameID: r.GameID, Seq: r.Seq, At: time.Unix(0, r.AtNS).UTC(), Action: act}, nil
}
