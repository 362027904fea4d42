package browser

import (
	"testing"
	"time"
)

// TestBrowserIconFetchedOnce loads the lobby, then a table, then the table
// again, in a fresh browser and counts the requests for the site's SVG icon
// (answered from the cache or not): the page's icon link asks once, and the
// manifest does not send the browser for it again.
func TestBrowserIconFetchedOnce(t *testing.T) {
	ctx := testContext(t, 2*time.Minute)
	s := newSite(t, fastSpeed)
	b := newBrowser(ctx, t, s.base, phoneWidth, phoneHeight)
	createTable(b, tableSettings{name: "Ada", bots: 3})
	id := gameID(b)
	startGame(b)
	b.open("/games/" + id)
	b.wait("the table", visible("#hand"))
	// The browser asks for the icons after the page has loaded.
	time.Sleep(time.Second)
	b.settle()
	if got := b.requests("icon.svg"); got != 1 {
		t.Errorf("requests for icon.svg over the lobby, a table and the table again: got %d, want 1", got)
	}
}
