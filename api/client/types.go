package client

import (
	"time"

	"bullshit/engine"
)

// The JSON the API speaks, as openapi.yaml describes it. The server has its
// own types for the same JSON; a test in package api keeps the two equal.

// Status is where a game is in its life.
type Status string

// The statuses of a game.
const (
	StatusOpen     Status = "open"     // waiting for players; the host starts it
	StatusLive     Status = "live"     // being played
	StatusFinished Status = "finished" // someone went out, or the play cap ended it
	StatusEnded    Status = "ended"    // the host ended it early; never rated
)

// SeatKind says who sits in a seat: "empty", "person" or "bot".
type SeatKind string

// The kinds of seat.
const (
	SeatEmpty  SeatKind = "empty"
	SeatPerson SeatKind = "person"
	SeatBot    SeatKind = "bot"
)

// Bot is a bot seat's level ("easy", "medium", "hard") and style
// ("cautious", "bold", "caller").
type Bot struct {
	Level string `json:"level"`
	Style string `json:"style"`
}

// Seat is one seat as anyone may see it.
type Seat struct {
	Seat int      `json:"seat"`
	Kind SeatKind `json:"kind"`
	Name string   `json:"name"`
	Bot  *Bot     `json:"bot,omitempty"`
	Away bool     `json:"away"`
	// Covered says a bot played the seat at some point, so it isn't rated.
	Covered bool `json:"covered"`
	// Player is the account the seat belongs to; 0 for a guest.
	Player int64 `json:"player_id,omitempty"`
}

// Game is a game as the lobby lists it.
type Game struct {
	ID               string         `json:"id"`
	Status           Status         `json:"status"`
	Options          engine.Options `json:"options"`
	AwayAfterSeconds float64        `json:"away_after_seconds"`
	Seats            []Seat         `json:"seats"`
	Host             int            `json:"host"`
	Plays            int            `json:"plays"`
	CreatedAt        time.Time      `json:"created_at"`
	StartedAt        time.Time      `json:"started_at,omitzero"`
	EndedAt          time.Time      `json:"ended_at,omitzero"`
	Result           []engine.Place `json:"result,omitempty"`
}

// Joined is the answer to creating or joining a table: the seat taken and
// the bearer token that acts for it, shown this once.
type Joined struct {
	Game  Game   `json:"game"`
	Seat  int    `json:"seat"`
	Token string `json:"token"`
}

// CreateBody is a new table's settings. Unset fields take the standard
// settings.
type CreateBody struct {
	Seats            int         `json:"seats"`
	Sneak            *int        `json:"sneak,omitempty"`
	WindowSeconds    int         `json:"window_seconds,omitempty"`
	Pace             engine.Pace `json:"pace,omitempty"`
	AwayAfterSeconds int         `json:"away_after_seconds,omitempty"`
	// GraceSeconds is the grace for calls made together: absent is the
	// standard, 0 first-come.
	GraceSeconds *float64 `json:"grace_seconds,omitempty"`
	// PlayOn plays on for second place, third and so on.
	PlayOn bool `json:"play_on,omitempty"`
	// Seed deals a practice table from a chosen seed, in decimal; it is
	// never rated.
	Seed string `json:"seed,omitempty"`
	// Name is the host's display name; with an account's token it may be
	// left out (the account's name is used).
	Name string `json:"name,omitempty"`
	// Bots fill seats from seat 1 upwards; with FillBots every seat
	// nobody has joined by the start is given a bot.
	Bots     []Bot `json:"bots,omitempty"`
	FillBots bool  `json:"fill_bots,omitempty"`
}

type joinBody struct {
	Name string `json:"name,omitempty"`
}

// Account is the account of an API token.
type Account struct {
	ID   int64  `json:"id"`
	Name string `json:"name"`
	// Bot says the account is played by a program.
	Bot       bool      `json:"bot"`
	CreatedAt time.Time `json:"created_at"`
}

// actionBody is a move: No always, Cards for a play or a hand-over, Claim
// for a play that sneaks.
type actionBody struct {
	No    *int     `json:"no"`
	Cards []string `json:"cards,omitempty"`
	Claim int      `json:"claim,omitempty"`
}

// problem is the body of every refusal.
type problem struct {
	Error string `json:"error"`
	Code  string `json:"code"`
}

type eventList struct {
	Events []engine.Event `json:"events"`
}
