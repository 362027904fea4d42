package main

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/labstack/echo/v4"

	"bullshit/api"
	"bullshit/engine"
	"bullshit/game"
	"bullshit/push"
	"bullshit/server"
	"bullshit/web"
)

// streams follows every seat's event stream of one format from the server's
// push hub, and tells a follower (readers in this process, or in another
// through /follow) which games to follow and when the measuring window
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
	follow(ctx context.Context, game string, seats int) error
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

// serve serves every seat's stream from site's hub until ctx ends: on
// listen for a reader in another process, or, if listen is "", on a
// loopback port of its own for readers in this one. The route is the load
// test's own, since the server's serve a seat's stream only to its token
// and the readers follow the bots' seats; the hub, its encoders and the
// frames are the server's.
func (s *streams) serve(ctx context.Context, listen string, site *server.Site) error {
	e := echo.New()
	e.HideBanner, e.HidePort = true, true
	e.GET("/streams/:id/:seat", func(c echo.Context) error {
		id := c.Param("id")
		seat, err := strconv.Atoi(c.Param("seat"))
		if err != nil {
			return echo.ErrNotFound
		}
		read := func() (game.Frame, error) { return site.Manager.Frame(c.Request().Context(), id, seat) }
		f, err := read()
		if err != nil {
			return err
		}
		return site.Hub.Serve(c, id, seat, s.format, f, read)
	})
	addr := listen
	if listen == "" {
		addr = "127.0.0.1:0"
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	base := "http://" + ln.Addr().String()
	if listen == "" {
		s.to = newReaders(base, s.format)
	} else {
		a := newAnnouncer(s.format)
		e.GET("/follow", a.serve)
		s.to = a
	}
	srv := &http.Server{Handler: e, ReadHeaderTimeout: 10 * time.Second}
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

// announcer is the follower in another process: it sends it, over
// /follow, the streams' format, each game to follow and the window's start
// and end, a line each.
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

// serve sends the lines to the one reader, and keeps its connection open
// until the load test ends, so the reader keeps its streams open as long.
func (a *announcer) serve(c echo.Context) error {
	first := false
	a.once.Do(func() { first = true })
	if !first {
		return echo.NewHTTPError(http.StatusConflict, errFollowed.Error())
	}
	close(a.connected)
	w := c.Response()
	w.Header().Set(echo.HeaderContentType, "text/plain; charset=utf-8")
	w.WriteHeader(http.StatusOK)
	for {
		select {
		case <-c.Request().Context().Done():
			return nil
		case line := <-a.lines:
			if _, err := fmt.Fprintln(w, line); err != nil {
				return nil
			}
			w.Flush()
		}
	}
}

func (a *announcer) follow(ctx context.Context, game string, seats int) error {
	select {
	case a.lines <- fmt.Sprintf("game %s %d", game, seats):
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (a *announcer) measure() { a.lines <- "measure" }

func (a *announcer) stop() { a.lines <- "stop" }
