package cluster

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"bullshit/game"

	"github.com/nats-io/nats.go"
)

// LocalHub is what a Relay needs of the node's push hub.
type LocalHub interface {
	game.Publisher
	// Restamp lets the game's streams take the next frame whatever its
	// revision (a new owner's revisions count afresh).
	Restamp(game string)
	// NoteTable tells the lobby of a change to a table run elsewhere.
	NoteTable(game string, s game.Summary)
}

// RelayConfig configures a Relay. Zero durations take the defaults.
type RelayConfig struct {
	Hub     LocalHub
	Conn    *nats.Conn
	Service *Service
	Logger  *slog.Logger
	// Epoch reads a game's epoch from the store: a frame stamped with a
	// later one was not made by a node that owned the table, and is
	// dropped. Nil (a test's) takes every epoch.
	Epoch func(ctx context.Context, game string) (int64, error)
	// Interested reports whether any node follows a subject (the embedded
	// NATS server's interest, routes' included): a seat's frame is
	// published only then, so its hand is on the wire only for a node that
	// streams it. Nil publishes every frame.
	Interested func(subject string) bool
	// Quiet is how long a followed seat may go without a frame before its
	// frame is read afresh from the owner: NATS may have dropped the last
	// one, and nothing after it would show the gap.
	Quiet time.Duration
}

// DefaultQuiet is short enough that a lost frame costs a person a few
// seconds at worst, and long enough that a seat whose table waits costs
// its owner one read per watching node that often.
const DefaultQuiet = 5 * time.Second

// firstRead is how soon a seat just followed is read afresh: frames the
// owner published before its server learnt of the new subscription were
// never sent here.
const firstRead = 200 * time.Millisecond

// Relay is the node's game.Publisher: it hands every frame of the tables
// it runs to the local hub, and publishes it on the seat's subject stamped
// (game, epoch, revision) for the nodes where someone follows that seat.
// While the hub has a stream for a game and seat (see push.Hooks' Watch),
// it follows that seat's subject and hands the hub what is newer than what
// it had; a gap, a new epoch or a quiet spell makes it read the seat's
// frame afresh through the Service. So a lost message costs only time.
type Relay struct {
	hub        LocalHub
	conn       *nats.Conn
	tables     *Service
	log        *slog.Logger
	quiet      time.Duration
	ctx        context.Context
	epoch      func(ctx context.Context, game string) (int64, error)
	interested func(subject string) bool

	mu        sync.Mutex
	followers map[seatKey]*follower
	// epochs is the latest epoch each game's frames were seen in, here or
	// from its owner: a newer one restamps the game's streams.
	epochs map[string]int64
	wg     sync.WaitGroup

	published, received, stale, reads, forged atomic.Int64
	// drop, in tests, is shown every frame about to reach NATS, and loses
	// those it says, as NATS may.
	drop atomic.Pointer[func(game string, f game.Frame) bool]
}

type seatKey struct {
	game string
	seat int
}

// stamp orders a game's frames: by epoch, then by revision.
type stamp struct {
	epoch    int64
	revision int
}

func (s stamp) after(o stamp) bool {
	return s.epoch > o.epoch || s.epoch == o.epoch && s.revision > o.revision
}

// frameMsg is a frame on the wire.
type frameMsg struct {
	Game     string     `json:"game"`
	Epoch    int64      `json:"epoch"`
	Revision int        `json:"revision"`
	Frame    game.Frame `json:"frame"`
}

// NewRelay makes a node's Relay; its followers stop when ctx ends (see
// Wait).
func NewRelay(ctx context.Context, cfg RelayConfig) *Relay {
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	if cfg.Quiet <= 0 {
		cfg.Quiet = DefaultQuiet
	}
	r := &Relay{hub: cfg.Hub, conn: cfg.Conn, tables: cfg.Service, log: cfg.Logger, quiet: cfg.Quiet, ctx: ctx,
		epoch: cfg.Epoch, interested: cfg.Interested,
		followers: make(map[seatKey]*follower), epochs: make(map[string]int64)}
	if sub, err := r.conn.Subscribe(lobbySubject, r.noted); err != nil {
		r.log.Warn("following the other nodes' lobby changes", "err", err)
	} else {
		context.AfterFunc(ctx, func() { _ = sub.Unsubscribe() })
	}
	return r
}

// lobbySubject carries the changes to tables that the lobby's lists show.
const lobbySubject = "bullshit.lobby"

// lobbyMsg is a table's summary after a change the lobby shows.
type lobbyMsg struct {
	Game    string       `json:"game"`
	Summary game.Summary `json:"summary"`
}

// Lobbied is the hub's Lobbied: a table run here changed in a way the
// lobby shows, which the other nodes' lobbies are told.
func (r *Relay) Lobbied(game string, s game.Summary) {
	if !r.tables.runs(game) {
		return // a table followed from elsewhere: its owner tells
	}
	body, err := json.Marshal(lobbyMsg{Game: game, Summary: s})
	if err != nil {
		r.log.Error("encoding a lobby change", "game", game, "err", err)
		return
	}
	_ = r.conn.Publish(lobbySubject, body)
}

// noted takes another node's lobby change to the local hub.
func (r *Relay) noted(m *nats.Msg) {
	var msg lobbyMsg
	if err := json.Unmarshal(m.Data, &msg); err != nil {
		r.log.Warn("an unreadable lobby change from another node", "err", err)
		return
	}
	r.hub.NoteTable(msg.Game, msg.Summary)
}

var _ game.Publisher = (*Relay)(nil)

