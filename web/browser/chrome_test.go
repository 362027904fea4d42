// Package browser plays the web pages in a real headless Chromium, driven by
// chromedp, against the whole server running in the test: the lobby, the
// waiting room, the table and the result sheet, as a person would use them.
//
// The tests need Chromium. They look for $BULLSHIT_CHROMIUM, then for
// chromium on the PATH, and skip with a message when there is none; when
// BULLSHIT_CHROMIUM is set (as CI sets it) a missing browser fails them.
package browser

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
)

// The sizes the pages are designed for: a phone held upright, and a laptop.
const (
	phoneWidth, phoneHeight   = 390, 844
	laptopWidth, laptopHeight = 1280, 800
)

// chromium is the path of the browser, found once.
var chromium = sync.OnceValues(func() (string, error) {
	if p := os.Getenv("BULLSHIT_CHROMIUM"); p != "" {
		if _, err := exec.LookPath(p); err != nil {
			return "", fmt.Errorf("BULLSHIT_CHROMIUM=%s: %w", p, err)
		}
		return p, nil
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p, nil
		}
	}
	return "", errNoChromium
})

var errNoChromium = errors.New("no Chromium found")

// needChromium skips the test when there is no browser to run, unless one
// was asked for by BULLSHIT_CHROMIUM, and returns its path.
func needChromium(t *testing.T) string {
	t.Helper()
	p, err := chromium()
	if errors.Is(err, errNoChromium) {
		t.Skip("browser tests skipped: no Chromium found (install chromium or set BULLSHIT_CHROMIUM)")
	}
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// testContext is the test's hard limit: every browser test ends within it,
// whatever the page does.
func testContext(t *testing.T, limit time.Duration) context.Context {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), limit)
	t.Cleanup(cancel)
	return ctx
}

// browser is one Chromium with a profile of its own (so its own cookies) and
// one tab. It keeps every response body and every event-stream message the
// tab receives, so a test can check what reached the browser.
type browser struct {
	t    *testing.T
	ctx  context.Context // the tab's
	base string          // the site's address, for relative paths

	fetches sync.WaitGroup // reading response bodies

	mu    sync.Mutex
	urls  map[network.RequestID]string
	types map[network.RequestID]network.ResourceType
	codes map[network.RequestID]int
	// capture counts the resets of what was captured (resetCapture), and
	// sentIn says in which capture each request was sent: a request the
	// previous page sent before a reset is no load of the next one, however
	// late it finishes.
	capture  int
	sentIn   map[network.RequestID]int
	received []received
	loads    []load
	statuses []status
	streamed float64 // bytes received on event streams, as sent
	// console are the errors the page's console showed (htmx's among
	// them), and expected the patterns of those the test expects.
	console  []string
	expected []*regexp.Regexp
}

// status is one response's HTTP status.
type status struct {
	url  string
	code int
}

// received is something that reached the page: a response body or the data
// of one event of an event stream.
type received struct {
	url, kind string // kind is "body" or the stream's event name
	data      string
	id        string // an event's id
	// request is the request an event came on: a stream that reconnects
	// is a new request.
	request network.RequestID
}

// load is one finished request with the bytes it took on the wire.
type load struct {
	url          string
	kind         network.ResourceType
	encoded      float64 // everything received, headers included
	encodedBody  float64 // the body as sent, compressed if it was
	decodedBytes int
}

// newBrowser starts a Chromium for the test with a viewport of w by h CSS
// pixels (a phone's emulated as a touch screen when narrow). It closes with
// ctx or at the end of the test.
func newBrowser(ctx context.Context, t *testing.T, base string, w, h int) *browser {
	t.Helper()
	path := needChromium(t)
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(path),
		chromedp.Headless,
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.NoFirstRun,
		chromedp.NoDefaultBrowserCheck,
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.Flag("disable-extensions", true),
		chromedp.Flag("mute-audio", true),
		chromedp.UserDataDir(t.TempDir()),
		chromedp.WindowSize(w, h),
	}
	allocCtx, cancelAlloc := chromedp.NewExecAllocator(ctx, opts...)
	tabCtx, cancelTab := chromedp.NewContext(allocCtx, chromedp.WithLogf(t.Logf))
	b := &browser{t: t, ctx: tabCtx, base: base,
		urls: map[network.RequestID]string{}, types: map[network.RequestID]network.ResourceType{},
		codes: map[network.RequestID]int{}, sentIn: map[network.RequestID]int{}}
	t.Cleanup(func() {
		b.checkConsole()
		cancelTab()
		cancelAlloc()
		b.fetches.Wait()
	})
	if err := chromedp.Listen(tabCtx, b.onEvent); err != nil {
		t.Fatalf("starting Chromium: %v", err)
	}
	viewport := []chromedp.EmulateViewportOption{chromedp.EmulateScale(1)}
	if w < 640 {
		viewport = append(viewport, chromedp.EmulateMobile, chromedp.EmulateTouch)
	}
	if err := chromedp.Do(tabCtx, chromedp.EmulateViewport(int64(w), int64(h), viewport...)); err != nil {
		t.Fatalf("setting the viewport: %v", err)
	}
	// Every page records when each beat of a reveal comes into view, so two
	// browsers' timings can be compared (see beatTimes).
	if _, err := chromedp.Call(tabCtx, page.AddScriptToEvaluateOnNewDocument,
		page.AddScriptToEvaluateOnNewDocumentParams{Source: beatRecorder}); err != nil {
		t.Fatalf("adding the beat recorder: %v", err)
	}
	return b
}

