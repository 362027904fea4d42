package clustertest

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"slices"
	"strings"
	"sync"
	"time"

	"bullshit/api/client"
	"bullshit/engine"
)

// outcome is what a client learnt of a move it sent.
type outcome int8

const (
	// ok: the server acknowledged the move (200).
	ok outcome = iota
	// refused: the server answered that it changed nothing (a 4xx).
	refused
	// unknown: no answer, or one that doesn't say (a 5xx, such as
	// "moved, try again" after the node's own retries ran out, or a
	// timeout): the move may or may not have been stored.
	unknown
)

func (o outcome) String() string { return [...]string{"ok", "refused", "unknown"}[o] }

// move is a seat's move as its client sent it; a move is identified by its
// game, seat, kind and play number, and the rest must match the stored one.
type move struct {
	Game  string
	Seat  int
	Kind  engine.ActionKind
	No    int
	Cards string // the cards' codes, sorted, joined by spaces
	Claim int
}

func (m move) id() string { return fmt.Sprintf("%s seat %d %s no %d", m.Game, m.Seat, m.Kind, m.No) }

// op is one move request the test's clients made: porcupine's operation.
type op struct {
	move
	Node         string
	Call, Return time.Duration // since the recorder's start
	Outcome      outcome
	Code         string
}

// recorder keeps every move request the clients make, with its outcome.
type recorder struct {
	start time.Time
	mu    sync.Mutex
	seats map[string]seatOf // by token
	ops   []op
}

type seatOf struct {
	game string
	seat int
}

func newRecorder() *recorder { return &recorder{start: time.Now(), seats: map[string]seatOf{}} }

func (r *recorder) seat(token, game string, seat int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.seats[token] = seatOf{game, seat}
}

func (r *recorder) since() time.Duration { return time.Since(r.start) }

func (r *recorder) add(o op) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.ops = append(r.ops, o)
}

func (r *recorder) all() []op {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.ops)
}

// moveOf reads a move request's move, or false for any other request.
func (r *recorder) moveOf(req *http.Request, body []byte) (move, bool) {
	if req.Method != http.MethodPost {
		return move{}, false
	}
	rest, found := strings.CutPrefix(req.URL.Path, "/api/v1/games/")
	if !found {
		return move{}, false
	}
	game, kind, found := strings.Cut(rest, "/")
	switch engine.ActionKind(kind) {
	case engine.ActPlay, engine.ActCall, engine.ActPass, engine.ActGive:
	default:
		return move{}, false
	}
	r.mu.Lock()
	s, known := r.seats[strings.TrimPrefix(req.Header.Get("Authorization"), "Bearer ")]
	r.mu.Unlock()
	if !found || !known || s.game != game {
		return move{}, false
	}
	var b struct {
		No    int      `json:"no"`
		Cards []string `json:"cards"`
		Claim int      `json:"claim"`
	}
	if err := json.Unmarshal(body, &b); err != nil {
		return move{}, false
	}
	return move{Game: game, Seat: s.seat, Kind: engine.ActionKind(kind), No: b.No, Cards: cardKey(b.Cards),
		Claim: b.Claim}, true
}

func cardKey(cards []string) string {
	cards = slices.Clone(cards)
	slices.Sort(cards)
	return strings.Join(cards, " ")
}

// anyNode is a load balancer with no stickiness: each request goes to a
// node drawn at random among those whose process runs (a paused one too,
// as a balancer can't tell), and every move request is recorded.
type anyNode struct {
	c    *cluster
	rec  *recorder
	base http.RoundTripper
}

func (a *anyNode) pick() *node {
	var up []*node
	for _, nd := range a.c.nodes {
		if nd.running() {
			up = append(up, nd)
		}
	}
	if len(up) == 0 {
		return a.c.nodes[rand.IntN(len(a.c.nodes))]
	}
	return up[rand.IntN(len(up))]
}

func (a *anyNode) RoundTrip(req *http.Request) (*http.Response, error) {
	nd := a.pick()
	out := req.Clone(req.Context())
	out.URL.Host, out.Host = nd.addr, nd.addr
	var body []byte
	if req.Body != nil {
		b, err := io.ReadAll(req.Body)
		req.Body.Close()
		if err != nil {
			return nil, err
		}
		body = b
		out.Body = io.NopCloser(bytes.NewReader(b))
	}
	m, isMove := a.rec.moveOf(req, body)
	if !isMove {
		resp, err := a.base.RoundTrip(out)
		return resp, a.unreached(req, nd, err)
	}
	o := op{move: m, Node: nd.name, Call: a.rec.since()}
	resp, err := a.base.RoundTrip(out)
	if err != nil {
		o.Return, o.Outcome = a.rec.since(), unknown
		a.rec.add(o)
		return nil, a.unreached(req, nd, err)
	}
	// The whole answer is read here so that the move's return is when
	// the client had it.
	b, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	o.Return = a.rec.since()
	resp.Body = io.NopCloser(bytes.NewReader(b))
	switch {
	case err != nil:
		o.Outcome = unknown
	case resp.StatusCode == http.StatusOK:
		o.Outcome = ok
	case resp.StatusCode >= 400 && resp.StatusCode < 500:
		o.Outcome = refused
	default:
		o.Outcome = unknown
	}
	var p struct {
		Code string `json:"code"`
	}
	if json.Unmarshal(b, &p) == nil {
		o.Code = p.Code
	}
	a.rec.add(o)
	return resp, err
}

