package live

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"bullshit/game"
	"bullshit/internal/clocks"
	"bullshit/internal/ratelimit"
	"bullshit/naming"
	"bullshit/store"
)

// Config configures a Manager. Store is *store.Store in production.
type Config struct {
	Store  *store.Store
	Clock  clocks.Clock // nil means the real clock
	Logger *slog.Logger
	// MaxOpen caps the tables waiting for players, and MaxOpenPerAddress
	// those opened from one address (CreateRequest.Address); zero takes
	// DefaultMaxOpen and DefaultMaxOpenPerAddress.
	MaxOpen           int
	MaxOpenPerAddress int
	// MaxLateness is how late the tables' timers and writes may run before
	// the node is full and refuses new tables and joins (see capacity);
	// zero takes DefaultMaxLateness, and a negative limit never fills.
	MaxLateness time.Duration
	// Node, when set, runs this Manager as one node of several on one
	// PostgreSQL database (see Node); nil is a single server.
	Node *Node
}

// Hooks are what the tables call above them: where their frames go and,
// in a cluster, who hears which tables run here and whether the node is in
// the mesh. Those are built over the Manager (the cluster's calls reach the
// tables through it), so they are given after New and before StartTables
// by Connect; a Manager never connected calls none.
type Hooks struct {
	Publisher game.Publisher
	// Watch, when set, is told when a table starts (running true) or stops
	// running on this node. It is called from the table's goroutines and
	// the claims', one call at a time per game, and should not block long.
	Watch func(game string, running bool)
	// InMesh, when set, says whether a node of a cluster reaches enough of
	// its peers to take tables: a node cut off from them claims none (a
	// table it took would answer no one who reaches the others). Call
	// ClaimNow when it turns true.
	InMesh func() bool
}

// storage is what the runtime needs of the store; tests wrap *store.Store
// to make it fail.
type storage interface {
	CreateGame(ctx context.Context, g *store.Game, seats []store.Seat) error
	Game(ctx context.Context, id string) (*store.Game, []store.Seat, error)
	Games(ctx context.Context, status game.Status, limit int) ([]store.Game, error)
	ListGames(ctx context.Context, status game.Status, limit int) ([]store.Listed, error)
	SearchGames(ctx context.Context, q store.GameQuery) ([]store.Listed, bool, error)
	AccountByName(ctx context.Context, nameKey string) (*store.Account, error)
	AccountByLookalike(ctx context.Context, key string) (*store.Account, error)
	SaveSeat(ctx context.Context, f store.Fence, seat store.Seat) error
	StartGame(ctx context.Context, f store.Fence, id string, at time.Time, seats []store.Seat) error
	AppendAction(ctx context.Context, a store.Action) error
	Settle(ctx context.Context, a store.Action) (store.Outcome, store.Action, error)
	Actions(ctx context.Context, gameID string) ([]store.Action, error)
	FinishGame(ctx context.Context, f store.Fence, id string, status game.Status, at time.Time, plays int, capped bool, results []store.Result, rater *store.Rater) error
	Unfinished(ctx context.Context) ([]store.Game, error)
	Results(ctx context.Context, id string) ([]store.Result, error)
	GamePlayers(ctx context.Context, id string) ([]store.PlayerGame, error)
	MarkAlive(ctx context.Context, at time.Time) error
	Alive(ctx context.Context) (time.Time, error)
}

// writeTimeout bounds one store write made by a table. Writes do not follow
// the caller's context: a write once begun is finished, so a table's memory
// and its store never disagree.
const writeTimeout = 15 * time.Second

// Manager runs every open and live table. Each table's state is owned by one
// goroutine; the Manager's methods send it requests and wait for the answer.
type Manager struct {
	st    storage
	hooks Hooks
	clock clocks.Clock
	log   *slog.Logger
	stats stats

	// ctx is the tables' lifetime: it ends with New's context or Close.
	ctx    context.Context
	cancel context.CancelFunc
	// tables counts the tables' goroutines and their outboxes' senders;
	// all counts those and the writer, which outlives the tables.
	tables sync.WaitGroup
	all    sync.WaitGroup
	// writers are the group commits, each for a shard of the games.
	writers []*writer
	// tablesDone is closed once the tables have stopped.
	tablesDone chan struct{}

	mu      sync.RWMutex
	running map[string]*table
	closed  bool

	// finished keeps the final state of games recently over or read.
	finished *finished
	// open counts the tables waiting for players (see holdOpen).
	open openCaps
	// capacity says when the node is full (see capacity.go).
	capacity *capacity
	// aliveTrouble is the alive mark's run of failed writes.
	aliveTrouble trouble
	// rematches links a finished game to the one its players opened next
	// (see rematch.go).
	rematchMu sync.Mutex
	rematches map[string]string

	// cl is the node's part in a cluster (its lease and claims), nil on a
	// single server; leaseTrouble is its renewals' run of failures.
	cl           *clusterNode
	leaseTrouble trouble
	// loaded is set once the games are rebuilt (Ready).
	loaded atomic.Bool
}

