package api

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"time"

	"bullshit/engine"
	"bullshit/game"
)

// MaxBody is the largest request body the API reads. The biggest real one, a
// ten-seat table's settings, is well under 1 KiB.
const MaxBody = 8 << 10

// CreateBody is a new table's settings as a client sends them. Unset fields
// take the standard settings.
type CreateBody struct {
	Seats            int            `json:"seats"`
	Sneak            *int           `json:"sneak,omitempty"`
	WindowSeconds    int            `json:"window_seconds,omitempty"`
	Pace             engine.Pace    `json:"pace,omitempty"`
	AwayAfterSeconds int            `json:"away_after_seconds,omitempty"`
	Name             string         `json:"name,omitempty"`
	Bots             []game.BotSpec `json:"bots,omitempty"`
	FillBots         bool           `json:"fill_bots,omitempty"`
	// GraceSeconds is the grace for calls made together; absent is the
	// standard, 0 first-come.
	GraceSeconds *float64 `json:"grace_seconds,omitempty"`
	PlayOn       bool     `json:"play_on,omitempty"`
	// Seed deals a practice table from a chosen seed, in decimal (as a
	// finished game's record names it): never rated.
	Seed string `json:"seed,omitempty"`
}

// JoinBody is a person taking a seat.
type JoinBody struct {
	Name string `json:"name,omitempty"`
}

// ActionBody is a move: No always, Cards for a play or a hand-over, Claim for
// a play that sneaks (how many of Cards are claimed; 0 or absent claims all).
type ActionBody struct {
	No    *int     `json:"no"`
	Cards []string `json:"cards,omitempty"`
	Claim int      `json:"claim,omitempty"`
}

// decode reads one JSON value from body into v, refusing unknown fields and
// anything after the value, and words every failure for a person.
func decode(body []byte, v any) error {
	if len(bytes.TrimSpace(body)) == 0 {
		return invalid("The request needs a JSON body.")
	}
	d := json.NewDecoder(bytes.NewReader(body))
	d.DisallowUnknownFields()
	if err := d.Decode(v); err != nil {
		var te *json.UnmarshalTypeError
		switch {
		case errors.As(err, &te) && te.Field != "":
			return invalid(fmt.Sprintf("The field %q has the wrong type.", te.Field))
		case strings.HasPrefix(err.Error(), "json: unknown field "):
			return invalid(fmt.Sprintf("There's no field %s.", strings.TrimPrefix(err.Error(), "json: unknown field ")))
		}
		return invalid("The request body isn't valid JSON.")
	}
	if _, err := d.Token(); err != io.EOF {
		return invalid("The request body has something after the JSON value.")
	}
	return nil
}

// decodeCreate reads a create request into the runtime's terms. It only
// translates: every setting and the name are checked by the runtime, the one
// place that checks them, whichever front end a table is opened from.
func decodeCreate(body []byte) (game.CreateRequest, error) { return decodeCreateAs(body, "") }

// decodeCreateAs is decodeCreate for a request made with an account's token
// (account is its name; "" for a guest).
func decodeCreateAs(body []byte, account string) (game.CreateRequest, error) {
	var b CreateBody
	if err := decode(body, &b); err != nil {
		return game.CreateRequest{}, err
	}
	name, err := seatName(b.Name, account)
	if err != nil {
		return game.CreateRequest{}, err
	}
	opts := engine.Standard(b.Seats)
	if b.Sneak != nil {
		opts.Sneak = *b.Sneak
	}
	if b.WindowSeconds != 0 {
		opts.Window = seconds(b.WindowSeconds)
	}
	if b.Pace != "" {
		opts.Pace = b.Pace
	}
	if b.GraceSeconds != nil {
		opts.Grace = -1 // out of range: let the runtime's check word it
		if g := *b.GraceSeconds; g >= 0 && g <= engine.MaxGrace.Seconds() {
			opts.Grace = engine.GraceOf(g)
		}
	}
	opts.PlayOn = b.PlayOn
	var seed *uint64
	if b.Seed != "" {
		v, err := strconv.ParseUint(b.Seed, 10, 64)
		if err != nil {
			return game.CreateRequest{}, &engine.Error{Code: engine.CodeBadOptions,
				Message: "A practice table's seed is a whole number from 0 to 18446744073709551615, written in decimal."}
		}
		seed = &v
	}
	return game.CreateRequest{Options: opts, HostName: name, Bots: b.Bots, FillBots: b.FillBots,
		AwayAfter: seconds(b.AwayAfterSeconds), Seed: seed}, nil
}

// seconds is a duration given in whole seconds, 0 for none given. One too
// long for a time.Duration is made negative, out of every range, for the
// runtime to refuse in its own words.
func seconds(n int) time.Duration {
	const most = int(math.MaxInt64 / time.Second)
	if n > most || n < -most {
		return -1
	}
	return time.Duration(n) * time.Second
}

// decodeJoin reads the name a person joins with (checked by the runtime).
func decodeJoin(body []byte) (string, error) { return decodeJoinAs(body, "") }

// decodeJoinAs is decodeJoin for a request made with an account's token
// (account is its name; "" for a guest).
func decodeJoinAs(body []byte, account string) (string, error) {
	var b JoinBody
	if err := decode(body, &b); err != nil {
		return "", err
	}
	return seatName(b.Name, account)
}

// seatName is the name a seat is taken with: a guest's as given (the
// runtime checks it), an account's always its own, so nobody plays a rated
// game under another name. An account's request may leave the name out.
func seatName(given, account string) (string, error) {
	if account == "" {
		return given, nil
	}
	if g := strings.TrimSpace(given); g != "" && g != account {
		return "", invalid(fmt.Sprintf("With an account's token you play as %s: leave out \"name\" or give that.", account))
	}
	return account, nil
}

// decodeAction reads a move of the given kind. The seat is the token's, set
// by the caller.
func decodeAction(kind engine.ActionKind, body []byte) (engine.Action, error) {
	var b ActionBody
	if err := decode(body, &b); err != nil {
		return engine.Action{}, err
	}
	if b.No == nil {
		return engine.Action{}, invalid(`Say which play this answers: "no" is the number of the last play your view showed (0 before the first).`)
	}
	if *b.No < 0 {
		return engine.Action{}, invalid(`"no" is a play number: 0 or more.`)
	}
	a := engine.Action{Kind: kind, No: *b.No}
	switch kind {
	case engine.ActPlay, engine.ActGive:
		if len(b.Cards) == 0 {
			return engine.Action{}, invalid("Say which cards: \"cards\" is a list of codes such as \"AS\" or \"10H\".")
		}
		if kind == engine.ActGive && b.Claim != 0 {
			return engine.Action{}, invalid("A hand-over has no claim.")
		}
		for _, code := range b.Cards {
			c, err := engine.ParseCard(code)
			if err != nil {
				return engine.Action{}, invalid(fmt.Sprintf("There's no card %q: a card is a rank (A, 2-10, J, Q, K) and a suit (S, H, D, C), such as \"QH\".", code))
			}
			a.Cards = append(a.Cards, c)
		}
		if b.Claim < 0 {
			return engine.Action{}, invalid(`"claim" is how many of the cards you claim: 1 or more, or leave it out to claim them all.`)
		}
		a.Claim = b.Claim
	default:
		if len(b.Cards) > 0 || b.Claim != 0 {
			return engine.Action{}, invalid("This move takes only \"no\".")
		}
	}
	return a, nil
}
