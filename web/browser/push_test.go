package browser

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"bullshit/engine"
)

// TestBrowserSelectionSurvivesPushes picks cards on the person's turn, turns
// the sneak switch on and leaves the focus on a card; then pushes arrive
// (two other people leave the table, so their seats change hands) and after
// each the cards picked, the switch and the focus are as the person left
// them. The claim then sends exactly those cards with that sneak.
//
// Cards can be picked only on one's own turn (or hand-over), when no other
// seat plays, so the pushes that can meet a selection are the table's other
// changes: people leaving or being covered.
func TestBrowserSelectionSurvivesPushes(t *testing.T) {
	ctx := testContext(t, 3*time.Minute)
	s := newSite(t, fastSpeed)
	b := newBrowser(ctx, t, s.base, phoneWidth, phoneHeight)
	id := createTable(b, tableSettings{name: "Ada", bots: 1, window: "4", sneak: "2"})
	// Two people without browsers, whose moves the test makes.
	for _, name := range []string{"Bea", "Cid"} {
		if _, err := s.mgr.Join(ctx, id, name, 0); err != nil {
			t.Fatal(err)
		}
	}
	b.wait("the others in the waiting room", `document.querySelector('#waiting').innerText.includes('Cid')`)
	startGame(b)
	var others []int
	for _, st := range s.summary(id).Seats {
		if st.Name == "Bea" || st.Name == "Cid" {
			others = append(others, st.Seat)
		}
	}

	// Play until it is the person's turn to play, with cards to spare.
	p := &person{b: b, s: s, game: id, seat: 0}
	for {
		v := s.view(id, 0)
		if v.Phase == engine.PhaseOver {
			t.Fatal("the game ended before the person's turn came")
		}
		if len(v.Can) > 0 && v.Can[0] == engine.ActPlay && len(v.Hand) >= 4 {
			break
		}
		moved := p.step()
		for _, seat := range others {
			if a, ok := s.view(id, seat).Fallback(); ok {
				_, err := s.mgr.Act(ctx, id, a)
				moved = moved || err == nil
			}
		}
		if !moved {
			time.Sleep(10 * time.Millisecond)
		}
	}
	s.setSpeed(1) // the person's turn waits for them; keep it from timing out
	b.wait("the person's turn", `!document.querySelector('#claim').disabled`)

	// Pick two cards of our own choosing (not the ones picked for us), turn
	// the sneak switch on, and leave the focus on the second card.
	cards, picked, codes := p.hand()
	mine := []engine.Card{cards[0], cards[len(cards)-1]}
	for _, c := range cards {
		if picked[c] != slices.Contains(mine, c) {
			p.toggle(codes[c])
		}
	}
	b.click("#sneak")
	sneak := b.sneakState()
	if !strings.Contains(sneak, "+1") {
		t.Fatalf("the sneak switch after a press: got %q, want it at +1", sneak)
	}
	focused := codes[mine[1]]
	eval[bool](b, fmt.Sprintf(`(document.querySelector('#hand input[name=card][value=%s]').focus(), true)`, jsString(focused)))
	eval[bool](b, `(window.__sameDocument = true)`)

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
			t.Errorf("cards picked %s: got %v, want %v", when, sortedCards(got), sortedCards(mine))
		}
		if f := eval[string](b, `(document.activeElement && document.activeElement.value) || ''`); f != focused {
			t.Errorf("the focus %s: on the element with value %q, want the card %s", when, f, focused)
		}
		if got := b.sneakState(); got != sneak {
			t.Errorf("the sneak switch %s: got %q, want %q", when, got, sneak)
		}
		if !eval[bool](b, `window.__sameDocument === true`) {
			t.Fatalf("the page reloaded %s", when)
		}
	}
	before := s.view(id, 0)
	for _, seat := range others {
		frames := b.frames()
		if err := s.mgr.Leave(ctx, id, seat); err != nil {
			t.Fatalf("seat %d leaving: %v", seat, err)
		}
		b.waitFrames(frames + 1)
		// Let the page apply it before looking.
		time.Sleep(150 * time.Millisecond)
		check(fmt.Sprintf("after seat %d left", seat))
	}
	if v := s.view(id, 0); v.Version != before.Version || len(v.Can) == 0 {
		t.Fatalf("the game moved while the seats changed hands: version %d, want %d", v.Version, before.Version)
	}

	// The claim sends what is picked, with the sneak.
	b.click("#claim")
	deadline := time.Now().Add(5 * time.Second)
	for s.view(id, 0).Plays == before.Plays && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	v := s.view(id, 0)
	if v.Last == nil || v.Last.Seat != 0 {
		t.Fatalf("the claim wasn't taken (status line %q)", b.statusLine())
	}
	if got := sortedCards(v.Last.Cards); !slices.Equal(got, sortedCards(mine)) {
		t.Errorf("cards played: got %v, want %v", got, sortedCards(mine))
	}
	if v.Last.Claim != len(mine)-1 {
		t.Errorf("cards claimed: got %d, want %d (one sneaked)", v.Last.Claim, len(mine)-1)
	}
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

// waitFrames waits until the page's stream has delivered n frame events.
func (b *browser) waitFrames(n int) {
	b.t.Helper()
	for b.frames() < n {
		select {
		case <-b.ctx.Done():
			b.t.Fatalf("waiting for frame event %d: %v (got %d)", n, b.ctx.Err(), b.frames())
		case <-time.After(10 * time.Millisecond):
		}
	}
}

// sneakState is how the sneak switch stands ("" when there is none): its
// checked or pressed state and what it says.
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
