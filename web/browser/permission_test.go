package browser

import (
	"strings"
	"testing"
	"time"

	cdpbrowser "github.com/chromedp/cdproto/browser"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
)

// permissionRecorder stands for a browser that has not yet been asked to
// let the site notify: it counts the asks on window.__asks, and grants.
const permissionRecorder = `(() => {
	let permission = 'default';
	window.__asks = 0;
	function Fake() {}
	Object.defineProperty(Fake, 'permission', {get: () => permission});
	Fake.requestPermission = () => { window.__asks++; permission = 'granted'; return Promise.resolve(permission); };
	window.Notification = Fake;
})();`

// TestBrowserNotificationsAskedOnTheFirstGesture: with notifications on, as
// they are by default, a table's page asks the browser's leave on a
// person's first tap, and once: a page that never asks never shows one.
func TestBrowserNotificationsAskedOnTheFirstGesture(t *testing.T) {
	ctx := testContext(t, time.Minute)
	s := newSite(t, fastSpeed)
	b := newBrowser(ctx, t, s.base, phoneWidth, phoneHeight)
	if _, err := chromedp.Call(b.ctx, page.AddScriptToEvaluateOnNewDocument,
		page.AddScriptToEvaluateOnNewDocumentParams{Source: permissionRecorder}); err != nil {
		t.Fatal(err)
	}
	id := createTable(b, tableSettings{name: "Ada", bots: 3})
	b.open("/games/" + id)
	b.wait("the waiting room", visible("main"))
	if got := eval[int](b, `window.__asks`); got != 0 {
		t.Errorf("before any gesture: got %d asks, want 0", got)
	}
	b.click("main")
	b.click("main")
	if got := eval[int](b, `window.__asks`); got != 1 {
		t.Errorf("after two taps: got %d asks, want 1", got)
	}
}

// TestBrowserRefusedNotificationsShowOff: where the browser refuses the site
// notifications, Options shows the switch off and says why.
func TestBrowserRefusedNotificationsShowOff(t *testing.T) {
	ctx := testContext(t, time.Minute)
	s := newSite(t, fastSpeed)
	b := newBrowser(ctx, t, s.base, phoneWidth, phoneHeight)
	if _, err := chromedp.Call(b.ctx, cdpbrowser.SetPermission, cdpbrowser.SetPermissionParams{
		Permission: &cdpbrowser.PermissionDescriptor{Name: "notifications"}, Setting: cdpbrowser.PermissionSettingDenied, Origin: s.base}); err != nil {
		t.Fatal(err)
	}
	b.open("/options")
	b.wait("the options", exists("#options"))
	type sw struct {
		Checked bool
		Hint    string
	}
	got := eval[sw](b, `(() => { const s = document.querySelector('#options input[name=notify]');
		return {Checked: s.checked, Hint: s.parentNode.querySelector('.hint').textContent}; })()`)
	if got.Checked || !strings.Contains(got.Hint, "refuses") {
		t.Errorf("notifications refused: got the switch on=%v saying %q, want it off saying the browser refuses", got.Checked, got.Hint)
	}
	look(b, "options-refused-390x844")
}
