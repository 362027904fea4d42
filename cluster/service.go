package cluster

import (
	"context"
	"errors"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"github.com/nats-io/nats.go"

	"bullshit/engine"
	"bullshit/engine/review"
	"bullshit/game"
	"bullshit/store"
)

// Local is the node's own tables as the Service calls them: the game service,
// and whether the node runs a game's table now.
type Local interface {
	game.Service
	Runs(id string) bool
}

var _ game.Service = (*Service)(nil)

// ServiceConfig configures the Service. Zero durations take the defaults.
type ServiceConfig struct {
	// Local is this node's own tables' runtime (live.Manager).
	Local  Local
	Conn   *nats.Conn
	Logger *slog.Logger
	// Owner reads a game's owner and status from the store. A call that no
	// node answers is about a game running nowhere when the store says it
	// is over (or there is no such game): the local Manager answers it from
	// the store. An open or live game is being taken over: the call waits
	// for its new owner. Nil (a test's) takes a game nobody answers for,
	// once interest had time to spread (Settle), as running nowhere.
	Owner func(ctx context.Context, id string) (node string, status game.Status, err error)
	// Attempt bounds one request to the owner; Patience all of a call's
	// tries, when the caller's context has no earlier deadline.
	Attempt, Patience time.Duration
	// Settle is how long a call retries no-responders before it takes the
	// game for one running nowhere, when there is no Owner.
	Settle time.Duration
}

// The defaults. A call is retried with a backoff from firstBackoff to
// maxBackoff: a takeover takes a lease's TTL, a claim interval and a
// replay, so a few seconds; Patience is well past that, and inside the
// HTTP server's 30 s write timeout, so the refusal reaches the client.
// One try waits DefaultAttempt: a call takes milliseconds, and an owner
// that doesn't answer in that is likely paused or cut off, so the next try
// may find its successor (both answer a subject while the old one's
// interest lingers; the first answer wins).
const (
	DefaultAttempt  = 2 * time.Second
	DefaultPatience = 20 * time.Second
	DefaultSettle   = time.Second
	firstBackoff    = 10 * time.Millisecond
	maxBackoff      = 500 * time.Millisecond
)

// Service is the table runtime as the API and the pages see it on a node of
// a cluster: a call about a game this node runs goes to its Manager; one
// about a game running on another node is sent there, by request and reply
// on the game's subject; one about a game running nowhere (over, or never
// created) and the calls about no one game (Create, List, Search) stay with
// the local Manager, which reads the store every node shares.
type Service struct {
	m        Local
	conn     *nats.Conn
	log      *slog.Logger
	owner    func(ctx context.Context, id string) (string, game.Status, error)
	attempt  time.Duration
	patience time.Duration
	settle   time.Duration
	ctx      context.Context

	mu sync.Mutex
	// subs are the games this node answers for: those its Manager runs.
	subs map[string]*nats.Subscription

	forwarded, retried, failed atomic.Int64
}

// NewService makes the Service of a node. ctx bounds the calls it serves
// for other nodes.
func NewService(ctx context.Context, cfg ServiceConfig) *Service {
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	if cfg.Attempt <= 0 {
		cfg.Attempt = DefaultAttempt
	}
	if cfg.Patience <= 0 {
		cfg.Patience = DefaultPatience
	}
	if cfg.Settle <= 0 {
		cfg.Settle = DefaultSettle
	}
	return &Service{m: cfg.Local, conn: cfg.Conn, log: cfg.Logger, owner: cfg.Owner, attempt: cfg.Attempt,
		patience: cfg.Patience, settle: cfg.Settle, ctx: ctx, subs: make(map[string]*nats.Subscription)}
}

// Watch is live.Hooks' Watch: the node answers for a game while its
// Manager runs the table.
func (t *Service) Watch(game string, running bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	sub := t.subs[game]
	switch {
	case running && sub == nil:
		s, err := t.conn.Subscribe(gameSubject(game), t.serve)
		if err != nil {
			t.log.Error("answering for a game over NATS", "game", game, "err", err)
			return
		}
		t.subs[game] = s
	case !running && sub != nil:
		if err := sub.Unsubscribe(); err != nil && !errors.Is(err, nats.ErrConnectionClosed) {
			t.log.Warn("no longer answering for a game", "game", game, "err", err)
		}
		delete(t.subs, game)
	}
}

// runs reports whether this node runs game id now (never, for a Service
// without a Local: a test's, that only sends calls).
func (t *Service) runs(id string) bool { return t.m != nil && t.m.Runs(id) }

// Stats are the calls sent to other nodes, the tries repeated and the
// calls given up on.
type Stats struct{ Forwarded, Retried, Failed int64 }

