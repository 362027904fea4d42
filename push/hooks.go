package push

import (
	"context"

	"bullshit/game"
)

// Hooks are what the Hub calls above it: the lobby's renderer (the pages,
// which serve the Hub's streams) and, on a node of a cluster, who follows
// the frames of tables run elsewhere (the cluster's Relay, which publishes
// into the Hub). Both are built over the Hub, so they are given after New
// and before Run or the first stream, by Connect.
type Hooks struct {
	// Lobby renders the lobby's lists, sent to every lobby stream after a
	// table opens, fills, starts or ends. Nil: no lobby streams.
	Lobby func(ctx context.Context) (Event, error)
	// Watch, if set, is told when a game's seat (engine.Spectator's too)
	// gets its first stream and when its last stream is gone: a node of a
	// cluster that does not run the game follows the seat's frames from
	// the node that does while someone watches here. token is the seat's
	// token the stream's request was authenticated with ("" for none), for
	// the follower's reads; a later stream with another token (the start
	// numbered the seats afresh) tells it again. epoch is the owner epoch
	// of the frame the stream started from (a frame of a later one counts
	// its revisions afresh: see Restamp). It is called with the Hub's lock
	// held, so it must neither block nor call the Hub.
	Watch func(game string, seat int, token string, epoch int64, watching bool)
	// Lobbied, if set, is told when a table this node runs changes in a
	// way the lobby's lists show, so the other nodes of a cluster refresh
	// theirs (through NoteTable). It is called from Publish.
	Lobbied func(game string, s game.Summary)
}

// Connect gives the Hub its hooks. Call it at most once, before Run and
// before any stream is served or frame published: the Hub reads them from
// then on without a lock.
func (h *Hub) Connect(hooks Hooks) { h.hooks = hooks }
