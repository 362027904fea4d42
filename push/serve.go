package push

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"time"

	"bullshit/game"

	"github.com/labstack/echo/v4"
)

// Serve streams a seat's frames in format until the client goes, the game
// ends or the Hub stops. f is the frame when the client connected; fresh, if
// not nil, reads it again once the stream exists, since a change published
// between the first reading and the attaching reached no stream. A game that
// is over gets its final frame alone. The seat's token in the request's
// context (game.WithToken) is the stream's, told to Config.Watch.
func (h *Hub) Serve(c echo.Context, id string, seat int, format string, f game.Frame, fresh func() (game.Frame, error)) error {
	enc := h.cfg.Formats[format]
	if enc == nil {
		return errNoFormat
	}
	// A finished id's frame is rebuilt from the store, numbered apart
	// from the live table's: it is never taken from a stream.
	ev, ok := Event{}, false
	if !f.Final {
		ev, ok = h.encoded(id, seat, format, f.Revision)
	}
	if !ok {
		var err error
		if ev, ok, err = enc.Encode(f, h.clock()); err != nil {
			return err
		}
		if !ok {
			ev = Event{}
		}
	}
	if f.Final {
		return serveOnce(c, ev)
	}
	token, _ := game.TokenFrom(c.Request().Context())
	name, err := h.attach(id, seat, token, format, ev, f.Epoch, f.Revision, f.View == nil)
	if err == errGameClosed {
		return serveOnce(c, ev)
	}
	if err != nil {
		return err
	}
	if fresh != nil {
		if nf, err := fresh(); err == nil {
			h.Publish(id, nf)
		}
	}
	return h.run(c, name)
}

// encoded is the event another stream of the seat in format has for the
// frame of revision rev, if any: clients that come to a seat together (a
// crowd of spectators) cost one encoding. Only the same frame will do: a
// later one may be another person's (the start numbers the seats afresh).
func (h *Hub) encoded(game string, seat int, format string, rev int) (Event, bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for _, st := range h.watched[watchKey(game, seat)] {
		if st.format == format && st.rev == rev {
			return st.event, true
		}
	}
	return Event{}, false
}

// ServeLobby streams the lobby's lists until the client goes or the Hub
// stops.
func (h *Hub) ServeLobby(c echo.Context) error {
	if h.hooks.Lobby == nil {
		return errNoLobby
	}
	ev, err := h.hooks.Lobby(c.Request().Context())
	if err != nil {
		return err
	}
	name, err := h.attach("", 0, "", "lobby", ev, 0, 0, false)
	if err != nil {
		return err
	}
	return h.run(c, name)
}

// run hands the connection to the library on stream name.
func (h *Hub) run(c echo.Context, name string) error {
	ctx, cancel := context.WithCancel(c.Request().Context())
	defer cancel()
	defer context.AfterFunc(h.ctx, cancel)()

	// The library reads the stream's name from the query: it is set here,
	// never taken from the client, and nothing the client sent is replayed.
	r := c.Request().Clone(ctx)
	r.URL.RawQuery = url.Values{"stream": {name}}.Encode()
	r.Header.Del("Last-Event-ID")
	w := newDeadlineWriter(c.Response(), h.cfg.WriteTimeout)
	// The server's read and write timeouts are for ordinary requests: a
	// stream lives on, with a deadline per write instead.
	if err := w.rc.SetWriteDeadline(time.Time{}); err != nil {
		h.log.Debug("clearing the write deadline", "err", err)
	}
	if err := w.rc.SetReadDeadline(time.Time{}); err != nil {
		h.log.Debug("clearing the read deadline", "err", err)
	}
	h.srv.ServeHTTP(w, r)
	return nil
}

// serveOnce answers a finished game's stream with its final event alone.
func serveOnce(c echo.Context, ev Event) error {
	hd := c.Response().Header()
	hd.Set(echo.HeaderContentType, "text/event-stream")
	hd.Set("Cache-Control", "no-cache")
	c.Response().WriteHeader(http.StatusOK)
	var b strings.Builder
	if ev.ID != "" {
		b.WriteString("id: " + ev.ID + "\n")
	}
	if ev.Name != "" {
		b.WriteString("event: " + ev.Name + "\n")
	}
	for line := range strings.Lines(strings.ReplaceAll(string(ev.Data), "\r\n", "\n")) {
		b.WriteString("data: " + strings.TrimSuffix(line, "\n") + "\n")
	}
	b.WriteString("\n")
	_, err := c.Response().Write([]byte(b.String()))
	return err
}

// deadlineWriter gives each write to a subscriber its own deadline, so a
// client that stops reading is dropped instead of holding its stream.
type deadlineWriter struct {
	http.ResponseWriter
	rc      *http.ResponseController
	timeout time.Duration
}

func newDeadlineWriter(w http.ResponseWriter, timeout time.Duration) *deadlineWriter {
	return &deadlineWriter{ResponseWriter: w, rc: http.NewResponseController(w), timeout: timeout}
}

func (w *deadlineWriter) Write(p []byte) (int, error) {
	_ = w.rc.SetWriteDeadline(time.Now().Add(w.timeout)) // unsupported only on writers that never block
	return w.ResponseWriter.Write(p)
}

func (w *deadlineWriter) Flush() {
	_ = w.rc.SetWriteDeadline(time.Now().Add(w.timeout))
	_ = w.rc.Flush()
}

func (w *deadlineWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }
