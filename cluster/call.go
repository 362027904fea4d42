package cluster

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/nats-io/nats.go"

	"bullshit/engine"
	"bullshit/errcode"
	"bullshit/game"
)

// handler serves one kind of call for another node: it reads the call's
// arguments, calls the Manager and returns what the caller decodes.
type handler func(ctx context.Context, m Local, id string, args json.RawMessage) (any, error)

// handlers is the one dispatch table, filled by newOp.
var handlers = map[string]handler{}

// op is one game-scoped call of the Manager's, with arguments A and result
// R, named on the wire.
type op[A, R any] struct {
	name string
	run  func(ctx context.Context, m Local, id string, a A) (R, error)
	// write: the call changes the game, so one whose owner may have taken
	// it without answering is refused as unknown, not unavailable.
	write bool
}

// newOp declares a call and adds its handler to the dispatch table. seatOf,
// for a call made as one seat, names it: the owner serves such a call for
// another node only with that seat's token, as the HTTP routes take it
// only with one (the spectator's seat needs none), and the table checks
// the token is the seat's.
func newOp[A, R any](name string, seatOf func(A) int, run func(ctx context.Context, m Local, id string, a A) (R, error)) op[A, R] {
	if handlers[name] != nil {
		panic("cluster: two calls named " + name)
	}
	handlers[name] = func(ctx context.Context, m Local, id string, raw json.RawMessage) (any, error) {
		var a A
		if err := json.Unmarshal(raw, &a); err != nil {
			return nil, fmt.Errorf("reading the arguments of %s: %w", name, err)
		}
		if _, ok := game.TokenFrom(ctx); !ok && seatOf != nil && seatOf(a) != engine.Spectator {
			return nil, errNoSeatToken
		}
		return run(ctx, m, id, a)
	}
	return op[A, R]{name: name, run: run}
}

// theSeat is newOp's seatOf for a call whose argument is the seat.
func theSeat(seat int) int { return seat }

// newWrite declares a call that changes the game (see op.write).
func newWrite[A, R any](name string, seatOf func(A) int, run func(ctx context.Context, m Local, id string, a A) (R, error)) op[A, R] {
	o := newOp(name, seatOf, run)
	o.write = true
	return o
}

// errOnly makes a call that answers only an error one of R struct{}.
func errOnly[A any](fn func(ctx context.Context, m Local, id string, a A) error) func(context.Context, Local, string, A) (struct{}, error) {
	return func(ctx context.Context, m Local, id string, a A) (struct{}, error) {
		return struct{}{}, fn(ctx, m, id, a)
	}
}

var (
	// errMoved refuses a call made to a node that no longer runs the
	// table, as a table taken away refuses its request: the caller tries
	// again, and finds the new owner.
	errMoved = &game.Error{Code: errcode.Moved, Message: errcode.Message(errcode.Moved)}
	// errNoOwner: no node took the call in the caller's patience.
	// errNoSeatToken refuses a call from another node about a seat that
	// carries no token: every node's routes authenticate a seat with one.
	errNoSeatToken = &game.Error{Code: errcode.Unauthorized, Message: "That call is about a seat but carries no seat token."}
	errNoOwner     = &game.Error{Code: errcode.Unavailable, Message: "The server running this game can't be reached just now; try again in a moment."}
	// errNoAnswer: a change no node answered in the caller's patience,
	// though a try may have reached the owner, which may have made it.
	errNoAnswer = &game.Error{Code: errcode.Unknown, Message: "The server running this game didn't answer in time, so we couldn't tell whether that was saved: look at the game again before you move."}
)

// call runs the op here when this node runs the game, or else sends it to
// the node that does, trying again on no-responders, timeouts and
// moved-refusals with a backoff until the caller's context (or Patience)
// ends: every call is either a read or carries what makes a repeat harmless
// (a move's play number; a join or a start refused the second time). A game
// nobody runs is the local Manager's, which reads the store. A call run
// here that the local table answers moved (it left this node before storing
// anything) is sent on to the new owner as any other: moved is a promise
// that nothing was stored, which only a write whose outcome is known keeps
// (a table that stops after a write that may stand answers unknown).
func (o op[A, R]) call(ctx context.Context, t *Service, id string, a A) (R, error) {
	var zero R
	if t.runs(id) {
		r, err := o.run(ctx, t.m, id, a)
		if !isMoved(err) {
			return r, err
		}
	}
	args, err := json.Marshal(a)
	if err != nil {
		return zero, err
	}
	req := request{Op: o.name, Game: id, Args: args}
	if token, ok := game.TokenFrom(ctx); ok {
		req.Token = &token
	}
	ctx, cancel := context.WithTimeout(ctx, t.patience)
	defer cancel()
	t.forwarded.Add(1)
	wait := firstBackoff
	var silentSince time.Time
	// reached: a try went unanswered after it may have reached the owner
	// (it timed out, or its answer was lost), so a change may have been
	// made though no answer said so.
	reached := false
	for try := 0; ; try++ {
		if try > 0 {
			t.retried.Add(1)
			select {
			case <-ctx.Done():
				t.failed.Add(1)
				if o.write && reached {
					return zero, errNoAnswer
				}
				return zero, errNoOwner
			case <-time.After(wait):
			}
			wait = min(2*wait, maxBackoff)
		}
		if t.runs(id) { // it came here: taken over by this node
			r, err := o.run(ctx, t.m, id, a)
			if !isMoved(err) {
				return r, err
			}
			continue
		}
		res, err := t.request(ctx, req)
		switch {
		case err == nil && res.Refusal != nil && res.Refusal.Code == errcode.Moved:
			continue
		case err == nil:
			return decode[R](res)
		case errors.Is(err, nats.ErrNoResponders):
			if silentSince.IsZero() {
				silentSince = time.Now()
			}
			if t.nowhere(ctx, id, silentSince) {
				return o.run(ctx, t.m, id, a)
			}
		case errors.Is(err, nats.ErrTimeout), errors.Is(err, context.DeadlineExceeded):
			// An attempt timed out; the caller's context ending is seen above.
			reached = true
		case errors.Is(err, context.Canceled) && ctx.Err() != nil:
			return zero, ctx.Err()
		default:
			reached = true
			t.log.Warn("a call to another node failed", "game", id, "op", o.name, "err", err)
		}
	}
}

