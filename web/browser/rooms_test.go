package browser

import (
	"slices"
	"testing"
	"time"

	"bullshit/engine"
)

// TestBrowserWaitingRoomFillsLive has a second browser take a seat from the
// game's link: the host's page shows the seat filled without reloading, and
// when the host starts, both pages move to the table.
func TestBrowserWaitingRoomFillsLive(t *testing.T) {
	ctx := testContext(t, 2*time.Minute)
	s := newSite(t, personSpeed)
	host := newBrowser(ctx, t, s.base, phoneWidth, phoneHeight)
	guest := newBrowser(ctx, t, s.base, phoneWidth, phoneHeight)
	id := createTable(host, tableSettings{name: "Ada", bots: 1})
	host.wait("the waiting room", visible("#waiting"))
	host.wait("the share link", visible("#share"))
	if !eval[bool](host, `document.querySelector('#share').innerHTML.includes(`+jsString(id)+`)`) {
		t.Errorf("the share box doesn't give the game's link: %q", host.text("#share"))
	}
	// A page that reloads loses this mark.
	eval[bool](host, `(window.__sameDocument = true)`)
	before := host.text("#waiting")

	takeSeat(guest, id, "Bea")
	host.wait("the guest's seat in the host's waiting room", `document.querySelector('#waiting').innerText.includes('Bea')`)
	if !eval[bool](host, `window.__sameDocument === true`) {
		t.Error("the host's page reloaded to show the new seat; it should have been pushed")
	}
	t.Logf("the waiting room before: %q; after: %q", before, host.text("#waiting"))
	guest.wait("the guest's own waiting room", visible("#waiting"))
	if guest.count("#start") != 0 {
		t.Error("the guest sees the host's start button")
	}

	startGame(host)
	guest.wait("the table in the guest's browser", visible("#hand"))
	for _, x := range []struct {
		b    *browser
		name string
	}{{host, "Ada"}, {guest, "Bea"}} {
		seat := -1
		for _, st := range s.summary(id).Seats {
			if st.Name == x.name {
				seat = st.Seat
			}
		}
		(&person{b: x.b, s: s, game: id, seat: seat}).waitHand()
	}
}

// TestBrowserReloadKeepsTheSeatSpectatorSeesNoHand reloads a player's page
// mid-game: it comes back to the same seat, hand and all, from the cookie.
// A browser without the cookie, following the same link, watches: it gets
// the public view, no hand and no card of anyone's that hasn't been turned up.
func TestBrowserReloadKeepsTheSeatSpectatorSeesNoHand(t *testing.T) {
	ctx := testContext(t, 2*time.Minute)
	s := newSite(t, personSpeed)
	b := newBrowser(ctx, t, s.base, phoneWidth, phoneHeight)
	id := createTable(b, tableSettings{name: "Ada", bots: 3, window: "4"})
	startGame(b)
	p := &person{b: b, s: s, game: id, seat: 0}
	for s.view(id, 0).Plays < 6 {
		if !p.step() {
			time.Sleep(15 * time.Millisecond)
		}
	}
	eval[bool](b, `(window.__sameDocument = true)`)
	b.open("/games/" + id)
	b.wait("the reloaded page", `window.__sameDocument === undefined`)
	b.wait("the hand after the reload", visible("#hand"))
	p.waitHand()
	if !p.over() {
		p.step() // the seat still plays from the reloaded page
	}

	watcher := newBrowser(ctx, t, s.base, phoneWidth, phoneHeight)
	watcher.open("/games/" + id)
	watcher.wait("the table as a spectator sees it", visible("#seats"))
	if n := watcher.count("#hand input[name=card]"); n != 0 {
		t.Errorf("cards in the spectator's hand: got %d, want none", n)
	}
	if watcher.count("#take-seat") != 0 {
		t.Error("a spectator of a game being played is offered a seat")
	}
	if watcher.count("#claim") != 0 && watcher.visibleNow("#claim") {
		t.Error("a spectator is offered a claim button")
	}
	// Every card any seat holds now that is face down to the spectator.
	public := map[engine.Card]bool{}
	if v := s.view(id, engine.Spectator); v.Last != nil {
		for _, c := range v.Last.Cards {
			public[c] = true
		}
	}
	var hidden []engine.Card
	for seat := range s.summary(id).Seats {
		v, err := s.mgr.View(ctx, id, seat)
		if err != nil {
			continue
		}
		for _, c := range v.Hand {
			if !public[c] {
				hidden = append(hidden, c)
			}
		}
	}
	ownCodes := eval[[]string](b, `[...document.querySelectorAll('#hand input[name=card]')].map(el => el.value)`)
	if m := leakPattern(hidden, ownCodes).FindString(watcher.html()); m != "" {
		t.Errorf("the spectator's page holds %q, a card in someone's hand", m)
	}
}

// waitHand waits for the page to show the seat's hand as the server has it.
func (p *person) waitHand() {
	p.b.t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		hand := p.s.view(p.game, p.seat).Hand
		if p.b.waitErr(handIs(hand), 200*time.Millisecond) == nil {
			return
		}
		if time.Now().After(deadline) {
			got, _, _ := p.hand()
			p.b.t.Fatalf("the page's hand: got %v, want %v (the server's)", sortedCards(got), sortedCards(hand))
		}
	}
}

// handIs is a condition: the page's hand is exactly these cards.
func handIs(hand []engine.Card) string {
	codes := make([]string, 0, len(hand))
	for _, c := range sortedCards(hand) {
		codes = append(codes, c.String())
	}
	slices.Sort(codes)
	// The page may write a ten as "10"; compare through the engine's codes.
	return `(() => {
		const norm = v => v.toUpperCase().replace(/^10/, 'T');
		const got = [...document.querySelectorAll('#hand input[name=card]')].map(el => norm(el.value)).sort();
		return JSON.stringify(got) === ` + jsString(jsonList(codes)) + `;
	})()`
}

func jsonList(xs []string) string {
	out := "["
	for i, x := range xs {
		if i > 0 {
			out += ","
		}
		out += jsString(x)
	}
	return out + "]"
}

// TestBrowserTypedNameSurvivesPushes types a name into a spectator's "take a
// seat" box while others join the waiting room: the pushes that show them
// must leave the name being typed alone.
func TestBrowserTypedNameSurvivesPushes(t *testing.T) {
	ctx := testContext(t, time.Minute)
	s := newSite(t, personSpeed)
	host := newBrowser(ctx, t, s.base, phoneWidth, phoneHeight)
	id := createTable(host, tableSettings{name: "Ada", bots: 1})
	b := newBrowser(ctx, t, s.base, phoneWidth, phoneHeight)
	b.open("/games/" + id)
	b.wait("the take-a-seat box", visible("#take-seat [name=name]"))
	b.waitFrames(1)
	b.fill("#take-seat [name=name]", "Bea")
	for i, name := range []string{"Cid", "Dan"} {
		if i == 0 {
			eval[bool](b, `(document.querySelector('#take-seat [name=name]').focus(), true)`)
		} else {
			eval[bool](b, `(document.activeElement.blur(), true)`)
		}
		frames := b.frames()
		if _, err := s.mgr.Join(ctx, id, name, 0); err != nil {
			t.Fatal(err)
		}
		b.waitFrames(frames + 1)
		b.wait(name+" in the waiting room", `document.querySelector('#waiting').innerText.includes(`+jsString(name)+`)`)
		if got := eval[string](b, `document.querySelector('#take-seat [name=name]').value`); got != "Bea" {
			t.Errorf("the name typed after %s joined (focused: %v): got %q, want %q", name, i == 0, got, "Bea")
		}
	}
}
