package browser

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"bullshit/engine"
)

// TestBrowserTableFitsANarrowPhone plays at 320 CSS pixels wide, the
// narrowest phone the design allows for: on the person's turn and in a call
// window nothing sticks out sideways, and the dock's buttons are at least
// 44 px high (Bullshit! 52) for a thumb.
func TestBrowserTableFitsANarrowPhone(t *testing.T) {
	ctx := testContext(t, 3*time.Minute)
	s := newSite(t, fastSpeed)
	b := newBrowser(ctx, t, s.base, 320, 640)
	id := createTable(b, tableSettings{name: "Ada", bots: 3, window: "10"})
	checkFits(t, b, "the waiting room")
	startGame(b)
	p := &person{b: b, s: s, game: id, seat: 0}
	checked := map[engine.ActionKind]bool{}
	p.onMove = func(v engine.View) {
		kind := v.Can[0]
		if checked[kind] || kind == engine.ActGive {
			return
		}
		checked[kind] = true
		s.setSpeed(1) // hold the moment while it is measured
		defer s.setSpeed(fastSpeed)
		if kind == engine.ActPlay {
			// With a card picked, as the claim button then says what it claims.
			_, picked, codes := p.hand()
			if c := choose(v)[0]; !picked[c] {
				p.toggle(codes[c])
			}
		}
		checkFits(t, b, fmt.Sprintf("the %s phase", v.Phase))
		checkTargets(t, b, fmt.Sprintf("the %s phase", v.Phase))
	}
	deadline := time.Now().Add(2 * time.Minute)
	for (!checked[engine.ActPlay] || !checked[engine.ActCall]) && !p.over() && time.Now().Before(deadline) {
		if !p.step() {
			time.Sleep(10 * time.Millisecond)
		}
	}
	if !checked[engine.ActPlay] || !checked[engine.ActCall] {
		t.Fatalf("the person's turn and a call window didn't both come: %v", checked)
	}
}

// checkFits fails the test if the page is wider than the screen, naming the
// elements that stick out.
func checkFits(t *testing.T, b *browser, when string) {
	t.Helper()
	type fit struct {
		Scroll, Client int
		Out            []string
	}
	f := eval[fit](b, `(() => {
		const d = document.documentElement, w = d.clientWidth;
		const out = [...document.querySelectorAll('body *')].filter(el => {
			const r = el.getBoundingClientRect();
			return r.width > 0 && (r.right > w + 0.5 || r.left < -0.5);
		}).slice(0, 8).map(el => el.tagName.toLowerCase() + (el.id ? '#' + el.id : '') +
			(el.className && typeof el.className === 'string' ? '.' + el.className.trim().split(/\s+/).join('.') : '') +
			' [' + Math.round(el.getBoundingClientRect().left) + ', ' + Math.round(el.getBoundingClientRect().right) + ']');
		return {Scroll: d.scrollWidth, Client: w, Out: out};
	})()`)
	if f.Scroll > f.Client {
		t.Errorf("%s at 320 px: the page is %d px wide in a %d px screen; sticking out: %s",
			when, f.Scroll, f.Client, strings.Join(f.Out, ", "))
	}
}

// checkTargets fails the test if a button shown in the dock is too small to
// hit with a thumb: 44 px high, 52 for Bullshit!.
func checkTargets(t *testing.T, b *browser, when string) {
	t.Helper()
	type target struct {
		ID     string
		Text   string
		Height float64
	}
	ts := eval[[]target](b, `[...document.querySelectorAll('#dock button, #dock [role=switch], #dock label:has(input[type=checkbox])')]
		.filter(el => { const r = el.getBoundingClientRect(), s = getComputedStyle(el);
			return r.width > 0 && r.height > 0 && s.visibility !== 'hidden' && s.display !== 'none'; })
		.map(el => ({ID: el.id, Text: el.innerText.trim(), Height: el.getBoundingClientRect().height}))`)
	if len(ts) == 0 {
		t.Errorf("%s: no buttons shown in the dock", when)
	}
	for _, x := range ts {
		least := 44.0
		if x.ID == "call" {
			least = 52
		}
		if x.Height < least {
			t.Errorf("%s: the dock's %q (#%s) is %.0f px high, want at least %.0f", when, x.Text, x.ID, x.Height, least)
		}
	}
}
