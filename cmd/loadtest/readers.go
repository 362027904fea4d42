package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"bullshit/web"
)

// readers follow every seat of every game they are told of over an HTTP
// event stream, as browsers (html) or programs (json) would, and time each
// event from the moment its table published the frame (the stamp after "@"
// in its id, see streams.stamped) to the moment the whole event was read.
// Only events read inside the measuring window count, and only those
// published after their stream was open: an earlier one measures the
// connecting, not the push. The server's process and the readers' share the
// machine's clock, so they must run on one machine.
type readers struct {
	base   string // the streams' server, http://host:port
	format string
	client *http.Client

	mu        sync.Mutex
	latencies []time.Duration
	bytes     int64
	measuring bool
	cpu       time.Duration // the process's CPU time when measuring began
	refused   int           // streams the server answered with an error
	why       string        // the first of those answers
	opened    int           // streams the server answered
	seated    int           // of those, the ones that read a frame of their seat

	wg sync.WaitGroup // the subscribers
}

func newReaders(base, format string) *readers {
	return &readers{base: base, format: format,
		client: &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 100}}}
}

// follow subscribes to every seat of a game on the server's route for the
// format, with the seat's token as its client would send it; each
// subscriber reads until its stream ends or ctx does. A stream the server
// refuses or drops before answering (a token refused, a table too slow to
// answer, a full accept queue) is counted, not followed.
func (r *readers) follow(ctx context.Context, game string, tokens []string) error {
	for _, token := range tokens {
		req, err := r.request(ctx, game, token)
		if err != nil {
			return err
		}
		resp, err := r.client.Do(req)
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if err != nil || resp.StatusCode != http.StatusOK {
			why := fmt.Sprint(err)
			if err == nil {
				why = resp.Status
				resp.Body.Close()
			}
			r.mu.Lock()
			if r.refused++; r.why == "" {
				r.why = why
			}
			r.mu.Unlock()
			continue
		}
		r.mu.Lock()
		r.opened++
		r.mu.Unlock()
		opened := time.Now()
		r.wg.Go(func() {
			defer resp.Body.Close()
			r.read(opened, bufio.NewReaderSize(resp.Body, 64<<10))
		})
	}
	return nil
}

// request is the request for a seat's stream, as its client sends it: a
// program (json) asks the API with the token as its bearer, a browser
// (html) asks the pages with the token in the seat's cookie.
func (r *readers) request(ctx context.Context, game, token string) (*http.Request, error) {
	path := "/api/v1/games/" + game + "/events"
	if r.format == web.FormatHTML {
		path = "/games/" + game + "/events"
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, r.base+path, nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Accept", "text/event-stream")
	if r.format == web.FormatHTML {
		req.AddCookie(&http.Cookie{Name: seatCookie, Value: token})
	} else {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	return req, nil
}

// seatCookie is the pages' cookie holding a seat's token (web's own name
// for it, which it keeps unexported).
const seatCookie = "seat"

// read times every event of one stream, opened at opened, as it is read
// whole.
func (r *readers) read(opened time.Time, br *bufio.Reader) {
	var published time.Time
	size := 0
	seated := false
	for {
		line, err := br.ReadString('\n')
		size += len(line)
		if err != nil {
			return
		}
		switch {
		case line == "\n":
			now := time.Now()
			if published.After(opened) {
				r.mu.Lock()
				if r.measuring {
					r.latencies = append(r.latencies, now.Sub(published))
					r.bytes += int64(size)
				}
				r.mu.Unlock()
			}
			published, size = time.Time{}, 0
		case strings.HasPrefix(line, "id: "):
			published = time.Time{}
			if _, stamp, ok := strings.Cut(strings.TrimSuffix(line, "\n"), "@"); ok {
				if ns, err := strconv.ParseInt(stamp, 10, 64); err == nil {
					published = time.Unix(0, ns)
					// Only a seat's frames are stamped: this stream is
					// its seat's, not a spectator's.
					if !seated {
						seated = true
						r.mu.Lock()
						r.seated++
						r.mu.Unlock()
					}
				}
			}
		}
	}
}

// measure starts the timing, forgetting what came before.
func (r *readers) measure() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.latencies, r.bytes, r.measuring, r.cpu = nil, 0, true, cpuTime()
}

// stop ends the timing: events read from now on are not counted.
func (r *readers) stop() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.measuring = false
}

