package browser

import (
	"testing"
	"time"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"
)

// TestBrowserSaysWhenItReconnects: with the browser offline, and then with
// the server down, the table says "Reconnecting…" (the old state stays
// shown); when the network or the server is back it says so, and the table
// is live again, pushes and all, without a reload.
func TestBrowserSaysWhenItReconnects(t *testing.T) {
	ctx := testContext(t, 3*time.Minute)
	s := newSite(t, personSpeed)
	b := newBrowser(ctx, t, s.base, phoneWidth, phoneHeight)
	// A move sent on a connection the server cut is lost (htmx logs it),
	// as after a real restart; the page says so.
	b.expectConsole(`console.error: htmx:(sendError|afterRequest), \[object HTMLButtonElement\]`)
	b.expectConsole(`net::ERR_(CONNECTION_REFUSED|CONNECTION_RESET|EMPTY_RESPONSE|INCOMPLETE_CHUNKED_ENCODING|INTERNET_DISCONNECTED|NETWORK_CHANGED)`)
	id := createTable(b, tableSettings{name: "Ada", bots: 3, window: "10"})
	startGame(b)
	b.waitFrames(1)
	eval[bool](b, `(window.__sameDocument = true)`)
	if b.visibleNow("#connection") {
		t.Fatalf("the page says %q before anything went wrong", b.text("#connection"))
	}
	live := func(when string) {
		t.Helper()
		frames := b.frames()
		p := &person{b: b, s: s, game: id, seat: 0}
		for deadline := time.Now().Add(30 * time.Second); b.frames() <= frames; {
			if time.Now().After(deadline) {
				t.Fatalf("%s: no push reached the page", when)
			}
			if !p.step() {
				time.Sleep(20 * time.Millisecond)
			}
		}
		if !eval[bool](b, `window.__sameDocument === true`) {
			t.Fatalf("%s: the page reloaded", when)
		}
	}

	// Offline.
	setOffline(t, b, true)
	b.wait("the page to say it reconnects while offline", `(document.querySelector('#connection')||{}).textContent === 'Reconnecting…'`)
	look(b, "offline-390x844")
	if over := eval[string](b, `(() => { const c = document.querySelector('#connection').getBoundingClientRect();
		return [...document.querySelectorAll('#bar > *, [id^=seat-], #hand label.card, #rank, #pile, #claim-line')].filter(el => { const r = el.getBoundingClientRect();
			return r.width > 0 && r.left < c.right && c.left < r.right && r.top < c.bottom && c.top < r.bottom; })
			.map(el => el.id || el.className || el.tagName).join(', '); })()`); over != "" {
		t.Errorf("offline, the line saying so covers %s", over)
	}
	setOffline(t, b, false)
	b.wait("the page to say it is back online", `(document.querySelector('#connection')||{}).textContent === 'Connected again.'`)
	live("back online")

	// The server down.
	s.down()
	b.wait("the page to say it reconnects while the server is down", `(document.querySelector('#connection')||{}).textContent === 'Reconnecting…'`)
	time.Sleep(time.Second)
	s.up()
	b.wait("the page to say the server is back", `(document.querySelector('#connection')||{}).textContent === 'Connected again.'`)
	live("the server back")
}

// setOffline takes the browser off the network, as a phone that lost it
// (its requests fail and it says it is offline), or puts it back.
func setOffline(t *testing.T, b *browser, off bool) {
	t.Helper()
	if _, err := chromedp.Call(b.ctx, network.EmulateNetworkConditionsByRule, network.EmulateNetworkConditionsByRuleParams{
		MatchedNetworkConditions: []*network.Conditions{{Offline: off, DownloadThroughput: -1, UploadThroughput: -1}}}); err != nil {
		t.Fatal(err)
	}
	if _, err := chromedp.Call(b.ctx, network.OverrideNetworkState, network.OverrideNetworkStateParams{
		Offline: off, DownloadThroughput: -1, UploadThroughput: -1}); err != nil {
		t.Fatal(err)
	}
}
