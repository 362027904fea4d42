package browser

import (
	"context"
	"strings"
	"testing"
	"time"
)

// TestBrowserFinishedPageStops leaves a result sheet open for some seconds
// and counts its requests for the game's event stream: the page that
// followed the game to its end closes its stream on the final event, so it
// asks for none (an EventSource reconnects to a stream that merely ended).
func TestBrowserFinishedPageStops(t *testing.T) {
	ctx := testContext(t, 3*time.Minute)
	s := newSite(t, fastSpeed)
	b := newBrowser(ctx, t, s.base, phoneWidth, phoneHeight)
	id := createTable(b, tableSettings{name: "Ada", bots: 3, window: "4"})
	startGame(b)
	if err := s.mgr.HandToBot(context.Background(), id, 0, 0); err != nil {
		t.Fatalf("handing Ada's seat to a bot: %v", err)
	}
	s.setSpeed(200)
	b.wait("the result sheet", visible("#result"))
	b.settle()
	streams := func() int { return b.requests("/games/" + id + "/events") }
	before := streams()
	time.Sleep(3 * time.Second)
	if got := streams() - before; got != 0 {
		t.Errorf("requests for the finished game's stream in 3 s with the result sheet open: got %d, want 0", got)
	}
	finals := 0
	for _, r := range b.everything() {
		if r.kind == "final" {
			finals++
		}
	}
	if finals != 1 {
		t.Errorf("final events received: got %d, want 1", finals)
	}
}

// requests is how many answers the tab has had from addresses containing
// part.
func (b *browser) requests(part string) int {
	b.mu.Lock()
	defer b.mu.Unlock()
	n := 0
	for _, st := range b.statuses {
		if strings.Contains(st.url, part) {
			n++
		}
	}
	return n
}
