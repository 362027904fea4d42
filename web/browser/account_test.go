package browser

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"bullshit/engine"
)

// TestBrowserRatedGameFromSignUp signs up, plays a rated game against three
// bots to the end at a phone's size, reads the rating change on the result
// sheet, then finds the player on the leaderboard and opens their page with
// its chart.
func TestBrowserRatedGameFromSignUp(t *testing.T) {
	ctx := testContext(t, 5*time.Minute)
	// Half the whole-game tests' speed: the seat must never be covered by
	// a bot (a covered seat isn't rated), so the person's turns get twice
	// the time on a busy machine.
	s := newSite(t, fastSpeed/2)
	b := newBrowser(ctx, t, s.base, phoneWidth, phoneHeight)

	b.open("/signup")
	b.fill("#sign [name=name]", "Ada")
	b.fill("#sign [name=password]", "correct horse battery")
	b.click("#sign [type=submit]")
	b.wait("the account page", `location.pathname === '/account'`)
	if got := b.text("#account-link"); got != "Ada" {
		t.Errorf("the bar signed in: got %q, want Ada", got)
	}
	// Signed in, the lobby's name is the account's.
	b.open("/")
	if got := eval[string](b, `document.querySelector('#create [name=name]').value`); got != "Ada" {
		t.Errorf("the create form's name: got %q, want Ada", got)
	}

	id := createTable(b, tableSettings{name: "Ada", bots: 3, window: "10"})
	b.wait("the waiting room", visible("#waiting"))
	startGame(b)
	if sum := s.summary(id); sum.Seats[0].Player == 0 {
		t.Fatalf("the host's seat: got no account, want Ada's")
	}
	p := &person{b: b, s: s, game: id, seat: 0, callEvery: 3}
	playToEndPicking(p)
	if s.summary(id).Seats[0].Covered {
		t.Fatalf("a bot covered the person's seat (the machine too slow for the test's clock): the game can't be rated")
	}

	// The change arrives with the result sheet, pushed: no reload.
	b.wait("the rating change on the result sheet", visible("#rating-changes"))
	change := b.text("#rating-changes li.you")
	if !strings.Contains(change, "You 1500 → ") || b.count("#rating-changes li.you .provisional") != 1 {
		t.Errorf("the result sheet's rating line: got %q, want yours from 1500, marked provisional", change)
	}

	b.open("/leaderboard")
	b.wait("the leaderboard", exists("#leaders"))
	if row := b.text("#leaders tbody tr"); !strings.HasPrefix(row, "1") || !strings.Contains(row, "Ada") {
		t.Errorf("the leaderboard's first line: got %q, want Ada first", row)
	}
	if b.count("#leaders .provisional") != 1 {
		t.Errorf("the leaderboard doesn't mark Ada's rating provisional")
	}
	b.click(`#leaders a[href="/players/Ada"]`)
	b.wait("the player page", `location.pathname === '/players/Ada'`)
	b.wait("the chart", visible("#rating-chart"))
	if n := b.count("#rating-chart circle"); n != 1 {
		t.Errorf("the chart after one rated game: got %d points, want 1", n)
	}
	if got := b.text("#player-stats"); !strings.Contains(got, "Games\n1") && !strings.Contains(got, "Games 1") {
		t.Logf("the player's numbers: %q", got)
	}
	if got := eval[string](b, `document.querySelector('#recent-games a').getAttribute('href')`); got != "/games/"+id+"/review" {
		t.Errorf("the recent game links to %q, want its review", got)
	}
	// The chart is drawn, not empty: it has room on a phone.
	if w := eval[float64](b, `document.querySelector('#rating-chart').getBoundingClientRect().width`); w < 300 {
		t.Errorf("the chart is %v px wide on a phone, want most of the screen", w)
	}
}

// playToEndPicking is person.playToEnd with its own claims: when a push
// resets the cards picked (a new pick key re-applies the page's own picks)
// it picks them again rather than waiting for ever, as a person would.
func playToEndPicking(p *person) {
	p.b.t.Helper()
	for !p.over() {
		if v := p.s.view(p.game, p.seat); len(v.Can) > 0 && v.Can[0] == engine.ActPlay {
			if claim(p, v) {
				continue
			}
		}
		if !p.step() {
			time.Sleep(15 * time.Millisecond)
		}
	}
	p.b.wait("the result sheet", visible("#result"))
}

// claim makes the seat's play through the page, on the real-time clock, and
// reports whether it did.
func claim(p *person, v engine.View) bool {
	p.b.t.Helper()
	p.s.hold()
	defer p.s.release()
	shown := fmt.Sprintf(`[...document.querySelectorAll('[name=no]')].every(el => el.value === %s) && %s && !document.querySelector('#claim').disabled`,
		jsString(fmt.Sprint(v.Plays)), visible("#claim"))
	if p.b.waitErr(shown, 3*time.Second) != nil {
		return false
	}
	want := choose(v)
	for range 5 {
		if p.s.view(p.game, p.seat).Version != v.Version {
			return false
		}
		cards, picked, codes := p.hand()
		if !slices.Equal(sortedCards(cards), sortedCards(v.Hand)) {
			time.Sleep(100 * time.Millisecond) // a sweep still landing
			continue
		}
		for _, c := range cards {
			if picked[c] != slices.Contains(want, c) {
				p.toggle(codes[c])
			}
		}
		picks := fmt.Sprintf(`document.querySelectorAll('#hand input[name=card]:checked').length === %d`, len(want))
		if p.b.waitErr(picks, time.Second) != nil {
			continue
		}
		p.act(p.b.tryClick("#claim"))
		p.plays++
		p.awaitChange(v)
		return true
	}
	return false
}
