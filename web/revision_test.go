package web_test

import (
	"context"
	"net/http"
	"net/url"
	"strconv"
	"testing"
)

// TestAnswersCarryTheirRevision checks that every answer showing a live
// table's frame names that frame's revision, by which the page drops an
// answer that comes after a newer pushed frame (the window of the move
// closing as its answer travels): otherwise the stale answer stands until
// the next push, which a turn waiting for this player never brings.
func TestAnswersCarryTheirRevision(t *testing.T) {
	s := newSite(t)
	b := s.browser()
	id := b.create("Ada", "3")
	tests := []struct {
		name, method, path string
		form               url.Values
	}{
		{"the waiting room's frame", http.MethodGet, "/frame", nil},
		{"the start", http.MethodPost, "/start", nil},
		{"the table's frame", http.MethodGet, "/frame", nil},
		// A move for a play that isn't there: refused, answered 200.
		{"a refused move", http.MethodPost, "/pass", url.Values{"no": {"99"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := b.htmx(tt.method, "/games/"+id+tt.path, tt.form)
			if p.status != http.StatusOK {
				t.Fatalf("got %d, want 200:\n%s", p.status, p.body)
			}
			// The clock stands still, so nothing has moved since.
			f, err := s.mgr.Frame(context.Background(), id, 0)
			if err != nil {
				t.Fatal(err)
			}
			if got, want := p.header.Get("X-Frame-Revision"), strconv.Itoa(f.Revision); got != want {
				t.Fatalf("X-Frame-Revision: got %q, want %q", got, want)
			}
		})
	}
}