// unreached is the error of a request that got no answer. A node that
// gave none (killed, paused) is a server unreachable, which a client
// retries, not the end of the client's own context, which the transport's
// timeout would otherwise look like (client.Play stops on that).
func (a *anyNode) unreached(req *http.Request, nd *node, err error) error {
	if err == nil || req.Context().Err() != nil {
		return err
	}
	return fmt.Errorf("no answer from %s: %s", nd.name, err.Error())
}

// clients are the API players' clients: one transport through anyNode. A
// request to a paused node gets no answer headers and is given up after a
// few seconds (its outcome unknown); event streams have no deadline.
func (c *cluster) client(rec *recorder) (*client.Client, *http.Client) {
	base := &http.Transport{ResponseHeaderTimeout: 4 * time.Second, MaxIdleConnsPerHost: 16}
	hc := &http.Client{Transport: &anyNode{c: c, rec: rec, base: base}}
	return client.New(anyBase, hc), hc
}

// anyBase is the clients' base URL; anyNode puts a node in its place.
const anyBase = "http://cluster"

// table is a game the test made, with the API seats it plays.
type table struct {
	id     string
	tokens map[int]string // the API players' seats
}

// botTable makes a table of four bots: the host takes seat 0, starts the
// game and hands the seat to a bot.
func botTable(ctx context.Context, cl *client.Client, hc *http.Client, bots []client.Bot) (table, error) {
	j, err := cl.Create(ctx, client.CreateBody{Seats: 4, Name: "Host", Pace: engine.Brisk, Bots: bots})
	if err != nil {
		return table{}, fmt.Errorf("creating a bot table: %w", err)
	}
	host := cl.WithToken(j.Token)
	if _, err := host.Start(ctx, j.Game.ID); err != nil {
		return table{}, fmt.Errorf("starting %s: %w", j.Game.ID, err)
	}
	if err := leave(ctx, hc, j.Game.ID, j.Token); err != nil {
		return table{}, fmt.Errorf("leaving %s to a bot: %w", j.Game.ID, err)
	}
	return table{id: j.Game.ID}, nil
}

// apiTable makes a table of four where two API players sit at seats 0 and
// 3, among two bots.
func apiTable(ctx context.Context, cl *client.Client, rec *recorder, bots []client.Bot) (table, error) {
	j, err := cl.Create(ctx, client.CreateBody{Seats: 4, Name: "Ann", Pace: engine.Brisk, Bots: bots[:2]})
	if err != nil {
		return table{}, fmt.Errorf("creating an API table: %w", err)
	}
	t := table{id: j.Game.ID, tokens: map[int]string{j.Seat: j.Token}}
	rec.seat(j.Token, t.id, j.Seat)
	j2, err := cl.Join(ctx, t.id, "Bob")
	if err != nil {
		return table{}, fmt.Errorf("joining %s: %w", t.id, err)
	}
	t.tokens[j2.Seat] = j2.Token
	rec.seat(j2.Token, t.id, j2.Seat)
	if _, err := cl.WithToken(j.Token).Start(ctx, t.id); err != nil {
		return table{}, fmt.Errorf("starting %s: %w", t.id, err)
	}
	return t, nil
}

// leave hands the token's seat to a bot for the rest of the game (the
// client has no method for it).
func leave(ctx context.Context, hc *http.Client, game, token string) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, anyBase+"/api/v1/games/"+game+"/leave", nil)
	if err != nil {
		return err
	}
	req.Header.Set("Authorization", "Bearer "+token)
	resp, err := hc.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode >= 300 {
		b, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<10))
		return fmt.Errorf("%s: %s", resp.Status, bytes.TrimSpace(b))
	}
	return nil
}

// streams follows spectator streams of every game on a chosen node, and
// notes any view whose version is below the last one that stream showed.
type streams struct {
	mu     sync.Mutex
	seen   map[string]int // views seen, by game and node
	broken []string
}

func (s *streams) follow(ctx context.Context, nd *node, game string) {
	key := game + " on " + nd.name
	cl := client.New("http://"+nd.addr, &http.Client{Transport: &http.Transport{ResponseHeaderTimeout: 4 * time.Second}})
	last := -1
	for ctx.Err() == nil {
		over := false
		err := cl.Events(ctx, game, func(v engine.View) error {
			s.mu.Lock()
			s.seen[key]++
			if v.Version < last {
				s.broken = append(s.broken, fmt.Sprintf("%s: version %d after %d", key, v.Version, last))
			}
			s.mu.Unlock()
			last = max(last, v.Version)
			over = v.Phase == engine.PhaseOver
			return nil
		})
		if over || (err == nil && last >= 0 && ctx.Err() == nil && gameOver(ctx, cl, game)) {
			return
		}
		select {
		case <-ctx.Done():
		case <-time.After(300 * time.Millisecond):
		}
	}
}

// gameOver asks the node whether the game is over, for a stream the
// server ended with no final view (a 204).
func gameOver(ctx context.Context, cl *client.Client, game string) bool {
	g, err := cl.Get(ctx, game)
	return err == nil && (g.Status == client.StatusFinished || g.Status == client.StatusEnded)
}
