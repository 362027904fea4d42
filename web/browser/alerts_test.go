package browser

import (
	"strings"
	"testing"
	"time"

	cdpbrowser "github.com/chromedp/cdproto/browser"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"bullshit/engine"
)

// alertRecorder runs in the page from its start and notes what the page
// does to reach a person whose tab is hidden: each sound started (through
// Web Audio), each vibration, each notification made, on window.__alerts.
const alertRecorder = `(() => {
	const noted = window.__alerts = {sounds: 0, vibrations: [], notifications: []};
	const start = OscillatorNode.prototype.start;
	OscillatorNode.prototype.start = function (...args) { noted.sounds++; return start.apply(this, args); };
	navigator.vibrate = pattern => { noted.vibrations.push(JSON.stringify(pattern)); return true; };
	const Real = window.Notification;
	function Recorded(title, options) {
		noted.notifications.push({title, body: (options || {}).body || ''});
		return new Real(title, options);
	}
	Object.defineProperty(Recorded, 'permission', {get: () => Real.permission});
	Recorded.requestPermission = (...args) => Real.requestPermission(...args);
	window.Notification = Recorded;
})();`

// alerts is what the recorder noted.
type alerts struct {
	Sounds        int
	Vibrations    []string
	Notifications []struct{ Title, Body string }
}

// TestBrowserHiddenTabIsToldItsTurn: with every alert switched on in
// Options (the sound is off until then) and notifications allowed, a person
// whose tab is hidden when their turn comes is told: the tab's title says
// so, a sound is started, the phone vibrates and a notification is made.
// When the tab shows again the title is put back.
func TestBrowserHiddenTabIsToldItsTurn(t *testing.T) {
	ctx := testContext(t, 3*time.Minute)
	s := newSite(t, fastSpeed)
	b := newBrowser(ctx, t, s.base, phoneWidth, phoneHeight)
	if _, err := chromedp.Call(b.ctx, page.AddScriptToEvaluateOnNewDocument,
		page.AddScriptToEvaluateOnNewDocumentParams{Source: alertRecorder}); err != nil {
		t.Fatal(err)
	}
	if _, err := chromedp.Call(b.ctx, cdpbrowser.SetPermission, cdpbrowser.SetPermissionParams{
		Permission: &cdpbrowser.PermissionDescriptor{Name: "notifications"}, Setting: cdpbrowser.PermissionSettingGranted, Origin: s.base}); err != nil {
		t.Fatal(err)
	}

	b.open("/options")
	b.wait("the options", exists("#options"))
	look(b, "options-390x844")
	type sw struct {
		Name    string
		Checked bool
	}
	defaults := eval[[]sw](b, `[...document.querySelectorAll('#options input[role=switch]')].map(el => ({Name: el.name, Checked: el.checked}))`)
	want := map[string]bool{"light": true, "pick": true, "count": true, "title": true, "sound": false, "vibrate": true, "notify": true}
	if len(defaults) != len(want) {
		t.Errorf("the options' switches: got %v, want %v", defaults, want)
	}
	for _, x := range defaults {
		if on, ok := want[x.Name]; !ok || on != x.Checked {
			t.Errorf("the %s switch by default: got %v, want %v", x.Name, x.Checked, on)
		}
	}
	b.click("#options input[name=sound]")
	b.click("#options button[type=submit]")
	b.wait("the options saved", `!!document.querySelector('#options .status')`)
	if !eval[bool](b, `document.documentElement.classList.contains('alert-sound')`) {
		t.Fatal("the sound was switched on but the page doesn't say so")
	}

	id := createTable(b, tableSettings{name: "Ada", bots: 3, window: "10"})
	startGame(b)
	p := &person{b: b, s: s, game: id, seat: 0}
	// A gesture on the page, as a person makes, readies its sound.
	b.click("#middle")
	// Hide the tab while someone else is to move.
	for {
		v := s.view(id, 0)
		if v.Phase == engine.PhaseOver {
			t.Fatal("the game ended before the person's turn came")
		}
		if v.Phase == engine.PhasePlay && v.Turn != 0 && len(v.Can) == 0 {
			break
		}
		if !p.step() {
			time.Sleep(5 * time.Millisecond)
		}
	}
	title := eval[string](b, `document.title`)
	setWindow(t, b, cdpbrowser.WindowStateMinimized)
	b.wait("the tab hidden", `document.visibilityState === 'hidden'`)
	deadline := time.Now().Add(time.Minute)
	for {
		v := s.view(id, 0)
		if len(v.Can) > 0 && v.Can[0] == engine.ActPlay {
			break
		}
		if v.Phase == engine.PhaseOver || time.Now().After(deadline) {
			t.Fatal("the person's turn didn't come")
		}
		if !p.stepHidden() {
			time.Sleep(5 * time.Millisecond)
		}
	}
	s.setSpeed(1)
	defer s.setSpeed(fastSpeed)
	b.wait("the title to say it is the person's turn", `document.title.startsWith('Your turn')`)
	b.wait("a notification", `window.__alerts.notifications.length > 0`)
	got := eval[alerts](b, `({Sounds: window.__alerts.sounds, Vibrations: window.__alerts.vibrations, Notifications: window.__alerts.notifications})`)
	if got.Sounds == 0 {
		t.Error("no sound was started")
	}
	if len(got.Vibrations) == 0 {
		t.Error("the phone wasn't made to vibrate")
	}
	if n := got.Notifications; len(n) != 1 || n[0].Title != "Your turn" || !strings.Contains(n[0].Body, "claim") {
		t.Errorf("the notifications: got %+v, want one saying it is the person's turn", n)
	}
	setWindow(t, b, cdpbrowser.WindowStateNormal)
	b.wait("the tab shown", `document.visibilityState === 'visible'`)
	b.wait("the title put back", `document.title === `+jsString(title))
}

// stepHidden makes a call window's move for the person while their tab is
// hidden: let it go through the server, as the page is out of sight. It
// reports whether it moved.
func (p *person) stepHidden() bool {
	v := p.s.view(p.game, p.seat)
	if len(v.Can) == 0 || v.Can[0] != engine.ActCall {
		return false
	}
	_, err := p.s.mgr.Act(p.b.ctx, p.game, engine.Action{Kind: engine.ActPass, Seat: p.seat, No: v.Plays})
	return err == nil
}

// setWindow minimizes the browser's window (its page is then hidden) or
// puts it back.
func setWindow(t *testing.T, b *browser, state cdpbrowser.WindowState) {
	t.Helper()
	w, err := chromedp.Call(b.ctx, cdpbrowser.GetWindowForTarget, cdpbrowser.GetWindowForTargetParams{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := chromedp.Call(b.ctx, cdpbrowser.SetWindowBounds, cdpbrowser.SetWindowBoundsParams{WindowID: w.WindowID,
		Bounds: &cdpbrowser.Bounds{WindowState: state}}); err != nil {
		t.Fatal(err)
	}
}
