package cluster

import (
	"encoding/json"
	"errors"
	"strconv"
	"time"

	"bullshit/engine"
	"bullshit/errcode"
	"bullshit/game"
)

// gameSubject is where the node running game id takes the calls about it.
func gameSubject(id string) string { return "bullshit.game." + id }

// frameSubject is where the node running game id publishes seat's frames
// (engine.Spectator's as "spectator").
func frameSubject(id string, seat int) string {
	if seat == engine.Spectator {
		return "bullshit.frame." + id + ".spectator"
	}
	return "bullshit.frame." + id + "." + strconv.Itoa(seat)
}

// request is a call about one game sent to the node that runs it. JSON is
// the encoding because the API's types already round-trip through it (the
// one field it leaves out, Options.Rules, is the server's and read only by
// the engine and the store).
type request struct {
	Op   string `json:"op"`
	Game string `json:"game"`
	// Token is the one the caller authenticated with (game.WithToken):
	// the table checks it again, as it does on its own node.
	Token *string `json:"token,omitempty"`
	// Wait is how long the caller waits for this answer; the owner gives
	// up on it then.
	Wait time.Duration   `json:"wait"`
	Args json.RawMessage `json:"args"`
}

// response is the owner's answer: a result, a refusal (which a person
// reads), or a failure (the server's fault, whose details stay in the
// owner's log).
type response struct {
	Result  json.RawMessage `json:"result,omitempty"`
	Refusal *refusal        `json:"refusal,omitempty"`
	Failure string          `json:"failure,omitempty"`
}

// refusal is a refused call as it crosses the wire: its code and its
// message, and which kind of error it was, so the pages word it as on the
// owner (a move's refusal is "Not allowed", a request's "Not possible").
type refusal struct {
	Kind    string       `json:"kind"`
	Code    errcode.Code `json:"code"`
	Message string       `json:"message"`
	// WaitMS is how long the refusal asks the client to wait, in
	// milliseconds (a full node's; see errcode.Waiter).
	WaitMS int64 `json:"wait_ms,omitempty"`
}

// The kinds of refusal.
const (
	kindEngine = "engine"
	kindLive   = "live"
	kindOther  = "other"
)

// Refusal is a refusal made on another node that was neither the engine's
// nor the runtime's: errcode.Of reads its code and message.
type Refusal struct {
	Code    errcode.Code
	Message string
	Wait    time.Duration
}

func (r *Refusal) Error() string { return r.Message }

// RetryAfter is how long the refusal asks the client to wait.
func (r *Refusal) RetryAfter() time.Duration { return r.Wait }

// ErrorCode is the refusal's code, for errcode's table.
func (r *Refusal) ErrorCode() errcode.Code { return r.Code }

// refusalOf is err as it crosses the wire; nil when it is no refusal.
func refusalOf(err error) *refusal {
	code, msg, ok := errcode.Of(err)
	if !ok {
		return nil
	}
	var (
		ee *engine.Error
		le *game.Error
	)
	kind := kindOther
	switch {
	case errors.As(err, &ee):
		kind = kindEngine
	case errors.As(err, &le):
		kind = kindLive
	}
	var wait time.Duration
	if w := errcode.Waiter(nil); errors.As(err, &w) {
		wait = w.RetryAfter()
	}
	return &refusal{Kind: kind, Code: code, Message: msg, WaitMS: wait.Milliseconds()}
}

// err is the refusal as the error it was on the owner.
func (r *refusal) err() error {
	wait := time.Duration(r.WaitMS) * time.Millisecond
	switch r.Kind {
	case kindEngine:
		return &engine.Error{Code: r.Code, Message: r.Message}
	case kindLive:
		return &game.Error{Code: r.Code, Message: r.Message, Wait: wait}
	}
	return &Refusal{Code: r.Code, Message: r.Message, Wait: wait}
}

// errFailed is what the caller gets when the owner failed: the server's
// fault, whose details are in the owner's log.
type errFailed struct{ msg string }

func (e *errFailed) Error() string { return "the node running the game failed: " + e.msg }

// unknownCall reports whether err is the owner's answer that it has no
// call by that name: it runs an older version.
func unknownCall(err error, name string) bool {
	f, ok := errors.AsType[*errFailed](err)
	return ok && f.msg == noCall+name
}
