package browser

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"bullshit/engine"
)

// tableSettings are what the lobby's create form is given.
type tableSettings struct {
	name   string
	bots   int
	window string // "4", "6" or "10" seconds
	sneak  string // "0" to "3"
}

// createTable fills in and sends the lobby's create form, and returns the new
// game's id once the page has moved to it.
func createTable(b *browser, ts tableSettings) string {
	b.t.Helper()
	b.open("/")
	b.wait("the create form", exists("#create"))
	b.fill("#create [name=name]", ts.name)
	b.fill("#create [name=bots]", fmt.Sprint(ts.bots))
	if ts.window != "" {
		b.pick("#create [name=window]", ts.window)
	}
	if ts.sneak != "" {
		b.pick("#create [name=sneak]", ts.sneak)
	}
	b.click("#create [type=submit]")
	b.wait("the new game's page", `location.pathname.startsWith('/games/')`)
	return gameID(b)
}

// pick chooses a value of a setting, whether the page offers it as a select
// or as radio buttons.
func (b *browser) pick(sel, value string) {
	b.t.Helper()
	b.wait(sel+" to exist", exists(sel))
	ok := eval[bool](b, fmt.Sprintf(`(() => {
		const els = [...document.querySelectorAll(%s)];
		const radio = els.find(el => el.type === 'radio' && el.value === %s);
		if (radio) { radio.click(); return true; }
		const el = els[0];
		if (el.type === 'radio') return false;
		el.value = %[2]s;
		el.dispatchEvent(new Event('change', {bubbles: true}));
		return el.value === %[2]s;
	})()`, jsString(sel), jsString(value)))
	if !ok {
		b.t.Fatalf("%s has no choice %q", sel, value)
	}
}

// gameID is the id of the game the page shows.
func gameID(b *browser) string {
	b.t.Helper()
	p := strings.TrimPrefix(b.path(), "/games/")
	id, _, _ := strings.Cut(p, "/")
	if id == "" {
		b.t.Fatalf("no game id in the page's path %q", b.path())
	}
	return id
}

// takeSeat opens a game's link as a spectator would and takes a seat with
// the name given.
func takeSeat(b *browser, id, name string) {
	b.t.Helper()
	b.open("/games/" + id)
	b.wait("the take-a-seat button", visible("#take-seat"))
	b.waitFrames(1) // the page is live
	// The name goes in the form the button sends, when it asks for one.
	if eval[bool](b, `(() => { const f = document.querySelector('#take-seat').closest('form'); return !!(f && f.querySelector('[name=name]')); })()`) {
		eval[bool](b, fmt.Sprintf(`(() => {
			const el = document.querySelector('#take-seat').closest('form').querySelector('[name=name]');
			el.value = %s; el.dispatchEvent(new Event('input', {bubbles: true})); return true; })()`, jsString(name)))
	}
	// The button, or the form's button.
	b.click("button#take-seat, #take-seat button")
	b.wait("the seat taken", `!document.querySelector('#take-seat')`)
}

// startGame has the host start the game, and waits for the table.
func startGame(b *browser) {
	b.t.Helper()
	b.click("#start")
	b.wait("the table", visible("#hand"))
}

// person plays one seat through its browser, deciding from the server's view
// of the seat (what the page is checked to show) and acting only through
// the page: clicks on cards and buttons, or keys.
type person struct {
	b    *browser
	s    *site
	game string
	seat int
	// keys plays with the keyboard (C to claim or hand over, B, G, and
	// Space on a focused card) rather than the mouse.
	keys bool
	// callEvery: shout "Bullshit!" at every n-th call window (0: never).
	callEvery int
	// callIf, when set, decides instead whether to shout at a window.
	callIf func(v engine.View) bool
	// onMove, when set, is called before each move with the seat's view.
	onMove func(v engine.View)

	windows       int // call windows seen
	plays, calls  int // moves made through the page
	passes, gives int
}

// over reports whether the game has ended, from the server's side.
func (p *person) over() bool {
	return p.s.view(p.game, p.seat).Phase == engine.PhaseOver
}

// step makes the seat's move if it has one the page shows within a moment,
// and reports whether it moved. It never waits for another seat.
func (p *person) step() bool {
	p.b.t.Helper()
	v := p.s.view(p.game, p.seat)
	if len(v.Can) == 0 {
		return false
	}
	// A person's own turn and hand-over have the away clock on them: the
	// table waits for the person at real time, however fast it plays.
	if v.Can[0] == engine.ActPlay || v.Can[0] == engine.ActGive {
		p.s.hold()
		defer p.s.release()
	}
	button := map[engine.ActionKind]string{engine.ActPlay: "#claim", engine.ActGive: "#give", engine.ActCall: "#let-go"}[v.Can[0]]
	// Act only on what the page shows: the same play number, the move's
	// button. A page a push behind catches up within a moment; a move that
	// was over by then is simply not made.
	shown := fmt.Sprintf(`document.querySelector('#dock').dataset.no === %s && %s && !document.querySelector(%s).disabled`,
		jsString(fmt.Sprint(v.Plays)), visible(button), jsString(button))
	for deadline := time.Now().Add(2 * time.Second); p.b.waitErr(shown, 100*time.Millisecond) != nil; {
		// The table may have moved on meanwhile (a window closed, the
		// seat's own turn came): look again rather than wait here while
		// the clock runs fast.
		if time.Now().After(deadline) || p.s.view(p.game, p.seat).Version != v.Version {
			return false
		}
	}
	if p.onMove != nil {
		p.onMove(v)
	}
	switch v.Can[0] {
	case engine.ActPlay:
		p.play(v)
	case engine.ActGive:
		p.give()
	case engine.ActCall, engine.ActPass:
		p.windows++
		call := p.callEvery > 0 && p.windows%p.callEvery == 0
		if p.callIf != nil {
			call = p.callIf(v)
		}
		if call {
			p.call()
		} else {
			p.pass()
		}
	}
	p.awaitChange(v)
	return true
}