// report prints the timings of the events read inside the window.
func (r *readers) report() {
	r.mu.Lock()
	lat := slices.Clone(r.latencies)
	bytes, refused, why, opened, seated := r.bytes, r.refused, r.why, r.opened, r.seated
	r.mu.Unlock()
	fmt.Printf("streams followed:    %d, on the server's %s route with the seats' tokens\n", opened, r.format)
	if refused > 0 {
		fmt.Printf("streams not opened:  %d (the first: %s)\n", refused, why)
	}
	if opened > seated {
		fmt.Printf("streams unseated:    %d read no frame of their seat (a spectator's view?)\n", opened-seated)
	}
	if len(lat) == 0 {
		fmt.Printf("%s events read: none\n", r.format)
		return
	}
	slices.Sort(lat)
	q := func(p float64) time.Duration { return lat[min(len(lat)-1, int(float64(len(lat))*p))] }
	fmt.Printf("%s events read:   %d, %.0f bytes each on average\n", r.format, len(lat), float64(bytes)/float64(len(lat)))
	fmt.Printf("%-20s %10s %10s %10s %10s\n", "latency", "count", "p50", "p99", "max")
	fmt.Printf("%-20s %10d %10v %10v %10v\n", "publish to "+r.format+" event", len(lat),
		q(0.5).Round(time.Microsecond), q(0.99).Round(time.Microsecond), lat[len(lat)-1].Round(time.Microsecond))
}

// readRemote is the -read mode: it follows the games a load test started
// with -listen announces at base, measures in the window it announces and
// reports, with the readers' own CPU; it answers the readers once the load
// test has ended their streams.
func readRemote(ctx context.Context, base string) (*readers, error) {
	base = strings.TrimSuffix(base, "/")
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, base+followPath, nil)
	if err != nil {
		return nil, err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("%s%s: %s", base, followPath, resp.Status)
	}
	sc := bufio.NewScanner(resp.Body)
	var r *readers
	opening := make(chan struct{}, startWorkers)
	began := time.Now()
	for sc.Scan() {
		word, rest, _ := strings.Cut(sc.Text(), " ")
		switch {
		case word == "format":
			r = newReaders(base, rest)
			fmt.Printf("reading the %s streams of %s\n", rest, base)
		case r == nil:
			return nil, fmt.Errorf("%s%s: no format line first", base, followPath)
		case word == "game":
			// game <id> <seat 0's token> <seat 1's> ...
			fields := strings.Fields(rest)
			if len(fields) < 2 {
				return nil, fmt.Errorf("%s%s: %q", base, followPath, sc.Text())
			}
			game, tokens := fields[0], fields[1:]
			// Followed aside, so that a slow server can't hold the
			// window's lines back behind the games, as many at once as
			// the tables are started.
			r.wg.Go(func() {
				opening <- struct{}{}
				defer func() { <-opening }()
				_ = r.follow(ctx, game, tokens)
			})
		case word == "measure":
			r.measure()
			began = time.Now()
			fmt.Println("measuring")
		case word == "stop":
			r.stop()
			elapsed := time.Since(began)
			cpu := cpuTime() - r.cpu
			fmt.Printf("\nreaders for %v\n", elapsed.Round(time.Second))
			fmt.Printf("readers' CPU:        %.2f of %d cores\n", cpu.Seconds()/elapsed.Seconds(), runtime.NumCPU())
			r.report()
			// The streams stay open until the load test ends them, so its
			// memory and goroutines are counted with them.
			_, _ = io.Copy(io.Discard, resp.Body)
			return r, nil
		}
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	return nil, errors.New("the load test ended before its window did")
}
