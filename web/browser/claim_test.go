package browser

import (
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"bullshit/engine"
)

// claimWords are the claim button's words for n cards picked with sneak of
// them under the claim, as a person reads them.
func claimWords(r engine.Rank, picked, sneak int) string {
	claim := picked - sneak
	if claim <= 0 {
		return "Pick cards to claim"
	}
	words := r.Count(claim)
	if claim == 1 {
		words = "one " + r.Name(false)
	}
	if sneak > 0 {
		words += " +" + strconv.Itoa(sneak)
	}
	return "Claim " + words
}

// TestBrowserClaimButtonFollowsThePicks: on the person's turn the claim
// button says what a press would claim after every pick, unpick and sneak
// change, and a press claims that many.
func TestBrowserClaimButtonFollowsThePicks(t *testing.T) {
	ctx := testContext(t, 3*time.Minute)
	s := newSite(t, fastSpeed)
	b := newBrowser(ctx, t, s.base, 1280, 800)
	id := createTable(b, tableSettings{name: "Ada", bots: 3, window: "10"})
	startGame(b)
	p := &person{b: b, s: s, game: id, seat: 0}
	v := untilTurn(t, p)
	defer s.setSpeed(fastSpeed)
	cards, picked, codes := p.hand()
	for _, c := range cards {
		if picked[c] {
			p.toggle(codes[c])
		}
	}
	label := func() string { return strings.TrimSpace(b.text("#claim .move-label")) }
	expect := func(what string, n, sneak int) {
		t.Helper()
		want := claimWords(v.Rank, n, sneak)
		cond := fmt.Sprintf(`document.querySelectorAll('#hand input[name=card]:checked').length === %d &&
			(document.querySelector('#claim .move-label')||{}).textContent.trim() === %s`, n, jsString(want))
		if err := b.waitErr(cond, 5*time.Second); err != nil {
			t.Fatalf("the claim button %s: got %q, want %q (status line %q)", what, label(), want, b.statusLine())
		}
	}
	expect("with nothing picked", 0, 0)
	n := min(3, len(cards))
	for i := range n {
		p.toggle(codes[cards[i]])
		expect(fmt.Sprintf("after picking card %d", i+1), i+1, 0)
	}
	p.toggle(codes[cards[n-1]])
	expect("after unpicking one", n-1, 0)
	p.toggle(codes[cards[n-1]])
	expect("after picking it again", n, 0)
	sneak := 0
	if n < 2 {
		t.Fatalf("a hand of %d at the person's turn: want at least 2 to test a sneak", len(cards))
	}
	canSneak := eval[bool](b, `(() => { const s = document.querySelector('#sneak'); return !!s && !s.disabled && (parseInt(s.dataset.max, 10) || 0) > 0; })()`)
	if canSneak && n > 1 {
		b.click("#sneak")
		sneak = 1
		expect("after sneaking one", n, sneak)
	}
	p.act(b.tryClick("#claim"))
	b.wait("the claim made", fmt.Sprintf(`document.querySelector('#dock').dataset.no !== %s`, jsString(strconv.Itoa(v.Plays))))
	after := s.view(id, 0)
	if after.Plays != v.Plays+1 || after.Last == nil || after.Last.Seat != 0 || after.Last.Claim != n-sneak || len(after.Last.Cards) != n {
		t.Fatalf("the play made: got %d plays, the last %+v; want %d, seat 0's, of %d cards claiming %d (the button's words)",
			after.Plays, after.Last, v.Plays+1, n, n-sneak)
	}
}