// playToEnd plays the seat until the game ends and the page shows the
// result sheet.
func (p *person) playToEnd() {
	p.b.t.Helper()
	for !p.over() {
		if !p.step() {
			time.Sleep(15 * time.Millisecond)
		}
	}
	p.b.wait("the result sheet", visible("#result"))
}

// hand is the cards the page shows in the hand, in the page's order, and
// which of them are picked.
func (p *person) hand() (cards []engine.Card, picked map[engine.Card]bool, codes map[engine.Card]string) {
	p.b.t.Helper()
	type box struct {
		Value   string `json:"value"`
		Checked bool   `json:"checked"`
	}
	boxes := eval[[]box](p.b, `[...document.querySelectorAll('#hand input[name=card]')].map(el => ({value: el.value, checked: el.checked}))`)
	picked, codes = map[engine.Card]bool{}, map[engine.Card]string{}
	for _, bx := range boxes {
		c, err := engine.ParseCard(bx.Value)
		if err != nil {
			p.b.t.Fatalf("a card in the hand has the value %q: %v", bx.Value, err)
		}
		cards = append(cards, c)
		picked[c] = bx.Checked
		codes[c] = bx.Value
	}
	return cards, picked, codes
}

// choose is what the seat plays: the cards of the rank called, as many as
// may be claimed, or else one card to bluff with.
func choose(v engine.View) []engine.Card {
	var of []engine.Card
	for _, c := range v.Hand {
		if c.Rank() == v.Rank && len(of) < v.MaxClaim {
			of = append(of, c)
		}
	}
	if len(of) == 0 && len(v.Hand) > 0 {
		of = v.Hand[:1]
	}
	return of
}

func (p *person) play(v engine.View) {
	p.b.t.Helper()
	// The page may still be playing the sweep of a pile into the hand.
	_ = p.b.waitErr(handIs(v.Hand), 3*time.Second)
	cards, picked, codes := p.hand()
	if got, want := sortedCards(cards), sortedCards(v.Hand); !slices.Equal(got, want) {
		p.b.t.Fatalf("the page's hand: got %v, want %v (the server's)", got, want)
	}
	want := choose(v)
	for _, c := range cards {
		if picked[c] != slices.Contains(want, c) {
			p.toggle(codes[c])
		}
	}
	p.b.wait("the cards picked", fmt.Sprintf(`document.querySelectorAll('#hand input[name=card]:checked').length === %d`, len(want)))
	if p.keys {
		p.b.press("c")
	} else {
		p.act(p.b.tryClick("#claim"))
	}
	p.plays++
}

// toggle picks or unpicks a card: a click on it, or Space with it focused.
func (p *person) toggle(code string) {
	p.b.t.Helper()
	input := fmt.Sprintf(`#hand input[name=card][value=%s]`, jsString(code))
	if !p.keys {
		p.b.click(fmt.Sprintf(`#hand label.card:has(input[name=card][value=%s])`, jsString(code)))
		return
	}
	eval[bool](p.b, fmt.Sprintf(`(document.querySelector(%s).focus(), true)`, jsString(input)))
	p.b.press(" ")
}

func (p *person) call() {
	p.b.t.Helper()
	if p.keys {
		p.b.press("b")
	} else {
		p.act(p.b.tryClick("#call"))
	}
	p.calls++
}

func (p *person) pass() {
	p.b.t.Helper()
	if p.keys {
		p.b.press("g")
	} else {
		p.act(p.b.tryClick("#let-go"))
	}
	p.passes++
}

// give hands over the cards already picked for the caller (the least
// useful), as a person who agrees with them would.
func (p *person) give() {
	p.b.t.Helper()
	if p.keys {
		p.b.press("c") // the main move's key, as for a claim
	} else {
		p.act(p.b.tryClick("#give"))
	}
	p.gives++
}

// awaitChange waits, briefly, for the server to take the move (or for the
// game to move on without it), so the next step sees the new state.
func (p *person) awaitChange(before engine.View) {
	deadline := time.Now().Add(2 * time.Second)
	for time.Now().Before(deadline) {
		if v := p.s.view(p.game, p.seat); v.Version != before.Version {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	p.b.t.Logf("the %v move at play %d changed nothing within 2 s; the status line says %q", before.Can, before.Plays, p.b.statusLine())
}

// act notes a move that couldn't be made: the page took its button away (the
// moment passed), which the next step sees.
func (p *person) act(err error) {
	if err != nil {
		p.b.t.Logf("a move not made: %v", err)
	}
}

func sortedCards(cs []engine.Card) []engine.Card {
	out := slices.Clone(cs)
	slices.Sort(out)
	return out
}
