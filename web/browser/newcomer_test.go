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

// TestBrowserLobbyButtonOnTheFirstScreen opens the lobby at a laptop's size,
// a phone's and the narrowest phone's: its main action, "Open a table", is
// wholly on the first screen, with nothing scrolled.
func TestBrowserLobbyButtonOnTheFirstScreen(t *testing.T) {
	ctx := testContext(t, 2*time.Minute)
	s := newSite(t, fastSpeed)
	for _, size := range [][2]int{{laptopWidth, laptopHeight}, {phoneWidth, phoneHeight}, {320, 640}} {
		b := newBrowser(ctx, t, s.base, size[0], size[1])
		b.open("/")
		b.wait("the lobby", visible("#create [type=submit]"))
		type place struct {
			Text                string
			Top, Bottom, Height float64
			Scrolled            float64
		}
		p := eval[place](b, `(() => { const el = document.querySelector('#create [type=submit]'), r = el.getBoundingClientRect();
			return {Text: el.innerText.trim(), Top: r.top, Bottom: r.bottom, Height: innerHeight, Scrolled: scrollY}; })()`)
		if p.Text != "Open a table" || p.Scrolled != 0 || p.Top < 0 || p.Bottom > p.Height {
			t.Errorf("the lobby at %dx%d: got %q from %.0f to %.0f px, scrolled %.0f, want \"Open a table\" within the first %.0f px, unscrolled",
				size[0], size[1], p.Text, p.Top, p.Bottom, p.Scrolled, p.Height)
		}
	}
}