// noCall starts the failure answered for a call of a name this node does
// not serve.
const noCall = "no call named "

// isMoved reports whether err is a refusal as moved.
func isMoved(err error) bool {
	code, _, ok := errcode.Of(err)
	return ok && code == errcode.Moved
}

// request sends one try of req, bounded by Attempt.
func (t *Service) request(ctx context.Context, req request) (response, error) {
	actx, cancel := context.WithTimeout(ctx, t.attempt)
	defer cancel()
	req.Wait = t.attempt
	if dl, ok := actx.Deadline(); ok {
		req.Wait = time.Until(dl)
	}
	body, err := json.Marshal(req)
	if err != nil {
		return response{}, err
	}
	msg, err := t.conn.RequestWithContext(actx, gameSubject(req.Game), body)
	if err != nil {
		return response{}, err
	}
	var res response
	if err := json.Unmarshal(msg.Data, &res); err != nil {
		return response{}, fmt.Errorf("reading the owner's answer: %w", err)
	}
	return res, nil
}

// decode is the owner's answer as the local call would have returned it.
func decode[R any](res response) (R, error) {
	var r R
	switch {
	case res.Refusal != nil:
		if len(res.Result) > 0 {
			_ = json.Unmarshal(res.Result, &r) // the refusal is the answer
		}
		return r, res.Refusal.err()
	case res.Failure != "":
		return r, &errFailed{msg: res.Failure}
	}
	if err := json.Unmarshal(res.Result, &r); err != nil {
		return r, fmt.Errorf("reading the owner's answer: %w", err)
	}
	return r, nil
}

// nowhere reports whether a game no node answers for runs nowhere, so the
// local Manager answers from the store: it is over or unknown, by the
// store's word. Without an Owner to ask, silence past Settle is taken for
// that (interest in a subject spreads between servers asynchronously).
func (t *Service) nowhere(ctx context.Context, id string, silentSince time.Time) bool {
	if t.owner == nil {
		return time.Since(silentSince) >= t.settle
	}
	_, status, err := t.owner(ctx, id)
	if err != nil {
		// No such game, or the store is failing: the local Manager says
		// which, as it would on a single node.
		return true
	}
	return status != game.StatusOpen && status != game.StatusLive
}

// serve answers a call from another node about a game this node runs, on
// the game's subscription's goroutine, so one game's calls are served in
// order as its table serves them.
func (t *Service) serve(msg *nats.Msg) {
	var req request
	res := response{}
	switch err := json.Unmarshal(msg.Data, &req); {
	case err != nil:
		res.Failure = "unreadable call"
	case !t.runs(req.Game):
		res.Refusal = refusalOf(errMoved)
	case handlers[req.Op] == nil:
		res.Failure = noCall + req.Op
	default:
		res = t.answer(req)
	}
	body, err := json.Marshal(res)
	if err == nil {
		err = msg.Respond(body)
	}
	if err != nil && !errors.Is(err, nats.ErrConnectionClosed) {
		t.log.Warn("answering another node", "game", req.Game, "op", req.Op, "err", err)
	}
}

// answer runs req on the Manager within the caller's wait.
func (t *Service) answer(req request) response {
	wait := min(max(req.Wait, 0), DefaultPatience)
	ctx, cancel := context.WithTimeout(t.ctx, wait)
	defer cancel()
	if req.Token != nil {
		ctx = game.WithToken(ctx, *req.Token)
	}
	out, err := handlers[req.Op](ctx, t.m, req.Game, req.Args)
	if err != nil {
		if r := refusalOf(err); r != nil {
			// What came with the refusal crosses too (a refused move's
			// frame as it stands).
			b, _ := json.Marshal(out)
			return response{Refusal: r, Result: b}
		}
		t.log.Error("a call from another node failed", "game", req.Game, "op", req.Op, "err", err)
		return response{Failure: "see the log of the node running the game"}
	}
	b, err := json.Marshal(out)
	if err != nil {
		t.log.Error("encoding an answer", "game", req.Game, "op", req.Op, "err", err)
		return response{Failure: "see the log of the node running the game"}
	}
	return response{Result: b}
}
