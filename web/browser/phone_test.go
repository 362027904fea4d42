package browser

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"bullshit/engine"
)

// look writes a screenshot to $BULLSHIT_LOOK, for a person to read while
// changing the pages (make test never sets it).
func look(b *browser, name string) {
	dir := os.Getenv("BULLSHIT_LOOK")
	if dir == "" {
		return
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		b.t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, name+".png"), b.screenshot(), 0o644); err != nil {
		b.t.Fatal(err)
	}
}

// untilTurn plays the person's seat until it is their turn to play, and
// holds the table there at real time; it fails the test if the game ends
// first.
func untilTurn(t *testing.T, p *person) engine.View {
	t.Helper()
	for {
		v := p.s.view(p.game, p.seat)
		if v.Phase == engine.PhaseOver {
			t.Fatal("the game ended before the person's turn came")
		}
		if len(v.Can) > 0 && v.Can[0] == engine.ActPlay && len(v.Hand) > 1 {
			p.s.setSpeed(1)
			if p.b.waitErr(`!document.querySelector('#claim').disabled`, 10*time.Second) != nil {
				look(p.b, "no-turn")
				p.b.t.Logf("the person's turn doesn't show: %s", p.b.streamReport())
			}
			p.b.wait("the person's turn", fmt.Sprintf(`document.querySelector('#dock').dataset.no === %s && !document.querySelector('#claim').disabled`,
				jsString(strconv.Itoa(v.Plays))))
			p.waitHand()
			return v
		}
		if !p.step() {
			time.Sleep(10 * time.Millisecond)
		}
	}
}