// Stats counts the calls sent to other nodes so far.
func (t *Service) Stats() Stats {
	return Stats{Forwarded: t.forwarded.Load(), Retried: t.retried.Load(), Failed: t.failed.Load()}
}

// The game-scoped calls, each once: the owner's handler and the local call
// are the same function. Those that change the game are newWrite's.
var (
	opGet = newOp("get", nil, func(ctx context.Context, m Local, id string, _ struct{}) (game.Summary, error) {
		return m.Get(ctx, id)
	})
	opJoin = newWrite("join", nil, func(ctx context.Context, m Local, id string, a joinArgs) (game.Joined, error) {
		return m.Join(ctx, id, a.Name, a.Player)
	})
	opAuth = newOp("authenticate", nil, func(ctx context.Context, m Local, id, token string) (int, error) {
		return m.Authenticate(ctx, id, token)
	})
	opStart     = newWrite("start", theSeat, errOnly(func(ctx context.Context, m Local, id string, by int) error { return m.Start(ctx, id, by) }))
	opLeave     = newWrite("leave", theSeat, errOnly(func(ctx context.Context, m Local, id string, seat int) error { return m.Leave(ctx, id, seat) }))
	opEnd       = newWrite("end", theSeat, errOnly(func(ctx context.Context, m Local, id string, by int) error { return m.End(ctx, id, by) }))
	opHandToBot = newWrite("hand_to_bot", seatArgs.by, errOnly(func(ctx context.Context, m Local, id string, a seatArgs) error {
		return m.HandToBot(ctx, id, a.By, a.Seat)
	}))
	opAddBot = newWrite("add_bot", botArgs.by, errOnly(func(ctx context.Context, m Local, id string, a botArgs) error {
		return m.AddBot(ctx, id, a.By, a.Level)
	}))
	opRemoveBot = newWrite("remove_bot", seatArgs.by, errOnly(func(ctx context.Context, m Local, id string, a seatArgs) error {
		return m.RemoveBot(ctx, id, a.By, a.Seat)
	}))
	opView = newOp("view", theSeat, func(ctx context.Context, m Local, id string, seat int) (engine.View, error) {
		return m.View(ctx, id, seat)
	})
	// opAct is the move as a node before Move makes it (the seat named,
	// the view returned): kept while such a node may own a table in a
	// rolling deploy.
	opAct = newWrite("act", func(a engine.Action) int { return a.Seat }, func(ctx context.Context, m Local, id string, a engine.Action) (engine.View, error) {
		f, err := m.Move(ctx, id, tokenOf(ctx), a)
		if f.View == nil {
			return engine.View{}, err
		}
		return *f.View, err
	})
	// opMove's token is the call's own (WithToken): the owner finds the
	// seat from it, and serves no move without one.
	opMove = newWrite("move", anySeat, func(ctx context.Context, m Local, id string, a engine.Action) (game.Frame, error) {
		return m.Move(ctx, id, tokenOf(ctx), a)
	})
	opLog = newOp("log", theSeat, func(ctx context.Context, m Local, id string, seat int) ([]engine.Event, error) {
		return m.Log(ctx, id, seat)
	})
	opSeats = newOp("seats", nil, func(ctx context.Context, m Local, id string, _ struct{}) ([]game.SeatInfo, error) {
		return m.Seats(ctx, id)
	})
	opFrame = newOp("frame", theSeat, func(ctx context.Context, m Local, id string, seat int) (game.Frame, error) {
		return m.Frame(ctx, id, seat)
	})
)

type joinArgs struct {
	Name   string `json:"name"`
	Player int64  `json:"player"`
}

type seatArgs struct {
	By   int `json:"by"`
	Seat int `json:"seat"`
}

func (a seatArgs) by() int { return a.By }

type botArgs struct {
	By    int    `json:"by"`
	Level string `json:"level"`
}

func (a botArgs) by() int { return a.By }

// tokenOf is the seat token the call carries.
func tokenOf(ctx context.Context) string {
	token, _ := game.TokenFrom(ctx)
	return token
}

// anySeat is newOp's seatOf for a call whose seat is its token's.
func anySeat(engine.Action) int { return 0 }

// Get is game id's summary.
func (t *Service) Get(ctx context.Context, id string) (game.Summary, error) {
	return opGet.call(ctx, t, id, struct{}{})
}

// Join seats a person at game id.
func (t *Service) Join(ctx context.Context, id, name string, player int64) (game.Joined, error) {
	return opJoin.call(ctx, t, id, joinArgs{name, player})
}

// Authenticate finds the seat of token at game id.
func (t *Service) Authenticate(ctx context.Context, id, token string) (int, error) {
	return opAuth.call(ctx, t, id, token)
}

