package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/labstack/echo/v4"

	"bullshit/api"
	"bullshit/api/push"
	"bullshit/engine"
	"bullshit/live"
	"bullshit/web"
)

// streams follows every seat of every table over an HTTP event stream of one
// format, as browsers (html) or programs (json) would, and times each event
// from the moment its table published the frame to the moment the
// subscriber has read the whole event. It is the Publisher the tables see:
// it notes the time and hands the frame to the real push hub.
type streams struct {
	next   live.Publisher // told of every frame and closing too (the counter)
	hub    *push.Hub
	format string
	// eventID is the id the format's events carry for a frame, the key
	// that ties a frame published to an event read ("" for none).
	eventID func(f live.Frame) string
	base    string
	client  *http.Client

	mu        sync.Mutex
	published map[eventKey]time.Time
	latencies []time.Duration
	bytes     int64
	measuring bool

	wg sync.WaitGroup // the subscribers
}

type eventKey struct {
	game string
	seat int
	id   string
}

// newStreams serves the hub's streams on a loopback port until ctx ends.
func newStreams(ctx context.Context, next live.Publisher, hub *push.Hub, format string, eventID func(live.Frame) string,
	frame func(ctx context.Context, game string, seat int) (live.Frame, error)) (*streams, error) {
	s := &streams{next: next, hub: hub, format: format, eventID: eventID, published: map[eventKey]time.Time{},
		client: &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 100, MaxConnsPerHost: 0}}}
	e := echo.New()
	e.HideBanner, e.HidePort = true, true
	e.GET("/streams/:game/:seat", func(c echo.Context) error {
		game := c.Param("game")
		seat, err := strconv.Atoi(c.Param("seat"))
		if err != nil {
			return echo.ErrNotFound
		}
		read := func() (live.Frame, error) { return frame(c.Request().Context(), game, seat) }
		f, err := read()
		if err != nil {
			return err
		}
		return hub.Serve(c, game, seat, format, f, read)
	})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	s.base = "http://" + ln.Addr().String()
	srv := &http.Server{Handler: e, ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = srv.Serve(ln) }()
	context.AfterFunc(ctx, func() { _ = srv.Close() })
	return s, nil
}

// Publish notes when each seat's frame was published, then publishes it.
func (s *streams) Publish(game string, f live.Frame) {
	if id := s.eventID(f); id != "" && f.Seat != engine.Spectator {
		k := eventKey{game, f.Seat, id}
		now := time.Now()
		s.mu.Lock()
		if _, ok := s.published[k]; !ok {
			s.published[k] = now
		}
		s.mu.Unlock()
	}
	s.hub.Publish(game, f)
	s.next.Publish(game, f)
}

// Close ends the game's streams.
func (s *streams) Close(game string) {
	s.hub.Close(game)
	s.next.Close(game)
}

// follow subscribes to every seat of a game; each subscriber reads until its
// stream ends or ctx does.
func (s *streams) follow(ctx context.Context, game string, seats int) error {
	for seat := range seats {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, fmt.Sprintf("%s/streams/%s/%d", s.base, game, seat), nil)
		if err != nil {
			return err
		}
		resp, err := s.client.Do(req)
		if err != nil {
			return err
		}
		if resp.StatusCode != http.StatusOK {
			resp.Body.Close()
			return fmt.Errorf("stream of %s seat %d: %s", game, seat, resp.Status)
		}
		s.wg.Go(func() {
			defer resp.Body.Close()
			s.read(game, seat, bufio.NewReaderSize(resp.Body, 64<<10))
		})
	}
	return nil
}

// read times every event of one stream as it is read whole.
func (s *streams) read(game string, seat int, r *bufio.Reader) {
	id, size := "", 0
	for {
		line, err := r.ReadString('\n')
		size += len(line)
		if err != nil {
			return
		}
		switch {
		case line == "\n":
			now := time.Now()
			s.mu.Lock()
			k := eventKey{game, seat, id}
			if at, ok := s.published[k]; ok {
				delete(s.published, k)
				if s.measuring {
					s.latencies = append(s.latencies, now.Sub(at))
					s.bytes += int64(size)
				}
			}
			s.mu.Unlock()
			id, size = "", 0
		case strings.HasPrefix(line, "id: "):
			// A browser's event id is the revision, a dot and the time of
			// rendering; the revision ties it to its frame.
			id, _, _ = strings.Cut(strings.TrimSuffix(line[len("id: "):], "\n"), ".")
		}
	}
}

// measure starts (or restarts) the timing, forgetting what came before.
func (s *streams) measure() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.latencies, s.bytes, s.measuring = nil, 0, true
}

// report prints the events' timings.
func (s *streams) report() {
	s.mu.Lock()
	lat := slices.Clone(s.latencies)
	bytes := s.bytes
	s.mu.Unlock()
	if len(lat) == 0 {
		fmt.Printf("%s events read: none\n", s.format)
		return
	}
	slices.Sort(lat)
	q := func(p float64) time.Duration { return lat[min(len(lat)-1, int(float64(len(lat))*p))] }
	fmt.Printf("%s events read:   %d, %.0f bytes each on average\n", s.format, len(lat), float64(bytes)/float64(len(lat)))
	fmt.Printf("%-20s %10d %10v %10v %10v\n", "publish to "+s.format+" event", len(lat),
		q(0.5).Round(time.Microsecond), q(0.99).Round(time.Microsecond), lat[len(lat)-1].Round(time.Microsecond))
}

// wait waits for the subscribers, which end with their streams.
func (s *streams) wait(ctx context.Context) error {
	done := make(chan struct{})
	go func() {
		s.wg.Wait()
		close(done)
	}()
	select {
	case <-done:
		return nil
	case <-ctx.Done():
		return errors.New("the event streams didn't end")
	}
}

// newStreamsFor builds the push hub for format and the streams following it.
func newStreamsFor(ctx context.Context, format string, next live.Publisher, logger *slog.Logger,
	frame func(ctx context.Context, game string, seat int) (live.Frame, error)) (*streams, error) {
	var enc push.Encoder
	var eventID func(live.Frame) string
	switch format {
	case api.FormatJSON:
		enc = api.JSONEncoder
		eventID = func(f live.Frame) string {
			if f.View == nil {
				return ""
			}
			return strconv.Itoa(f.View.Version)
		}
	case "html":
		// A browser's stream: each seat's screen rendered once per change,
		// as the server renders it.
		pages := web.New(web.Config{Logger: logger})
		enc = push.EncoderFunc(pages.FrameEvent)
		eventID = func(f live.Frame) string { return strconv.Itoa(f.Revision) }
	default:
		return nil, fmt.Errorf("no stream format %q: json or html", format)
	}
	hub := push.New(push.Config{Logger: logger, Formats: map[string]push.Encoder{format: enc}})
	go hub.Run(ctx)
	return newStreams(ctx, next, hub, format, eventID, frame)
}
