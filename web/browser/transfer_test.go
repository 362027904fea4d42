package browser

import (
	"testing"
	"time"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"
)

// transfer is what a page's first load took on the wire, as Chromium counts
// it: every request that finished (the page and its assets, headers
// included, compressed as sent) and what the event stream had brought by
// then.
type transfer struct {
	requests int
	finished float64 // bytes
	decoded  int     // the same bodies uncompressed
	streamed float64
}

// firstLoad loads path with an empty cache and measures its transfer once
// the page has been quiet for a moment.
func firstLoad(b *browser, path string) transfer {
	b.t.Helper()
	if _, err := chromedp.Call(b.ctx, network.SetCacheDisabled, network.SetCacheDisabledParams{CacheDisabled: true}); err != nil {
		b.t.Fatal(err)
	}
	defer func() {
		_, _ = chromedp.Call(b.ctx, network.SetCacheDisabled, network.SetCacheDisabledParams{CacheDisabled: false})
	}()
	b.resetCapture()
	b.open(path)
	b.wait("the page", exists("#live")+" && "+visible("#hand"))
	time.Sleep(time.Second)
	b.settle()
	var tr transfer
	for _, l := range b.loaded() {
		tr.requests++
		tr.finished += l.encoded
		tr.decoded += l.decodedBytes
	}
	b.mu.Lock()
	tr.streamed = b.streamed
	b.mu.Unlock()
	return tr
}

// TestBrowserTablePageFirstLoad loads the table page with an empty cache as a
// seated player and keeps its whole transfer, compressed as sent and every
// asset included, within the 80 KB the design allows.
func TestBrowserTablePageFirstLoad(t *testing.T) {
	ctx := testContext(t, 2*time.Minute)
	s := newSite(t, personSpeed)
	b := newBrowser(ctx, t, s.base, phoneWidth, phoneHeight)
	id := createTable(b, tableSettings{name: "Ada", bots: 3})
	startGame(b)
	tr := firstLoad(b, "/games/"+id)
	total := tr.finished + tr.streamed
	t.Logf("the table page's first load: %d requests, %.1f KB on the wire (%.1f KB uncompressed), and %.1f KB from the event stream by then; %.1f KB in all",
		tr.requests, tr.finished/1000, float64(tr.decoded)/1000, tr.streamed/1000, total/1000)
	for _, l := range b.loaded() {
		t.Logf("  %-60s %-10s %7.1f KB (%6.1f KB uncompressed)", l.url, l.kind, l.encoded/1000, float64(l.decodedBytes)/1000)
	}
	if total > 80_000 {
		t.Errorf("the table page's first load took %.1f KB, want at most 80 KB", total/1000)
	}
}
