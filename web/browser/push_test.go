package browser

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"bullshit/engine"
)

// TestBrowserSelectionSurvivesPushes picks cards while the bots play, then
// lets pushes arrive (the bots' plays, their call windows and the clock's
// ticks) and checks after each that the cards picked, the focus and the
// sneak switch are as the person left them.
func TestBrowserSelectionSurvivesPushes(t *testing.T) {
	ctx := testContext(t, 3*time.Minute)
	s := newSite(t, personSpeed)
	b := newBrowser(ctx, t, s.base, phoneWidth, phoneHeight)
	id := createTable(b, tableSettings{name: "Ada", bots: 3, window: "4", sneak: "2"})
	startGame(b)
	p := &person{b: b, s: s, game: id, seat: 0}

	// Wait for a bot's turn (playing our own turns meanwhile) with at least
	// two other seats to play before ours comes back.
	deadline := time.Now().Add(time.Minute)
	for {
		if time.Now().After(deadline) {
			t.Fatal("no bot's turn came with two more to follow")
		}
		if p.step() {
			continue
		}
		v := s.view(id, 0)
		n := len(v.Seats)
		if v.Phase == engine.PhasePlay && v.Turn != 0 && (n-v.Turn) >= 2 && len(v.Hand) >= 3 {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}

	cards, _, codes := p.hand()
	mine := []engine.Card{cards[0], cards[len(cards)-1]}
	for _, c := range mine {
		p.toggle(codes[c])
	}
	focused := codes[mine[1]]
	eval[bool](b, fmt.Sprintf(`(document.querySelector('#hand input[name=card][value=%s]').focus(), true)`, jsString(focused)))
	sneak := b.sneakState()
	if sneak != "" && eval[bool](b, `(() => { const el = document.querySelector('#sneak'); return !!el && !el.disabled; })()`) {
		b.click("#sneak")
		// The click moved the focus to the switch; put it back on the card.
		eval[bool](b, fmt.Sprintf(`(document.querySelector('#hand input[name=card][value=%s]').focus(), true)`, jsString(focused)))
		sneak = b.sneakState()
	} else {
		sneak = ""
	}

	check := func(when string) {
		t.Helper()
		_, picked, _ := p.hand()
		var got []engine.Card
		for c, on := range picked {
			if on {
				got = append(got, c)
			}
		}
		if !slices.Equal(sortedCards(got), sortedCards(mine)) {
			t.Fatalf("cards picked %s: got %v, want %v", when, sortedCards(got), sortedCards(mine))
		}
		if f := eval[string](b, `(document.activeElement && document.activeElement.value) || ''`); f != focused {
			t.Errorf("the focus %s: got the element with value %q, want the card %s", when, f, focused)
		}
		if sneak != "" {
			if got := b.sneakState(); got != sneak {
				t.Errorf("the sneak switch %s: got %q, want %q", when, got, sneak)
			}
		}
	}

	// Follow the pushes until our own turn comes round again.
	start := s.view(id, 0)
	frames := b.frames()
	pushes := 0
	for {
		v := s.view(id, 0)
		if len(v.Can) > 0 || v.Phase == engine.PhaseOver {
			break
		}
		if n := b.frames(); n > frames {
			frames = n
			pushes++
			// Let the page apply the event before looking.
			time.Sleep(100 * time.Millisecond)
			check(fmt.Sprintf("after push %d (play %d, %s phase)", pushes, v.Plays, v.Phase))
		}
		time.Sleep(10 * time.Millisecond)
	}
	end := s.view(id, 0)
	if end.Plays-start.Plays < 2 {
		t.Errorf("plays while the cards were picked: got %d, want at least 2 (the bots')", end.Plays-start.Plays)
	}
	if pushes < 4 {
		t.Errorf("pushes received while the cards were picked: got %d, want at least 4", pushes)
	}
	t.Logf("the selection survived %d pushes over %d plays", pushes, end.Plays-start.Plays)
}

// frames is how many frame events the page's stream has delivered.
func (b *browser) frames() int {
	n := 0
	for _, r := range b.everything() {
		if r.kind == "frame" {
			n++
		}
	}
	return n
}

// sneakState is how the sneak switch stands ("" when there is none): its
// checked or pressed state.
func (b *browser) sneakState() string {
	b.t.Helper()
	return eval[string](b, `(() => {
		const el = document.querySelector('#sneak');
		if (!el) return '';
		const box = el.matches('input') ? el : el.querySelector('input[type=checkbox]');
		if (box) return 'checked=' + box.checked;
		return 'pressed=' + el.getAttribute('aria-pressed') + ' ' + el.innerText.trim().split(/\s+/).join(' ');
	})()`)
}
