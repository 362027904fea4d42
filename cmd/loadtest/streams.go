package main

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"bullshit/api"
	"bullshit/engine"
	"bullshit/game"
	"bullshit/push"
	"bullshit/server"
	"bullshit/web"
)

// streams follows every seat's event stream of one format on the server's
// own routes, and tells a follower (readers in this process, or in another
// through followPath) which games to follow and when the measuring window
// opens and closes. It is the server's Observer: it notes when each seat's
// frame was published, and its stamped wraps the format's encoder, which
// marks that moment on the event's id.
type streams struct {
	next   game.Publisher // told of every frame and closing too (the counter)
	format string
	to     follower

	mu        sync.Mutex
	published map[seatKey]stamp
}

// follower is told what to follow and when to measure.
type follower interface {
	// follow follows every seat of a game, each with its token (tokens[i]
	// is seat i's).
	follow(ctx context.Context, game string, tokens []string) error
	measure()
	stop()
}

type seatKey struct {
	game string
	seat int
}

// stamp is a seat's newest frame's revision and when it was published.
type stamp struct {
	revision int
	at       time.Time
}

// newStreams makes the streams of format, telling next of every frame.
func newStreams(format string, next game.Publisher) (*streams, error) {
	if format != api.FormatJSON && format != web.FormatHTML {
		return nil, fmt.Errorf("no stream format %q: json or html", format)
	}
	return &streams{next: next, format: format, published: map[seatKey]stamp{}}, nil
}

// serve serves the server's own router, site.Handler (the API under
// /api/v1, the pages, their event streams), until ctx ends: on listen for a
// reader in another process, beside the load test's control route
// followPath, or, if listen is "", on a loopback port of its own for
// readers in this one. The readers open each seat's stream on the server's
// route for its format with the seat's token, as programs and browsers do,
// so the routes' authentication and stream counting are in every figure.
func (s *streams) serve(ctx context.Context, listen string, site *server.Site) error {
	addr := listen
	if listen == "" {
		addr = "127.0.0.1:0"
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	handler := site.Handler
	if listen == "" {
		s.to = newReaders("http://"+ln.Addr().String(), s.format)
	} else {
		a := newAnnouncer(s.format)
		handler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.URL.Path == followPath {
				a.ServeHTTP(w, r)
				return
			}
			site.Handler.ServeHTTP(w, r)
		})
		s.to = a
	}
	srv := &http.Server{Handler: handler, ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = srv.Serve(ln) }()
	context.AfterFunc(ctx, func() { _ = srv.Close() })
	return nil
}

// stamped is the server's Stamp: the streams' format's encoder with the
// moment its frame was published after an "@" at the end of the event's
// id, when the frame is its seat's newest published one (not one read as a
// client connects). Other formats' encoders stay as they are.
func (s *streams) stamped(format string, enc push.Encoder) push.Encoder {
	if format != s.format {
		return enc
	}
	return push.EncoderFunc(func(f game.Frame, now time.Time) (push.Event, bool, error) {
		ev, ok, err := enc.Encode(f, now)
		if !ok || err != nil {
			return ev, ok, err
		}
		s.mu.Lock()
		st, found := s.published[seatKey{f.Game.ID, f.Seat}]
		s.mu.Unlock()
		if found && st.revision == f.Revision {
			ev.ID += "@" + strconv.FormatInt(st.at.UnixNano(), 10)
		}
		return ev, true, nil
	})
}

// Publish notes when each seat's frame was published (just before the hub
// is told of it).
func (s *streams) Publish(game string, f game.Frame) {
	if f.Seat != engine.Spectator {
		s.mu.Lock()
		s.published[seatKey{game, f.Seat}] = stamp{f.Revision, time.Now()}
		s.mu.Unlock()
	}
	s.next.Publish(game, f)
}

// Close forgets the game's seats.
func (s *streams) Close(game string) {
	s.next.Close(game)
	s.mu.Lock()
	defer s.mu.Unlock()
	for k := range s.published {
		if k.game == game {
			delete(s.published, k)
		}
	}
}

// awaitReader waits for the reader in another process to connect.
func (s *streams) awaitReader(ctx context.Context) error {
	a, ok := s.to.(*announcer)
	if !ok {
		return nil
	}
	select {
	case <-a.connected:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// report prints the events' timings, or where they are.
func (s *streams) report() {
	if r, ok := s.to.(*readers); ok {
		r.report()
		return
	}
	fmt.Printf("%s events:         timed by the reader process\n", s.format)
}

// followPath is the load test's one route of its own, beside the server's:
// the reader in another process follows the load test there.
const followPath = "/loadtest/follow"

// announcer is the follower in another process: it sends it, over
// followPath, the streams' format, each game to follow with its seats'
// tokens, and the window's start and end, a line each.
type announcer struct {
	lines     chan string
	connected chan struct{} // closed when the reader has connected
	once      sync.Once
}

func newAnnouncer(format string) *announcer {
	a := &announcer{lines: make(chan string, 1<<16), connected: make(chan struct{})}
	a.lines <- "format " + format
	return a
}

var errFollowed = errors.New("a reader already follows this load test")

// ServeHTTP sends the lines to the one reader, and keeps its connection
// open until the load test ends, so the reader keeps its streams open as
// long.
func (a *announcer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	first := false
	a.once.Do(func() { first = true })
	if !first {
		http.Error(w, errFollowed.Error(), http.StatusConflict)
		return
	}
	close(a.connected)
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.WriteHeader(http.StatusOK)
	flush := http.NewResponseController(w)
	for {
		select {
		case <-r.Context().Done():
			return
		case line := <-a.lines:
			if _, err := fmt.Fprintln(w, line); err != nil {
				return
			}
			_ = flush.Flush()
		}
	}
}

// follow announces a game and its seats' tokens, in seat order.
func (a *announcer) follow(ctx context.Context, game string, tokens []string) error {
	select {
	case a.lines <- strings.Join(append([]string{"game", game}, tokens...), " "):
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (a *announcer) measure() { a.lines <- "measure" }

func (a *announcer) stop() { a.lines <- "stop" }
