package browser

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"
)

// The page's side of a browser: running script in it, waiting for it,
// clicking, typing and reading what it shows.

// eval runs a JavaScript expression in the page and decodes its value.
func eval[T any](b *browser, expr string) T {
	b.t.Helper()
	v, err := chromedp.Run(b.ctx, chromedp.Evaluate[T](expr, chromedp.EvalAwaitPromise))
	if err != nil {
		b.t.Fatalf("evaluating %s: %v", shorten(expr), err)
	}
	return v
}

// wait polls a JavaScript condition until it is true, failing the test with
// what (and the page's status line) if the test's time runs out first.
func (b *browser) wait(what, cond string) {
	b.t.Helper()
	if err := b.waitErr(cond, 0); err != nil {
		b.t.Fatalf("waiting for %s (%s): %v\nstatus line: %q", what, shorten(cond), err, b.statusLine())
	}
}

// waitErr polls cond until it is true, for at most limit (0: the test's
// whole time).
func (b *browser) waitErr(cond string, limit time.Duration) error {
	ctx := b.ctx
	if limit > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, limit)
		defer cancel()
	}
	expr := "!!(" + cond + ")"
	for {
		ok, err := chromedp.Run(ctx, chromedp.Evaluate[bool](expr))
		// A page being replaced (a navigation, a reload) has no context to
		// evaluate in for a moment: try again.
		if err == nil && ok {
			return nil
		}
		select {
		case <-ctx.Done():
			if err != nil {
				return fmt.Errorf("%w (last error: %v)", ctx.Err(), err)
			}
			return ctx.Err()
		case <-time.After(25 * time.Millisecond):
		}
	}
}

// statusLine is the dock's status line, for failure messages.
func (b *browser) statusLine() string {
	s, err := chromedp.Run(b.ctx, chromedp.Evaluate[string](`(document.querySelector('#status')||{}).textContent||''`))
	if err != nil {
		return ""
	}
	return strings.TrimSpace(s)
}

// click moves the mouse to the middle of the element and clicks it, as a
// person would, after scrolling it into view.
func (b *browser) click(sel string) {
	b.t.Helper()
	b.wait(sel+" to be visible", visible(sel))
	if err := b.tryClick(sel); err != nil {
		b.t.Fatalf("clicking %s: %v", sel, err)
	}
}

// tryClick clicks the element if it is there, or says why not: a push may
// take a button away between a look and a click.
func (b *browser) tryClick(sel string) error {
	type point struct {
		X, Y  float64
		Found bool
	}
	pt, err := chromedp.Run(b.ctx, chromedp.Evaluate[point](fmt.Sprintf(`(() => {
		const el = document.querySelector(%s);
		if (!el) return {Found: false};
		el.scrollIntoView({block: 'center', inline: 'center'});
		const r = el.getBoundingClientRect();
		return {X: r.left + r.width / 2, Y: r.top + r.height / 2, Found: true};
	})()`, jsString(sel))))
	if err != nil {
		return err
	}
	if !pt.Found {
		return fmt.Errorf("no %s on the page", sel)
	}
	return chromedp.Do(b.ctx, chromedp.MouseClickXY(pt.X, pt.Y))
}

// press types keys at the page, as onto its body (nothing focused that
// takes text).
func (b *browser) press(keys string) {
	b.t.Helper()
	if err := chromedp.Do(b.ctx, chromedp.KeyEvent(keys)); err != nil {
		b.t.Fatalf("pressing %q: %v", keys, err)
	}
}

// fill sets a form field's value as typing would, firing input and change.
func (b *browser) fill(sel, value string) {
	b.t.Helper()
	b.wait(sel+" to exist", exists(sel))
	eval[bool](b, fmt.Sprintf(`(() => {
		const el = document.querySelector(%s);
		el.value = %s;
		el.dispatchEvent(new Event('input', {bubbles: true}));
		el.dispatchEvent(new Event('change', {bubbles: true}));
		return true;
	})()`, jsString(sel), jsString(value)))
}

// text is an element's visible text, trimmed ("" when there is none).
func (b *browser) text(sel string) string {
	b.t.Helper()
	return strings.TrimSpace(eval[string](b, fmt.Sprintf(`(document.querySelector(%s)||{}).innerText||''`, jsString(sel))))
}

// count is how many elements match sel.
func (b *browser) count(sel string) int {
	b.t.Helper()
	return eval[int](b, fmt.Sprintf(`document.querySelectorAll(%s).length`, jsString(sel)))
}

// html is the whole document as it stands.
func (b *browser) html() string {
	b.t.Helper()
	return eval[string](b, `document.documentElement.outerHTML`)
}

// path is the page's current path.
func (b *browser) path() string {
	b.t.Helper()
	return eval[string](b, `location.pathname`)
}

// screenshot is a PNG of the viewport.
func (b *browser) screenshot() []byte {
	b.t.Helper()
	png, err := chromedp.Run(b.ctx, chromedp.CaptureScreenshot())
	if err != nil {
		b.t.Fatalf("taking a screenshot: %v", err)
	}
	return png
}

// cookies are the browser's cookies for the site, by name.
func (b *browser) cookies() []*network.Cookie {
	b.t.Helper()
	res, err := chromedp.Call(b.ctx, network.GetCookies, network.GetCookiesParams{URLs: []string{b.base + "/games/"}})
	if err != nil {
		b.t.Fatalf("reading cookies: %v", err)
	}
	return res.Cookies
}

// exists is a condition: an element matches sel.
func exists(sel string) string {
	return fmt.Sprintf(`document.querySelector(%s) !== null`, jsString(sel))
}

// visible is a condition: an element matching sel is shown and takes room.
func visible(sel string) string {
	return fmt.Sprintf(`[...document.querySelectorAll(%s)].some(el => {
		const s = getComputedStyle(el), r = el.getBoundingClientRect();
		return s.visibility !== 'hidden' && s.display !== 'none' && r.width > 0 && r.height > 0;
	})`, jsString(sel))
}

// jsString quotes s as a JavaScript string literal.
func jsString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

func shorten(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > 120 {
		return s[:117] + "..."
	}
	return s
}

// visibleNow reports whether an element matching sel is shown right now.
func (b *browser) visibleNow(sel string) bool {
	b.t.Helper()
	return eval[bool](b, visible(sel))
}