// New makes the tables' runtime and starts nothing: Connect gives it its
// hooks, then StartTables starts it, loading the open games and rebuilding
// every live one from its log, its deadlines and bot decisions re-armed.
// The tables' goroutines end when ctx ends or Close is called.
func New(ctx context.Context, cfg Config) (*Manager, error) {
	if cfg.Store == nil {
		return nil, errors.New("live: no store")
	}
	return newManager(ctx, cfg, cfg.Store)
}

func newManager(ctx context.Context, cfg Config, st storage) (*Manager, error) {
	m := &Manager{st: st, clock: cfg.Clock, log: cfg.Logger, running: map[string]*table{},
		tablesDone: make(chan struct{}), finished: newFinished(finishedGames),
		open: newOpenCaps(cfg.MaxOpen, cfg.MaxOpenPerAddress), capacity: newCapacity(cfg.MaxLateness)}
	if m.clock == nil {
		m.clock = clocks.Real{}
	}
	if m.log == nil {
		m.log = slog.New(slog.DiscardHandler)
	}
	if cfg.Node != nil {
		var err error
		if m.cl, err = newClusterNode(*cfg.Node, st); err != nil {
			return nil, err
		}
		m.log = m.log.With(slog.String("node", cfg.Node.Name))
	}
	m.ctx, m.cancel = context.WithCancel(ctx)
	if bs, ok := st.(batchStore); ok {
		for range bs.Writers() {
			m.writers = append(m.writers, &writer{st: bs, clock: m.clock, context: m.writeContext, timed: &m.stats.commits,
				one: st.AppendAction, queued: m.queued, reqs: make(chan writeReq)})
		}
	}
	return m, nil
}

// Connect gives the tables their hooks. Call it at most once, before
// StartTables: the tables read the hooks from then on without a lock.
func (m *Manager) Connect(h Hooks) { m.hooks = h }

// StartTables starts the tables: it rebuilds every unfinished game from the store
// (in a cluster, takes the node's lease and claims its games, its own back
// first), so each table runs and publishes from then on. Call it once, after
// Connect, once whatever the hooks call is ready to be called: a node
// restarted under its own name publishes its games at once.
func (m *Manager) StartTables() error {
	for _, w := range m.writers {
		m.all.Go(w.run)
	}
	// The writer stops once the tables, its only users, have stopped. No
	// table starts once closed is set, so the Wait can't race an add.
	m.all.Go(func() {
		<-m.ctx.Done()
		m.mu.Lock()
		m.closed = true
		m.mu.Unlock()
		m.tables.Wait()
		close(m.tablesDone)
		for _, w := range m.writers {
			close(w.reqs)
		}
	})
	load := m.load
	if m.cl != nil {
		// A node's games come by claims; its lease is its alive mark.
		load = m.loadCluster
	}
	if err := load(m.ctx); err != nil {
		m.cancel()
		m.all.Wait()
		return err
	}
	if m.cl == nil {
		// Only once every live game has been rebuilt from the last mark.
		m.all.Go(m.keepAlive)
	}
	m.loaded.Store(true)
	return nil
}

// Close stops every table goroutine once its in-flight request and writes are
// done, and every Publisher call under way has returned. It gives up when ctx
// ends.
func (m *Manager) Close(ctx context.Context) error {
	m.mu.Lock()
	m.closed = true
	m.mu.Unlock()
	m.cancel()
	done := make(chan struct{})
	go func() {
		m.all.Wait()
		close(done)
	}()
	select {
	case <-done:
		return nil
	case <-ctx.Done():
		return fmt.Errorf("live: close: %w", ctx.Err())
	}
}

// appendAction stores an action, through the group commit when the store
// has one, bounded by writeTimeout (see writeContext).
func (m *Manager) appendAction(a store.Action) error {
	if len(m.writers) == 0 {
		ctx, cancel := m.writeContext()
		defer cancel()
		return m.st.AppendAction(ctx, a)
	}
	return m.writers[shardOf(a.GameID, len(m.writers))].append(a)
}

// writeContext bounds one write: it follows not the caller's context but
// the Manager's, without its cancelling, since a write once begun is
// finished, so a table's memory and its store never disagree.
func (m *Manager) writeContext() (context.Context, context.CancelFunc) {
	return context.WithTimeout(context.WithoutCancel(m.ctx), writeTimeout)
}

// table is the running table for id, or nil when it is not running (over,
// or never existed).
func (m *Manager) table(id string) (*table, error) {
	m.mu.RLock()
	defer m.mu.RUnlock()
	if m.closed || m.ctx.Err() != nil {
		return nil, errClosed
	}
	return m.running[id], nil
}

