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

// LocalHub is what Frames needs of the node's push hub.
type LocalHub interface {
	game.Publisher
	// Restamp lets the game's streams take the next frame whatever its
	// revision (a new owner's revisions count afresh).
	Restamp(game string)
	// NoteTable tells the lobby of a change to a table run elsewhere.
	NoteTable(game string, s game.Summary)
}

// FramesConfig configures Frames. Zero durations take the defaults.
type FramesConfig struct {
	Hub    LocalHub
	Conn   *nats.Conn
	Tables *Tables
	Logger *slog.Logger
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

// Frames is the node's game.Publisher: it hands every frame of the tables
// it runs to the local hub, and publishes it on the seat's subject stamped
// (game, epoch, revision) for the nodes where someone follows that seat.
// While the hub has a stream for a game and seat (see push.Hooks' Watch),
// it follows that seat's subject and hands the hub what is newer than what
// it had; a gap, a new epoch or a quiet spell makes it read the seat's
// frame afresh through Tables. So a lost message costs only time.
type Frames struct {
	hub        LocalHub
	conn       *nats.Conn
	tables     *Tables
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

// NewFrames makes a node's Frames; its followers stop when ctx ends (see
// Wait).
func NewFrames(ctx context.Context, cfg FramesConfig) *Frames {
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	if cfg.Quiet <= 0 {
		cfg.Quiet = DefaultQuiet
	}
	fs := &Frames{hub: cfg.Hub, conn: cfg.Conn, tables: cfg.Tables, log: cfg.Logger, quiet: cfg.Quiet, ctx: ctx,
		epoch: cfg.Epoch, interested: cfg.Interested,
		followers: make(map[seatKey]*follower), epochs: make(map[string]int64)}
	if sub, err := fs.conn.Subscribe(lobbySubject, fs.noted); err != nil {
		fs.log.Warn("following the other nodes' lobby changes", "err", err)
	} else {
		context.AfterFunc(ctx, func() { _ = sub.Unsubscribe() })
	}
	return fs
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
func (fs *Frames) Lobbied(game string, s game.Summary) {
	if !fs.tables.runs(game) {
		return // a table followed from elsewhere: its owner tells
	}
	body, err := json.Marshal(lobbyMsg{Game: game, Summary: s})
	if err != nil {
		fs.log.Error("encoding a lobby change", "game", game, "err", err)
		return
	}
	_ = fs.conn.Publish(lobbySubject, body)
}

// noted takes another node's lobby change to the local hub.
func (fs *Frames) noted(m *nats.Msg) {
	var msg lobbyMsg
	if err := json.Unmarshal(m.Data, &msg); err != nil {
		fs.log.Warn("an unreadable lobby change from another node", "err", err)
		return
	}
	fs.hub.NoteTable(msg.Game, msg.Summary)
}

var _ game.Publisher = (*Frames)(nil)

// Publish hands a local table's frame to the hub and to the other nodes.
func (fs *Frames) Publish(game string, f game.Frame) {
	fs.deliver(game, f.Epoch, f)
	if stoppedHere(f) {
		return
	}
	body, err := json.Marshal(frameMsg{Game: game, Epoch: f.Epoch, Revision: f.Revision, Frame: f})
	if err != nil {
		fs.log.Error("encoding a frame for the other nodes", "game", game, "err", err)
		return
	}
	subject := frameSubject(game, f.Seat)
	if fs.interested != nil && !fs.interested(subject) {
		return
	}
	if drop := fs.drop.Load(); drop != nil && (*drop)(game, f) {
		return
	}
	fs.published.Add(1)
	// A publish fails only on a closed connection: the node is stopping.
	_ = fs.conn.Publish(subject, body)
}

// stoppedHere reports whether f is the last frame of a table stopped with
// its node while its game goes on: the node's own streams end with it, but
// the other nodes' follow the game to its next owner.
func stoppedHere(f game.Frame) bool {
	return f.Final && (f.Game.Status == game.StatusOpen || f.Game.Status == game.StatusLive)
}

// Close ends a local game's streams. The other nodes end theirs on the
// game's final frames.
func (fs *Frames) Close(game string) {
	fs.hub.Close(game)
	fs.mu.Lock()
	delete(fs.epochs, game)
	fs.mu.Unlock()
}

// deliver hands f to the hub, restamping the game's streams first when its
// epoch is newer than any seen.
func (fs *Frames) deliver(game string, epoch int64, f game.Frame) {
	fs.mu.Lock()
	last, known := fs.epochs[game]
	if !known || epoch > last {
		fs.epochs[game] = epoch
	}
	fs.mu.Unlock()
	if known && epoch > last {
		fs.hub.Restamp(game)
	}
	fs.hub.Publish(game, f)
}

// Follow is the hub's Watch: it follows a seat from its owner while the
// hub has a stream for it, reading it afresh with token (the seat's, ""
// for the spectator's). epoch is that of the frame the stream started
// from: a later one restamps the game's streams. It is called with the
// hub's lock held, so it only starts or stops the follower.
func (fs *Frames) Follow(game string, seat int, token string, epoch int64, watching bool) {
	fs.mu.Lock()
	defer fs.mu.Unlock()
	k := seatKey{game, seat}
	fl := fs.followers[k]
	switch {
	case watching && fl != nil && token != "":
		fl.token.Store(&token)
	case watching && fl == nil && fs.ctx.Err() == nil:
		ctx, cancel := context.WithCancel(fs.ctx)
		fl = &follower{fs: fs, key: k, cancel: cancel, kick: make(chan struct{}, 1), heard: make(chan struct{}, 1)}
		if token != "" {
			fl.token.Store(&token)
		}
		if _, ok := fs.epochs[game]; !ok {
			fs.epochs[game] = epoch
		}
		sub, err := fs.conn.Subscribe(frameSubject(game, seat), fl.receive)
		if err != nil {
			// Reading afresh every Quiet still keeps the stream right.
			fs.log.Warn("following a seat over NATS", "game", game, "seat", seat, "err", err)
		}
		fl.sub = sub
		fs.followers[k] = fl
		fs.wg.Go(func() { fl.run(ctx) })
	case !watching && fl != nil:
		delete(fs.followers, k)
		fl.stop()
	}
}

// Wait waits for the followers, which end with NewFrames' context.
func (fs *Frames) Wait() { fs.wg.Wait() }

// FrameStats counts the frames published for other nodes, those received
// from them, those dropped as stale, the frames read afresh, and those
// dropped for an epoch the store has not reached.
type FrameStats struct{ Published, Received, Stale, Reads, Forged int64 }

// Stats counts the frames so far.
func (fs *Frames) Stats() FrameStats {
	return FrameStats{Published: fs.published.Load(), Received: fs.received.Load(), Stale: fs.stale.Load(),
		Reads: fs.reads.Load(), Forged: fs.forged.Load()}
}

// errForgedEpoch: a frame's epoch is later than the store's for its game.
var errForgedEpoch = errors.New("a frame stamped with an epoch the store has not reached")

// checkEpoch refuses a frame of game stamped with an epoch later than both
// the one its streams have and the store's: no node that owned the table
// made it.
func (fs *Frames) checkEpoch(ctx context.Context, game string, epoch int64) error {
	fs.mu.Lock()
	last, known := fs.epochs[game]
	fs.mu.Unlock()
	if known && epoch <= last || fs.epoch == nil {
		return nil
	}
	stored, err := fs.epoch(ctx, game)
	if err != nil {
		return err
	}
	if epoch > stored {
		fs.forged.Add(1)
		fs.log.Warn("a frame stamped with an epoch the store has not reached: dropped", "game", game, "epoch", epoch, "stored", stored)
		return errForgedEpoch
	}
	return nil
}

// final notes that seat's stream has its game's final frame: once every
// followed seat of the game has one, the game's streams here are ended;
// until then the others are read afresh, so none ends without its own.
func (fs *Frames) final(game string) {
	fs.mu.Lock()
	var followers []*follower
	for k, fl := range fs.followers {
		if k.game == game {
			followers = append(followers, fl)
		}
	}
	fs.mu.Unlock()
	// The followers' locks are taken without Frames' own: a follower
	// holds its own while it hands the hub a frame (see receive).
	var others []*follower
	for _, fl := range followers {
		if !fl.isFinal() {
			others = append(others, fl)
		}
	}
	if len(others) == 0 {
		fs.mu.Lock()
		delete(fs.epochs, game)
		fs.mu.Unlock()
		fs.hub.Close(game)
		return
	}
	for _, fl := range others {
		fl.poke()
	}
}
