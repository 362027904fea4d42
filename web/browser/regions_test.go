package browser

import (
	"regexp"
	"strings"
	"testing"
	"time"
)

// TestBrowserStreamSendsOnlyChangedRegions follows a table in Chromium over
// the stream as `bullshit serve` assembles it: the first event on the
// table's stream is the whole screen, and from then on, while the game is
// played, each event holds only the regions that changed (never the whole
// screen again on one connection, and the hand only when it changed; a
// reconnect starts from the whole screen); every event's id is its
// revision and the moment it was rendered, which the page times from.
func TestBrowserStreamSendsOnlyChangedRegions(t *testing.T) {
	ctx := testContext(t, 3*time.Minute)
	s := newSite(t, fastSpeed)
	b := newBrowser(ctx, t, s.base, phoneWidth, phoneHeight)
	id := createTable(b, tableSettings{name: "Ada", bots: 3, window: "4"})
	startGame(b)
	p := &person{b: b, s: s, game: id, seat: 0}
	for s.view(id, 0).Plays < 12 && !p.over() {
		if !p.step() {
			time.Sleep(10 * time.Millisecond)
		}
	}
	var events []received
	for _, r := range b.everything() {
		if r.kind == "frame" && strings.Contains(r.url, "/games/"+id+"/events") {
			events = append(events, r)
		}
	}
	first := -1
	for i, e := range events {
		if strings.Contains(e.data, `id="hand"`) {
			first = i
			break
		}
	}
	if first < 0 {
		t.Fatalf("no event of the table's stream held the table (%d events)", len(events))
	}
	if !strings.Contains(events[first].data, `id="screen"`) {
		t.Errorf("the table's first event isn't the whole screen: %.200s", events[first].data)
	}
	timed := regexp.MustCompile(`^\d+\.\d+$`)
	var whole, withHand, parts, reconnects int
	for _, e := range events[first:] {
		if !timed.MatchString(e.id) {
			t.Errorf("an event's id %q isn't its revision and its render time", e.id)
		}
	}
	for i, e := range events[first+1:] {
		if e.request != events[first+i].request {
			// A stream that reconnects (a machine too busy to read it in
			// time is dropped by the hub) starts again from the whole
			// screen, as it must.
			reconnects++
			if !strings.Contains(e.data, `id="screen"`) {
				t.Errorf("the first event after a reconnect isn't the whole screen: %.200s", e.data)
			}
			continue
		}
		parts++
		if strings.Contains(e.data, `id="screen"`) && !strings.Contains(e.data, `id="result"`) {
			whole++
		}
		if strings.Contains(e.data, `id="hand"`) {
			withHand++
		}
	}
	t.Logf("%d events after the first: %d whole screens, %d with the hand; %d reconnects", parts, whole, withHand, reconnects)
	if parts < 10 {
		t.Fatalf("events after the first: got %d, want at least 10 to judge by", parts)
	}
	if whole > 0 {
		t.Errorf("%d of the %d events after the first sent the whole screen in play, want only the regions that changed", whole, parts)
	}
	if withHand == parts {
		t.Errorf("every one of the %d events after the first sent the hand, want it only when it changed", parts)
	}
}
