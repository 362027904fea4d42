package browser

import (
	"fmt"
	"testing"
	"time"
)

// TestBrowserFocusStaysInTheHandAfterEveryClaim claims turn after turn by
// keyboard alone (a card focused, Space, C; every other turn the focus then
// moved to a card that stays in the hand) at real speed, and after each
// claim finds the focus in the hand or the dock, not on the page itself, at
// moments from the server's answer through the call window, so Tab and the
// keys go on from where the person was.
func TestBrowserFocusStaysInTheHandAfterEveryClaim(t *testing.T) {
	ctx := testContext(t, 4*time.Minute)
	s := newSite(t, fastSpeed)
	b := newBrowser(ctx, t, s.base, laptopWidth, laptopHeight)
	id := createTable(b, tableSettings{name: "Ada", bots: 3, window: "4"})
	startGame(b)
	p := &person{b: b, s: s, game: id, seat: 0, keys: true}
	for claim := 1; claim <= 6; claim++ {
		v := untilTurn(t, p)
		card := eval[string](b, `document.querySelector('#hand input[name=card]').value`)
		eval[bool](b, fmt.Sprintf(`(() => { for (const el of document.querySelectorAll('#hand input[name=card]')) el.checked = false;
			document.querySelector('#hand input[value=%s]').focus(); return true; })()`, jsString(card)))
		b.press(" ")
		b.wait("the card picked", fmt.Sprintf(`document.querySelector('#hand input[value=%s]').checked`, jsString(card)))
		if claim%2 == 0 {
			// The focus moves on to a card that stays in the hand.
			b.press("\t")
		}
		b.press("c")
		for deadline := time.Now().Add(5 * time.Second); s.view(id, 0).Plays == v.Plays && time.Now().Before(deadline); {
			time.Sleep(5 * time.Millisecond)
		}
		if s.view(id, 0).Plays == v.Plays {
			t.Fatalf("claim %d wasn't made (status line %q)", claim, b.statusLine())
		}
		last := time.Duration(0)
		for _, at := range []time.Duration{100 * time.Millisecond, 400 * time.Millisecond, time.Second, 2 * time.Second} {
			time.Sleep(at - last)
			last = at
			where := eval[string](b, `(() => { const a = document.activeElement;
				if (!a || a === document.body) return 'the page';
				return (a.closest('#hand, #dock') || {id: 'elsewhere: ' + a.tagName}).id; })()`)
			if where != "hand" && where != "dock" {
				t.Errorf("claim %d, %v after the server took it: the focus is on %s, want in the hand or the dock", claim, at, where)
			}
		}
		s.setSpeed(fastSpeed)
	}
}
