// Package client is a Go client of the game's JSON API, for bots and
// scripts: the calls a seat makes, its event stream (events.go) and Play,
// which plays a whole game for a seat (play.go). It imports only the engine
// and the standard library, so a bot's program pulls in nothing of the
// server's.
package client

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"bullshit/engine"
)

// Client calls one server, as one seat once it has a token.
type Client struct {
	base  string
	http  *http.Client
	token string
}

// New returns a client of the server at base ("http://127.0.0.1:8080").
// A nil hc is http.DefaultClient.
func New(base string, hc *http.Client) *Client {
	if hc == nil {
		hc = http.DefaultClient
	}
	return &Client{base: strings.TrimRight(base, "/"), http: hc}
}

// WithToken returns a copy of the client that acts with a seat's token.
func (c *Client) WithToken(token string) *Client {
	cc := *c
	cc.token = token
	return &cc
}

// Token is the seat's token the client acts with, if any.
func (c *Client) Token() string { return c.token }

// Error is a refusal from the server, as a client sees it.
type Error struct {
	Status int
	Code   string
	// Message is the server's words for a person.
	Message string
	// RetryAfter is the seconds the server asked to wait, when rate limited.
	RetryAfter int
}

func (e *Error) Error() string { return fmt.Sprintf("%s (%d %s)", e.Message, e.Status, e.Code) }

// CodeOutcomeUnknown is the code of a write the server made but can't say
// the outcome of (its database's answer was lost, or the table moved to
// another server just after): it may be stored or not. Read the view to
// see which rather than sending the same request again as if it were not
// made; a move made again is refused as stale if the first one stands.
const CodeOutcomeUnknown = "outcome_unknown"

// ErrorCode is the server's code for a refusal, or "" for any other error
// (such as the server being unreachable).
func ErrorCode(err error) string {
	var e *Error
	if errors.As(err, &e) {
		return e.Code
	}
	return ""
}

// do sends a request with a JSON body (when in is not nil) and decodes a
// JSON answer into out (when not nil).
func (c *Client) do(ctx context.Context, method, path string, in, out any) error {
	var body io.Reader
	if in != nil {
		b, err := json.Marshal(in)
		if err != nil {
			return fmt.Errorf("encoding the request: %w", err)
		}
		body = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, method, c.base+path, body)
	if err != nil {
		return err
	}
	if in != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if c.token != "" {
		req.Header.Set("Authorization", "Bearer "+c.token)
	}
	resp, err := c.http.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode >= 300 {
		return readError(resp)
	}
	if out == nil {
		_, err = io.Copy(io.Discard, resp.Body)
		return err
	}
	if err := json.NewDecoder(resp.Body).Decode(out); err != nil {
		return fmt.Errorf("reading the answer to %s %s: %w", method, path, err)
	}
	return nil
}

func readError(resp *http.Response) error {
	e := &Error{Status: resp.StatusCode}
	var p problem
	b, _ := io.ReadAll(io.LimitReader(resp.Body, 64<<10))
	if json.Unmarshal(b, &p) == nil && p.Code != "" {
		e.Code, e.Message = p.Code, p.Error
	} else {
		e.Message = strings.TrimSpace(string(b))
	}
	e.RetryAfter, _ = strconv.Atoi(resp.Header.Get("Retry-After"))
	return e
}

func gamePath(id string, rest ...string) string {
	return "/api/v1/games/" + url.PathEscape(id) + strings.Join(rest, "")
}

// Create makes a table; the client's host seat token is in the answer.
func (c *Client) Create(ctx context.Context, b CreateBody) (Joined, error) {
	var j Joined
	err := c.do(ctx, http.MethodPost, "/api/v1/games", b, &j)
	return j, err
}

// Join takes a seat at an open table.
func (c *Client) Join(ctx context.Context, game, name string) (Joined, error) {
	var j Joined
	err := c.do(ctx, http.MethodPost, gamePath(game, "/join"), joinBody{Name: name}, &j)
	return j, err
}

// Me reads the account of the client's token, an account's API token.
func (c *Client) Me(ctx context.Context) (Account, error) {
	var a Account
	err := c.do(ctx, http.MethodGet, "/api/v1/me", nil, &a)
	return a, err
}

// Get reads a game's summary.
func (c *Client) Get(ctx context.Context, game string) (Game, error) {
	var s Game
	err := c.do(ctx, http.MethodGet, gamePath(game), nil, &s)
	return s, err
}

// Start starts the game (the host's token only).
func (c *Client) Start(ctx context.Context, game string) (Game, error) {
	var s Game
	err := c.do(ctx, http.MethodPost, gamePath(game, "/start"), nil, &s)
	return s, err
}

// View reads the seat's view (the spectator's without a token).
func (c *Client) View(ctx context.Context, game string) (engine.View, error) {
	var v engine.View
	err := c.do(ctx, http.MethodGet, gamePath(game, "/view"), nil, &v)
	return v, err
}

// Log reads the game's log as the seat may see it.
func (c *Client) Log(ctx context.Context, game string) ([]engine.Event, error) {
	var l eventList
	err := c.do(ctx, http.MethodGet, gamePath(game, "/log"), nil, &l)
	return l.Events, err
}

// Act makes a move for the client's seat and returns the seat's view after
// it. An error with CodeOutcomeUnknown means the move may stand: read the
// view before deciding again.
func (c *Client) Act(ctx context.Context, game string, a engine.Action) (engine.View, error) {
	no := a.No
	body := actionBody{No: &no, Claim: a.Claim}
	for _, card := range a.Cards {
		body.Cards = append(body.Cards, card.String())
	}
	var v engine.View
	err := c.do(ctx, http.MethodPost, gamePath(game, "/"+string(a.Kind)), body, &v)
	return v, err
}