// onEvent runs in the tab's event loop, so it only notes things down; a
// body is read in a goroutine of its own.
func (b *browser) onEvent(ev any) {
	switch ev := ev.(type) {
	case *network.EventRequestWillBeSent:
		b.mu.Lock()
		b.sentIn[ev.RequestID] = b.capture
		b.mu.Unlock()
	case *network.EventResponseReceived:
		b.mu.Lock()
		b.urls[ev.RequestID] = ev.Response.URL
		b.types[ev.RequestID] = ev.Type
		b.codes[ev.RequestID] = int(ev.Response.Status)
		b.statuses = append(b.statuses, status{ev.Response.URL, int(ev.Response.Status)})
		b.mu.Unlock()
	case *network.EventDataReceived:
		b.mu.Lock()
		if b.types[ev.RequestID] == network.ResourceTypeEventSource {
			b.streamed += float64(ev.EncodedDataLength)
		}
		b.mu.Unlock()
	case *network.EventEventSourceMessageReceived:
		b.mu.Lock()
		b.received = append(b.received, received{url: b.urls[ev.RequestID], kind: ev.EventName, data: ev.Data, id: ev.EventID,
			request: ev.RequestID})
		b.mu.Unlock()
	case *runtime.EventConsoleAPICalled:
		if ev.Type == runtime.ConsoleAPICalledTypeError || ev.Type == runtime.ConsoleAPICalledTypeAssert {
			var parts []string
			for _, a := range ev.Args {
				if a.Value != nil {
					parts = append(parts, strings.Trim(string(a.Value), `"`))
				} else {
					parts = append(parts, a.Description)
				}
			}
			b.noteConsole("console." + string(ev.Type) + ": " + strings.Join(parts, " "))
		}
	case *runtime.EventExceptionThrown:
		d := ev.ExceptionDetails
		text := d.Text
		if d.Exception != nil {
			text += " " + d.Exception.Description
		}
		b.noteConsole("exception: " + text)
	case *log.EventEntryAdded:
		if ev.Entry.Level == log.EntryLevelError {
			b.noteConsole("log (" + string(ev.Entry.Source) + "): " + ev.Entry.Text + " " + ev.Entry.URL)
		}
	case *network.EventLoadingFinished:
		b.mu.Lock()
		url, kind, code := b.urls[ev.RequestID], b.types[ev.RequestID], b.codes[ev.RequestID]
		capture, known := b.sentIn[ev.RequestID]
		b.mu.Unlock()
		id, encoded, body := ev.RequestID, ev.EncodedDataLength, ev.EncodedBodyLength
		b.fetches.Go(func() {
			res, err := chromedp.Call(b.ctx, network.GetResponseBody, network.GetResponseBodyParams{RequestID: id})
			b.mu.Lock()
			defer b.mu.Unlock()
			if known && capture != b.capture {
				return
			}
			b.loads = append(b.loads, load{url: url, kind: kind, encoded: encoded, encodedBody: body, decodedBytes: len(res.Body)})
			if err != nil {
				// An answer with a body the browser kept, but can't give.
				if b.ctx.Err() == nil && code == 200 && kind != network.ResourceTypeImage && kind != network.ResourceTypeFont && !isAsset(url) {
					b.received = append(b.received, received{url: url, kind: "unreadable", data: err.Error()})
				}
				return
			}
			b.received = append(b.received, received{url: url, kind: "body", data: string(res.Body)})
		})
	}
}

// noteConsole keeps an error the page's console showed.
func (b *browser) noteConsole(text string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.console = append(b.console, text)
}

// expectConsole lets console errors matching pattern pass, for a test that
// causes them (a server taken down, say).
func (b *browser) expectConsole(pattern string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.expected = append(b.expected, regexp.MustCompile(pattern))
}

// consoleErrors are the console's errors that no expectConsole allowed.
func (b *browser) consoleErrors() []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	var out []string
	for _, m := range b.console {
		if !slices.ContainsFunc(b.expected, func(re *regexp.Regexp) bool { return re.MatchString(m) }) {
			out = append(out, m)
		}
	}
	return out
}

// checkConsole fails the test on any console error it did not expect: an
// exception, a console.error (htmx logs its errors so), a resource that
// failed to load.
func (b *browser) checkConsole() {
	b.t.Helper()
	if errs := b.consoleErrors(); len(errs) > 0 {
		b.t.Errorf("the browser's console showed %d errors the test didn't expect:\n%s", len(errs), strings.Join(errs, "\n"))
	}
}

// everything is a copy of all the tab has received so far. Response bodies
// are read after their loading finishes, so wait a moment (settle) before
// relying on the newest ones.
func (b *browser) everything() []received {
	b.mu.Lock()
	defer b.mu.Unlock()
	return append([]received(nil), b.received...)
}

// loaded is a copy of every finished request so far.
func (b *browser) loaded() []load {
	b.mu.Lock()
	defer b.mu.Unlock()
	return append([]load(nil), b.loads...)
}

// lastStatus is the status of the newest response whose address contains
// part (0 if there was none).
func (b *browser) lastStatus(part string) int {
	b.mu.Lock()
	defer b.mu.Unlock()
	for i := len(b.statuses) - 1; i >= 0; i-- {
		if strings.Contains(b.statuses[i].url, part) {
			return b.statuses[i].code
		}
	}
	return 0
}

// resetCapture forgets what was received so far.
func (b *browser) resetCapture() {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.received, b.loads, b.streamed = nil, nil, 0
	b.capture++
}

// settle waits for the response bodies being read.
func (b *browser) settle() {
	b.fetches.Wait()
}

// open loads a page (a path on the site, or a full address) and waits for
// its load event.
func (b *browser) open(path string) {
	b.t.Helper()
	url := path
	if strings.HasPrefix(path, "/") {
		url = b.base + path
	}
	if err := chromedp.Do(b.ctx, chromedp.Navigate(url)); err != nil {
		b.t.Fatalf("opening %s: %v", url, err)
	}
}