// add registers t and starts its goroutines. A cluster's Watch hears of it
// first, so it always hears of the table's end after.
func (m *Manager) add(t *table) error {
	m.watch(t.id, true)
	m.mu.Lock()
	if m.closed {
		m.mu.Unlock()
		m.watch(t.id, false)
		return errClosed
	}
	m.running[t.id] = t
	m.countOpen(t)
	m.tables.Go(func() { t.run(m.ctx) })
	m.mu.Unlock()
	return nil
}

// watch tells a cluster's Watch that game's table started or stopped here.
func (m *Manager) watch(game string, running bool) {
	if m.cl != nil && m.hooks.Watch != nil {
		m.hooks.Watch(game, running)
	}
}

// remove unregisters t as its goroutine stops. A game stored as over hands
// its final state to the finished games first, so a reader always finds
// the one or the other and never replays a game just over.
func (m *Manager) remove(t *table) {
	stored := t.game.Status == game.StatusFinished || t.game.Status == game.StatusEnded
	if stored && t.state != nil && t.state.Over() {
		m.finished.put(t.id, t.state)
	}
	m.leftOpen(t)
	m.mu.Lock()
	mine := m.running[t.id] == t
	if mine {
		delete(m.running, t.id)
	}
	m.mu.Unlock()
	if mine {
		m.watch(t.id, false)
	}
}

// do runs fn on the goroutine of table id and returns its error. running is
// false when no table by that id is running, and fn was not run: the game is
// over or does not exist.
func (m *Manager) do(ctx context.Context, id string, fn func(t *table) error) (running bool, err error) {
	return m.doThen(ctx, id, fn, nil)
}

// doThen is do, with then run at the table once fn has run and the table
// has settled (published what changed), before the reply.
func (m *Manager) doThen(ctx context.Context, id string, fn func(t *table) error, then func(t *table)) (running bool, err error) {
	for {
		t, err := m.table(id)
		if err != nil {
			return true, err
		}
		if t == nil {
			return false, nil
		}
		r := request{at: m.clock.Now(), fn: fn, reply: make(chan error, 1), taken: new(atomic.Bool), then: then}
		select {
		case t.inbox <- r:
		case <-t.done:
			continue // it just ended: look again
		case <-ctx.Done():
			return true, ctx.Err()
		}
		select {
		case err := <-r.reply:
			return true, err
		case <-ctx.Done():
			// fn never runs, or else it may still be running: see gaveUp.
			r.taken.CompareAndSwap(false, true)
			return true, ctx.Err()
		}
	}
}

// gaveUp reports whether do returned err as its caller's context ended,
// when fn may yet be running: the caller must read nothing fn writes.
func gaveUp(ctx context.Context, err error) bool {
	return err != nil && ctx.Err() != nil && errors.Is(err, ctx.Err())
}

// Create opens a new table; the host takes seat 0.
func (m *Manager) Create(ctx context.Context, req game.CreateRequest) (game.Joined, error) {
	g, seats, token, err := m.newGame(req)
	if err != nil {
		return game.Joined{}, err
	}
	if req.HostPlayer == 0 {
		if err := m.guestName(ctx, seats[0].Name); err != nil {
			return game.Joined{}, err
		}
	}
	if err := m.ensureOpen(); err != nil {
		return game.Joined{}, err
	}
	if err := m.admit(); err != nil {
		return game.Joined{}, err
	}
	if m.cl != nil {
		// A node that is draining, or unsure of its lease, opens none.
		if !m.cl.serving() {
			return game.Joined{}, errClosed
		}
		g.Owner, g.Epoch = m.cl.cfg.Name, 1
	}
	addr := ratelimit.AddressKey(req.Address)
	release, err := m.holdOpen(addr)
	if err != nil {
		return game.Joined{}, err
	}
	// Held until the table is running, where holdOpen counts it.
	defer release()
	for tries := 0; ; tries++ {
		g.ID, err = naming.NewGameID()
		if err != nil {
			return game.Joined{}, m.unsaved("", err)
		}
		err = m.st.CreateGame(ctx, g, seats)
		if !errors.Is(err, store.ErrDuplicate) || tries == 5 {
			break
		}
	}
	if err != nil {
		return game.Joined{}, m.unsaved(g.ID, err)
	}
	t := m.newTable(*g, seats)
	t.addr = addr
	sum := t.summary()
	if err := m.add(t); err != nil {
		return game.Joined{}, err
	}
	return game.Joined{Game: sum, Seat: 0, Token: token}, nil
}

func (m *Manager) ensureOpen() error {
	m.mu.RLock()
	defer m.mu.RUnlock()
	if m.closed || m.ctx.Err() != nil {
		return errClosed
	}
	return nil
}
