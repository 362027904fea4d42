package browser

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"bullshit/engine"
	"bullshit/game"
)

// botGame plays a game of four bots to its end on the site's clock, sped
// up, and returns its id.
func botGame(t *testing.T, s *site) string {
	t.Helper()
	ctx := context.Background()
	req := game.CreateRequest{HostName: "Ada", Options: engine.Standard(engine.MaxSeats)}
	for _, style := range []string{"bold", "caller", "cautious"} {
		req.Bots = append(req.Bots, game.BotSpec{Level: "hard", Style: style})
	}
	j, err := s.mgr.Create(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	id := j.Game.ID
	if err := s.mgr.Start(ctx, id, 0); err != nil {
		t.Fatalf("start: %v", err)
	}
	if err := s.mgr.HandToBot(ctx, id, 0, 0); err != nil {
		t.Fatalf("hand Ada's seat to a bot: %v", err)
	}
	s.setSpeed(200)
	defer s.setSpeed(fastSpeed)
	for deadline := time.Now().Add(2 * time.Minute); s.summary(id).Status != game.StatusFinished; {
		if time.Now().After(deadline) {
			t.Fatalf("game %s still %s", id, s.summary(id).Status)
		}
		time.Sleep(20 * time.Millisecond)
	}
	return id
}

// TestBrowserReviewSteps opens a finished game's review on a phone: the deal
// shows every hand; the keys step on and back, to the last play and the
// first, and the slider jumps, each updating the address; axe-core finds no
// serious or critical violation at the deal or at a play; nothing sticks out
// at 320 px; and on a laptop the result stands beside the step.
func TestBrowserReviewSteps(t *testing.T) {
	ctx := testContext(t, 3*time.Minute)
	s := newSite(t, fastSpeed)
	id := botGame(t, s)
	b := newBrowser(ctx, t, s.base, phoneWidth, phoneHeight)
	b.open("/games/" + id + "/review")
	b.wait("the review at the deal", `document.querySelector('#review-step[data-step="0"]')`)
	if n := b.count(".rv-hand"); n != 4 {
		t.Errorf("the deal shows %d hands, want 4", n)
	}
	if n := b.count(".rv-hand .rv-card"); n != 52 {
		t.Errorf("the deal shows %d cards, want the deck's 52", n)
	}
	last := eval[int](b, `+document.querySelector('#review-step').dataset.last`)
	if last < 3 {
		t.Fatalf("the game has %d plays, want a few", last)
	}
	b.checkAxe("the deal")

	stepTo := func(how string, want int, act func()) {
		t.Helper()
		act()
		b.wait(fmt.Sprintf("step %d after %s", want, how), fmt.Sprintf(
			`document.querySelector('#review-step[data-step="%d"]') && location.search === '?step=%d' && !document.querySelector('.htmx-request')`, want, want))
		if want > 0 && b.count(".rv-hand") != 0 {
			t.Errorf("after %s: the dealt hands still show at a play", how)
		}
		if want > 0 && !strings.Contains(b.text("#review-step"), fmt.Sprintf("Play %d of %d", want, last)) {
			t.Errorf("after %s: got %q, want play %d of %d", how, shorten(b.text("#rv-step-title")), want, last)
		}
	}
	stepTo("Right", 1, func() { b.press(kb.ArrowRight) })
	stepTo("Right again", 2, func() { b.press(kb.ArrowRight) })
	stepTo("Left", 1, func() { b.press(kb.ArrowLeft) })
	stepTo("End", last, func() { b.press(kb.End) })
	if b.count("a#rv-next") != 0 {
		t.Errorf("at the last play the Next button still links on")
	}
	b.checkAxe("the last play")
	stepTo("Home", 0, func() { b.press(kb.Home) })
	if b.count(".rv-hand") != 4 {
		t.Errorf("back at the deal: got %d hands, want 4", b.count(".rv-hand"))
	}
	mid := last / 2
	stepTo("the slider", mid, func() {
		eval[bool](b, fmt.Sprintf(`(() => { const s = document.querySelector('#rv-slider'); s.focus(); s.value = %d;
			s.dispatchEvent(new Event('input', {bubbles: true})); return true })()`, mid))
	})
	if v := eval[string](b, `document.querySelector('#rv-slider').value`); v != fmt.Sprint(mid) {
		t.Errorf("the slider shows %s after the step, want %d", v, mid)
	}
	stepTo("the Next button", mid+1, func() { b.click("#rv-next") })
	b.shoot("review-390x844.png")

	if err := chromedp.Do(b.ctx, chromedp.EmulateViewport(320, 640, chromedp.EmulateScale(1), chromedp.EmulateMobile)); err != nil {
		t.Fatal(err)
	}
	checkFits(t, b, "a play of the review")
	stepTo("Home at 320 px", 0, func() { b.press(kb.Home) })
	checkFits(t, b, "the deal of the review")
	if err := chromedp.Do(b.ctx, chromedp.EmulateViewport(laptopWidth, laptopHeight, chromedp.EmulateScale(1))); err != nil {
		t.Fatal(err)
	}
	b.wait("the result beside the step on a laptop", `document.querySelector('.rv-side').getBoundingClientRect().left >=
		document.querySelector('#review-step').getBoundingClientRect().right`)
	// A called play, with a hand-over if the game had one, as linked.
	_, rv, err := s.mgr.Reviewed(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	called, handed := 0, false
	for _, p := range rv.Plays {
		if p.Call != nil && (called == 0 || p.HandOver != nil && !handed) {
			called, handed = p.No, p.HandOver != nil
		}
	}
	if called == 0 {
		t.Fatal("nobody called in the whole game")
	}
	b.open(fmt.Sprintf("/games/%s/review?step=%d", id, called))
	b.wait("the called play", fmt.Sprintf(`document.querySelector('#review-step[data-step="%d"]')`, called))
	if txt := b.text("#review-step"); !strings.Contains(txt, "took the pile") || handed && !strings.Contains(txt, "handed") {
		t.Errorf("the called play %d (hand-over %v) reads %q, want who took the pile and the hand-over", called, handed, shorten(txt))
	}
	b.shoot("review-1280x800.png")

	// The finished games on a narrow phone: the game is listed, the search
	// finds it by its host's name in another case, and a name nobody has
	// empties the list, each without a reload.
	if err := chromedp.Do(b.ctx, chromedp.EmulateViewport(320, 640, chromedp.EmulateScale(1), chromedp.EmulateMobile)); err != nil {
		t.Fatal(err)
	}
	b.open("/games")
	b.wait("the finished games", fmt.Sprintf(`document.querySelector('#game-%s a[href="/games/%s/review"]')`, id, id))
	checkFits(t, b, "the finished games")
	b.checkAxe("the finished games")
	eval[bool](b, `(window.notReloaded = true)`)
	b.fill("#games-player", "nobody")
	b.wait("an empty search", `document.querySelector('#games-list .empty') && location.search === '?player=nobody'`)
	b.fill("#games-player", "ADA")
	b.wait("Ada's games", fmt.Sprintf(`document.querySelector('#game-%s') && location.search === '?player=ADA' && window.notReloaded`, id))
}

// shoot writes a screenshot into the folder BULLSHIT_SCREENSHOTS names, if
// it names one (make screenshots).
func (b *browser) shoot(name string) {
	b.t.Helper()
	if dir := os.Getenv("BULLSHIT_SCREENSHOTS"); dir != "" {
		if err := os.WriteFile(filepath.Join(dir, name), b.screenshot(), 0o644); err != nil {
			b.t.Error(err)
		}
	}
}

// checkAxe fails the test on a serious or critical axe-core violation.
func (b *browser) checkAxe(moment string) {
	b.t.Helper()
	for _, v := range b.axe() {
		b.t.Errorf("%s: %s (%s): %s\n  %s", moment, v.ID, v.Impact, v.Help, strings.Join(v.Nodes, "\n  "))
	}
}
