package main

import (
	"bufio"
	"fmt"
	"io"
	"testing"
	"time"
)

// script is a stream read in steps, with something done before each (the
// window opening or closing), as a real stream's events come while the run
// goes on. A bufio.Reader asks for more only once it has used up what it has.
type script struct {
	steps  []string
	before []func()
}

func (s *script) Read(p []byte) (int, error) {
	if len(s.steps) == 0 {
		return 0, io.EOF
	}
	if s.before[0] != nil {
		s.before[0]()
		s.before[0] = nil
	}
	n := copy(p, s.steps[0])
	if s.steps[0] = s.steps[0][n:]; s.steps[0] == "" {
		s.steps, s.before = s.steps[1:], s.before[1:]
	}
	return n, nil
}

// TestReadersCountTheWindowOnly: of a stream's events, only those read
// between measure and stop and published after the stream opened are timed.
func TestReadersCountTheWindowOnly(t *testing.T) {
	r := newReaders("", "html")
	opened := time.Now()
	event := func(rev int, published time.Time) string {
		return fmt.Sprintf("id: %d.1764590000123@%d\nevent: frame\ndata: <p>%d</p>\n\n", rev, published.UnixNano(), rev)
	}
	s := &script{
		steps: []string{
			event(1, opened.Add(time.Millisecond)),    // before the window
			event(2, opened.Add(-time.Second)),        // published before the stream opened
			event(3, opened.Add(2*time.Millisecond)),  // in the window
			"id: 4.1764590000123\ndata: <p>4</p>\n\n", // no stamp: read as a client connected
			event(5, opened.Add(3*time.Millisecond)),  // after the window
		},
		before: []func(){nil, r.measure, nil, nil, r.stop},
	}
	r.read(opened, bufio.NewReader(s))
	if len(r.latencies) != 1 {
		t.Errorf("events timed: got %d, want 1 (the one published and read in the window)", len(r.latencies))
	}
}