// Publish hands a local table's frame to the hub and to the other nodes.
func (r *Relay) Publish(game string, f game.Frame) {
	r.deliver(game, f.Epoch, f)
	if stoppedHere(f) {
		return
	}
	body, err := json.Marshal(frameMsg{Game: game, Epoch: f.Epoch, Revision: f.Revision, Frame: f})
	if err != nil {
		r.log.Error("encoding a frame for the other nodes", "game", game, "err", err)
		return
	}
	subject := frameSubject(game, f.Seat)
	if r.interested != nil && !r.interested(subject) {
		return
	}
	if drop := r.drop.Load(); drop != nil && (*drop)(game, f) {
		return
	}
	r.published.Add(1)
	// A publish fails only on a closed connection: the node is stopping.
	_ = r.conn.Publish(subject, body)
}

// stoppedHere reports whether f is the last frame of a table stopped with
// its node while its game goes on: the node's own streams end with it, but
// the other nodes' follow the game to its next owner.
func stoppedHere(f game.Frame) bool {
	return f.Final && (f.Game.Status == game.StatusOpen || f.Game.Status == game.StatusLive)
}

// Close ends a local game's streams. The other nodes end theirs on the
// game's final frames.
func (r *Relay) Close(game string) {
	r.hub.Close(game)
	r.mu.Lock()
	delete(r.epochs, game)
	r.mu.Unlock()
}

// deliver hands f to the hub, restamping the game's streams first when its
// epoch is newer than any seen.
func (r *Relay) deliver(game string, epoch int64, f game.Frame) {
	r.mu.Lock()
	last, known := r.epochs[game]
	if !known || epoch > last {
		r.epochs[game] = epoch
	}
	r.mu.Unlock()
	if known && epoch > last {
		r.hub.Restamp(game)
	}
	r.hub.Publish(game, f)
}

// Follow is the hub's Watch: it follows a seat from its owner while the
// hub has a stream for it, reading it afresh with token (the seat's, ""
// for the spectator's). epoch is that of the frame the stream started
// from: a later one restamps the game's streams. It is called with the
// hub's lock held, so it only starts or stops the follower.
func (r *Relay) Follow(game string, seat int, token string, epoch int64, watching bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	k := seatKey{game, seat}
	fl := r.followers[k]
	switch {
	case watching && fl != nil && token != "":
		fl.token.Store(&token)
	case watching && fl == nil && r.ctx.Err() == nil:
		ctx, cancel := context.WithCancel(r.ctx)
		fl = &follower{relay: r, key: k, cancel: cancel, kick: make(chan struct{}, 1), heard: make(chan struct{}, 1)}
		if token != "" {
			fl.token.Store(&token)
		}
		if _, ok := r.epochs[game]; !ok {
			r.epochs[game] = epoch
		}
		sub, err := r.conn.Subscribe(frameSubject(game, seat), fl.receive)
		if err != nil {
			// Reading afresh every Quiet still keeps the stream right.
			r.log.Warn("following a seat over NATS", "game", game, "seat", seat, "err", err)
		}
		fl.sub = sub
		r.followers[k] = fl
		r.wg.Go(func() { fl.run(ctx) })
	case !watching && fl != nil:
		delete(r.followers, k)
		fl.stop()
	}
}

// Wait waits for the followers, which end with NewRelay's context.
func (r *Relay) Wait() { r.wg.Wait() }

// RelayStats counts the frames published for other nodes, those received
// from them, those dropped as stale, the frames read afresh, and those
// dropped for an epoch the store has not reached.
type RelayStats struct{ Published, Received, Stale, Reads, Forged int64 }

// Stats counts the frames so far.
func (r *Relay) Stats() RelayStats {
	return RelayStats{Published: r.published.Load(), Received: r.received.Load(), Stale: r.stale.Load(),
		Reads: r.reads.Load(), Forged: r.forged.Load()}
}

// errForgedEpoch: a frame's epoch is later than the store's for its game.
var errForgedEpoch = errors.New("a frame stamped with an epoch the store has not reached")

// checkEpoch refuses a frame of game stamped with an epoch later than both
// the one its streams have and the store's: no node that owned the table
// made it.
func (r *Relay) checkEpoch(ctx context.Context, game string, epoch int64) error {
	r.mu.Lock()
	last, known := r.epochs[game]
	r.mu.Unlock()
	if known && epoch <= last || r.epoch == nil {
		return nil
	}
	stored, err := r.epoch(ctx, game)
	if err != nil {
		return err
	}
	if epoch > stored {
		r.forged.Add(1)
		r.log.Warn("a frame stamped with an epoch the store has not reached: dropped", "game", game, "epoch", epoch, "stored", stored)
		return errForgedEpoch
	}
	return nil
}

// final notes that seat's stream has its game's final frame: once every
// followed seat of the game has one, the game's streams here are ended;
// until then the others are read afresh, so none ends without its own.
func (r *Relay) final(game string) {
	r.mu.Lock()
	var followers []*follower
	for k, fl := range r.followers {
		if k.game == game {
			followers = append(followers, fl)
		}
	}
	r.mu.Unlock()
	// The followers' locks are taken without the Relay's own: a follower
	// holds its own while it hands the hub a frame (see receive).
	var others []*follower
	for _, fl := range followers {
		if !fl.isFinal() {
			others = append(others, fl)
		}
	}
	if len(others) == 0 {
		r.mu.Lock()
		delete(r.epochs, game)
		r.mu.Unlock()
		r.hub.Close(game)
		return
	}
	for _, fl := range others {
		fl.poke()
	}
}