// Start starts game id.
func (t *Service) Start(ctx context.Context, id string, by int) error {
	_, err := opStart.call(ctx, t, id, by)
	return err
}

// Leave frees seat, or hands it to a bot once the game is under way.
func (t *Service) Leave(ctx context.Context, id string, seat int) error {
	_, err := opLeave.call(ctx, t, id, seat)
	return err
}

// HandToBot hands seat to a bot.
func (t *Service) HandToBot(ctx context.Context, id string, by, seat int) error {
	_, err := opHandToBot.call(ctx, t, id, seatArgs{by, seat})
	return err
}

// End ends game id early.
func (t *Service) End(ctx context.Context, id string, by int) error {
	_, err := opEnd.call(ctx, t, id, by)
	return err
}

// AddBot seats a bot at a waiting table.
func (t *Service) AddBot(ctx context.Context, id string, by int, level string) error {
	_, err := opAddBot.call(ctx, t, id, botArgs{by, level})
	return err
}

// RemoveBot frees a bot's seat at a waiting table.
func (t *Service) RemoveBot(ctx context.Context, id string, by, seat int) error {
	_, err := opRemoveBot.call(ctx, t, id, seatArgs{by, seat})
	return err
}

// View is seat's view of game id.
func (t *Service) View(ctx context.Context, id string, seat int) (engine.View, error) {
	return opView.call(ctx, t, id, seat)
}

// Move makes a move for the seat whose token this is, at the node running
// the table, and returns the seat's frame after it: one call.
func (t *Service) Move(ctx context.Context, id, token string, a engine.Action) (game.Frame, error) {
	if token != "" {
		ctx = game.WithToken(ctx, token)
	}
	f, err := opMove.call(ctx, t, id, a)
	if !unknownCall(err, opMove.name) {
		return f, err
	}
	// The owner runs a version before Move: the seat, the move, the frame.
	if a.Seat, err = opAuth.call(ctx, t, id, token); err != nil {
		return game.Frame{}, err
	}
	_, err = opAct.call(ctx, t, id, a)
	if f, ferr := opFrame.call(ctx, t, id, a.Seat); ferr == nil {
		return f, err
	}
	return game.Frame{}, err
}

// Log is game id's log as seat sees it.
func (t *Service) Log(ctx context.Context, id string, seat int) ([]engine.Event, error) {
	return opLog.call(ctx, t, id, seat)
}

// Seats are game id's seats.
func (t *Service) Seats(ctx context.Context, id string) ([]game.SeatInfo, error) {
	return opSeats.call(ctx, t, id, struct{}{})
}

// Frame is seat's frame of game id.
func (t *Service) Frame(ctx context.Context, id string, seat int) (game.Frame, error) {
	return opFrame.call(ctx, t, id, seat)
}

// Create opens a table on this node, which then runs it.
func (t *Service) Create(ctx context.Context, req game.CreateRequest) (game.Joined, error) {
	return t.m.Create(ctx, req)
}

// List lists the games in status, from this node's Manager.
func (t *Service) List(ctx context.Context, status game.Status, limit int) ([]game.Summary, error) {
	return t.m.List(ctx, status, limit)
}

// Search searches the finished games, which the store holds.
func (t *Service) Search(ctx context.Context, q game.Query) ([]game.Summary, bool, error) {
	return t.m.Search(ctx, q)
}

// Record is a finished game's record, from the store.
func (t *Service) Record(ctx context.Context, id string) (game.Record, error) {
	return t.m.Record(ctx, id)
}

// Reviewed is a finished game's record and review, from the store.
func (t *Service) Reviewed(ctx context.Context, id string) (game.Record, *review.Review, error) {
	return t.m.Reviewed(ctx, id)
}

// Rematch opens (or joins) the table after a finished game. The link from
// a game to the next is the node's own (see docs/cluster.md).
func (t *Service) Rematch(ctx context.Context, id string, by int) (game.Joined, error) {
	return t.m.Rematch(ctx, id, by)
}

// Next is the game opened by Rematch after game id on this node, or "".
func (t *Service) Next(id string) string { return t.m.Next(id) }

// StoreOwner is TablesConfig's Owner read from the store.
func StoreOwner(st *store.Store) func(ctx context.Context, id string) (string, game.Status, error) {
	return func(ctx context.Context, id string) (string, game.Status, error) {
		node, _, status, err := st.Owner(ctx, id)
		return node, status, err
	}
}

// StoreEpoch is RelayConfig's Epoch read from the store.
func StoreEpoch(st *store.Store) func(ctx context.Context, game string) (int64, error) {
	return func(ctx context.Context, game string) (int64, error) {
		_, epoch, _, err := st.Owner(ctx, game)
		return epoch, err
	}
}