// TestBrowserWholeHandAboveTheDock: at 320x640 on the person's turn, with
// the first game's tip open, every card of a hand of thirteen is in the
// screen and above the dock, without scrolling, and shows at least 32 px
// to tap.
func TestBrowserWholeHandAboveTheDock(t *testing.T) {
	ctx := testContext(t, 3*time.Minute)
	s := newSite(t, fastSpeed)
	b := newBrowser(ctx, t, s.base, 320, 640)
	// Four seats of one deck: thirteen cards each.
	id := createTable(b, tableSettings{name: "Ada", bots: 3, window: "10"})
	startGame(b)
	p := &person{b: b, s: s, game: id, seat: 0}
	v := untilTurn(t, p)
	defer s.setSpeed(fastSpeed)
	// As the page stands for a person who hasn't scrolled, the middle's
	// line as long as a reveal between two bots makes it (two lines here),
	// whichever play the turn came at.
	eval[bool](b, `(document.querySelector('#claim-line').textContent = "Cautious bot called Caller bot's one ace", window.scrollTo(0, 0), true)`)
	if err := b.waitErr(visible(".teach[data-teach=claim]"), 2*time.Second); err != nil {
		t.Fatal("the first game's tip isn't open on the first turn")
	}
	look(b, "turn-320x640")
	if dir := os.Getenv("BULLSHIT_SCREENSHOTS"); dir != "" {
		// make screenshots: the first turn of a small phone, for docs/screens.
		if err := os.WriteFile(filepath.Join(dir, "first-turn-320x640.png"), b.screenshot(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	type box struct {
		Code                     string
		Top, Bottom, Left, Right float64
	}
	type fit struct {
		Cards          []box
		DockTop, Inner float64
		Scroll         float64
	}
	f := eval[fit](b, `(() => ({
		Cards: [...document.querySelectorAll('#hand label.card')].map(el => { const r = el.getBoundingClientRect();
			return {Code: el.querySelector('input').value, Top: r.top, Bottom: r.bottom, Left: r.left, Right: r.right}; }),
		DockTop: document.querySelector('#dock').getBoundingClientRect().top,
		Inner: window.innerHeight, Scroll: window.scrollY,
	}))()`)
	if len(f.Cards) != len(v.Hand) {
		t.Fatalf("cards in the page's hand: got %d, want %d", len(f.Cards), len(v.Hand))
	}
	var under []string
	for _, c := range f.Cards {
		if c.Top < 0 || c.Bottom > f.DockTop+0.5 {
			under = append(under, fmt.Sprintf("%s [%.0f, %.0f]", c.Code, c.Top, c.Bottom))
		}
	}
	if len(under) > 0 {
		// What took the height, for the one who reads the failure.
		parts := eval[string](b, `['.bar', '.seats', '#middle', '#claim-line', '#sizes', '#doubt', '.teach', '#status', '#hand']
			.map(q => { const el = document.querySelector(q); if (!el) return q + ' none';
				const r = el.getBoundingClientRect(); return q + ' ' + Math.round(r.top) + '+' + Math.round(r.height) + ' "' + el.innerText.replace(/\s+/g, ' ').slice(0, 60) + '"'; }).join('; ')`)
		t.Errorf("a hand of %d at 320x640 with the tip open, scrolled %.0f: %d cards not wholly above the dock (its top at %.0f): %s\nthe page: %s",
			len(f.Cards), f.Scroll, len(under), f.DockTop, strings.Join(under, ", "), parts)
	}
	// What a thumb can hit of each card: up to the next card of its row.
	var narrow []string
	for i, c := range f.Cards {
		shown := c.Right - c.Left
		if i+1 < len(f.Cards) && f.Cards[i+1].Top == c.Top {
			shown = f.Cards[i+1].Left - c.Left
		}
		if shown < 32 {
			narrow = append(narrow, fmt.Sprintf("%s %.0f px", c.Code, shown))
		}
	}
	if len(narrow) > 0 {
		t.Errorf("a hand of %d at 320x640: cards showing less than 32 px to tap: %s", len(f.Cards), strings.Join(narrow, ", "))
	}
}

// TestBrowserKeyboardKeepsItsPlace plays by keyboard at a phone's size:
// the table page's first load asks for the hint once; the person's own seat shows their exact count; after O (sort by suit) Tab
// goes through the cards in the order they are shown; and a claim made with
// the focus on a card leaves the focus in the hand or the dock, not on the
// page itself, so the next Tab goes on from there.
func TestBrowserKeyboardKeepsItsPlace(t *testing.T) {
	ctx := testContext(t, 3*time.Minute)
	s := newSite(t, fastSpeed)
	b := newBrowser(ctx, t, s.base, phoneWidth, phoneHeight)
	id := createTable(b, tableSettings{name: "Ada", bots: 3, window: "10"})
	startGame(b)
	p := &person{b: b, s: s, game: id, seat: 0, keys: true}
	v := untilTurn(t, p)

	// The page's first load asks for the hint once, however many pushes
	// and swaps come meanwhile. The page before it is closed first, so
	// none of its own asking is counted.
	b.open("about:blank")
	b.settle()
	b.resetCapture()
	b.open("/games/" + id)
	b.wait("the hint's answer", `!!document.querySelector('#claim[data-hint]')`)
	time.Sleep(1500 * time.Millisecond)
	b.settle()
	hints := 0
	for _, l := range b.loaded() {
		if strings.Contains(l.url, "/games/"+id+"/hint") {
			hints++
		}
	}
	if hints != 1 {
		t.Errorf("the table page's first load asked /hint %d times, want once", hints)
	}

	if got := strings.Join(strings.Fields(strings.TrimPrefix(b.text("#seat-0 .count"), "cards:")), " "); got != strconv.Itoa(len(v.Hand)) {
		t.Errorf("the person's own seat: got %q, want their exact count %d", got, len(v.Hand))
	}

	b.press("o")
	b.wait("the hand sorted by suit", `document.documentElement.classList.contains('by-suit')`)
	// The cards as laid out (a picked card's lift aside), left to right and
	// row by row, and as Tab meets them.
	shown := eval[[]string](b, `[...document.querySelectorAll('#hand label.card')]
		.map(el => ({v: el.querySelector('input').value, top: el.offsetTop, left: el.offsetLeft}))
		.sort((a, b) => (a.top - b.top) || (a.left - b.left)).map(x => x.v)`)
	eval[bool](b, `(document.querySelector('#hand input[name=card]').focus(), true)`)
	first := eval[string](b, `document.activeElement.value`)
	tabbed := []string{first}
	for range len(shown) - 1 {
		b.press("\t")
		tabbed = append(tabbed, eval[string](b, `document.activeElement.value || document.activeElement.id`))
	}
	if first != shown[0] || !slices.Equal(tabbed, shown) {
		t.Errorf("sorted by suit, Tab goes %v; the cards are shown %v", tabbed, shown)
	}

	// Claim with the focus on a card: pick it with Space, press C.
	card := shown[len(shown)-1]
	eval[bool](b, fmt.Sprintf(`(() => { for (const el of document.querySelectorAll('#hand input[name=card]')) el.checked = false;
		document.querySelector('#hand input[value=%s]').focus(); return true; })()`, jsString(card)))
	b.press(" ")
	b.wait("the card picked", fmt.Sprintf(`document.querySelector('#hand input[value=%s]').checked`, jsString(card)))
	b.press("c")
	for deadline := time.Now().Add(5 * time.Second); s.view(id, 0).Plays == v.Plays && time.Now().Before(deadline); {
		time.Sleep(10 * time.Millisecond)
	}
	if s.view(id, 0).Plays == v.Plays {
		t.Fatalf("the claim wasn't made (status line %q)", b.statusLine())
	}
	b.wait("the card gone from the hand", fmt.Sprintf(`!document.querySelector('#hand input[value=%s]')`, jsString(card)))
	time.Sleep(200 * time.Millisecond) // the pushes after the claim
	where := eval[string](b, `(() => { const a = document.activeElement;
		if (!a || a === document.body) return 'body';
		return (a.closest('#hand, #dock') || {id: 'elsewhere: ' + a.tagName}).id; })()`)
	if where != "hand" && where != "dock" {
		t.Errorf("after a claim made from a card, the focus is on %s, want in the hand or the dock", where)
	}
	s.setSpeed(fastSpeed)
}

// TestBrowserResultSheetFitsAPhone plays a game to its result sheet at 320
// px: the table of results fits its box with no sideways scroll and breaks
// no word inside; at 390 px the sizes line never breaks a range ("9-10") at
// its hyphen.
func TestBrowserResultSheetFitsAPhone(t *testing.T) {
	ctx := testContext(t, 4*time.Minute)
	s := newSite(t, fastSpeed)
	b := newBrowser(ctx, t, s.base, phoneWidth, phoneHeight)
	id := createTable(b, tableSettings{name: "Ada", bots: 5, window: "4", sneak: "2"})
	startGame(b)
	p := &person{b: b, s: s, game: id, seat: 0, callEvery: 4}
	ranges := 0
	p.onMove = func(v engine.View) {
		if ranges >= 3 || v.Phase != engine.PhaseCall {
			return
		}
		if broken := brokenRanges(b, "#sizes"); broken != "" {
			t.Errorf("at 390 px the sizes line breaks a range at its hyphen: %s (%q)", broken, b.text("#sizes"))
		}
		if strings.ContainsAny(b.text("#sizes"), "-") {
			ranges++
		}
	}
	p.playToEnd()
	look(b, "result-390x844")
	if err := chromedpResize(b, 320, 640); err != nil {
		t.Fatal(err)
	}
	b.wait("the result sheet", visible("#result"))
	look(b, "result-320x640")
	type wrap struct{ Scroll, Client float64 }
	w := eval[wrap](b, `(() => { const el = document.querySelector('#result .table-wrap'); return {Scroll: el.scrollWidth, Client: el.clientWidth}; })()`)
	if w.Scroll > w.Client+0.5 {
		t.Errorf("at 320 px the result table is %.0f px wide in a %.0f px box", w.Scroll, w.Client)
	}
	if broken := brokenWords(b, "#result table"); broken != "" {
		t.Errorf("at 320 px the result table breaks words inside: %s", broken)
	}
	checkFits(t, b, "the result sheet")
}

// brokenRanges names the ranges ("9-10") in sel's text that are laid out on
// more than one line.
func brokenRanges(b *browser, sel string) string {
	return eval[string](b, fmt.Sprintf(`(() => {
		const el = document.querySelector(%s); if (!el) return '';
		const out = [];
		const walk = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
		for (let n = walk.nextNode(); n; n = walk.nextNode()) {
			for (const m of n.data.matchAll(/\d+[-\u2011]\d+/g)) {
				const r = document.createRange(); r.setStart(n, m.index); r.setEnd(n, m.index + m[0].length);
				const tops = new Set([...r.getClientRects()].map(x => Math.round(x.top)));
				if (tops.size > 1) out.push(m[0]);
			}
		}
		return out.join(', ');
	})()`, jsString(sel)))
}

// brokenWords names the words in sel's text laid out on more than one line.
func brokenWords(b *browser, sel string) string {
	return eval[string](b, fmt.Sprintf(`(() => {
		const el = document.querySelector(%s); if (!el) return '';
		const out = [];
		const walk = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
		for (let n = walk.nextNode(); n; n = walk.nextNode()) {
			for (const m of n.data.matchAll(/\S+/g)) {
				const r = document.createRange(); r.setStart(n, m.index); r.setEnd(n, m.index + m[0].length);
				const tops = new Set([...r.getClientRects()].filter(x => x.width > 0).map(x => Math.round(x.top)));
				if (tops.size > 1) out.push(m[0]);
			}
		}
		return out.join(', ');
	})()`, jsString(sel)))
}

// chromedpResize turns the browser's viewport to w by h, a touch phone's.
func chromedpResize(b *browser, w, h int) error {
	return chromedp.Do(b.ctx, chromedp.EmulateViewport(int64(w), int64(h), chromedp.EmulateScale(1), chromedp.EmulateMobile, chromedp.EmulateTouch))
}

// streamReport says what the page's event streams did, for a test that
// waits in vain for a push: every event received and every stream's answer.
func (b *browser) streamReport() string {
	var kinds []string
	for _, r := range b.everything() {
		if r.kind != "body" {
			kinds = append(kinds, r.kind+" "+r.id+" "+strings.TrimPrefix(r.url, b.base))
		}
	}
	b.mu.Lock()
	var answers []string
	for _, x := range b.statuses {
		if strings.Contains(x.url, "/events") {
			answers = append(answers, fmt.Sprint(x.code)+" "+strings.TrimPrefix(x.url, b.base))
		}
	}
	b.mu.Unlock()
	return fmt.Sprintf("the events: %v; the streams' answers: %v; #live: %s", kinds, answers,
		eval[string](b, `document.querySelector('#live').outerHTML`))
}
