package browser

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
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
	s := newSite(t, fastSpeed)
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
	// A covered seat isn't rated: the person's own decisions must never
	// run out of time, however busy the machine.
	realTimeTurns(t, s, id, 0)
	p := &person{b: b, s: s, game: id, seat: 0, callEvery: 3}
	reloaded := playToEndPicking(p)
	if s.summary(id).Seats[0].Covered {
		t.Fatalf("a bot covered the person's seat (the machine too slow for the test's clock): the game can't be rated")
	}

	// The change arrives with the result sheet, pushed (unless the page
	// had to be reloaded, when it is in the page).
	if reloaded {
		t.Logf("note: the result sheet was read after a reload, not as pushed")
	}
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

// realTimeTurns runs the tables' clock at real time whenever the seat has
// its turn or a hand-over to make, or its turn comes next, and fast
// otherwise, until the test ends:
// a person's decisions have the away clock on them, and a bot takes over a
// seat whose time runs out. Looking every 10 ms, the clock has run at most
// a fraction of a second fast into a decision before it slows.
func realTimeTurns(t *testing.T, s *site, id string, seat int) {
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	wg.Go(func() {
		tick := time.NewTicker(10 * time.Millisecond)
		reported := false
		defer tick.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-tick.C:
			}
			v, err := s.mgr.View(ctx, id, seat)
			if err != nil {
				continue
			}
			deciding := len(v.Can) > 0 && (v.Can[0] == engine.ActPlay || v.Can[0] == engine.ActGive)
			// The play before the seat's turn is settled at real time too,
			// so the turn never begins on a clock running fast: a test
			// process starved of the CPU for a moment then can't lose the
			// seat its time in one jump.
			next := v.Phase != engine.PhasePlay && v.Turn == (seat+len(v.Seats)-1)%len(v.Seats)
			s.setSpeed(map[bool]float64{true: 1, false: fastSpeed}[deciding || next])
			if !reported {
				if sum, err := s.mgr.Get(ctx, id); err == nil && sum.Seats[seat].Covered {
					reported = true
					t.Logf("a bot covered the seat at play %d (phase %v, the seat's moves %v)", v.Plays, v.Phase, v.Can)
				}
			}
		}
	})
	t.Cleanup(func() {
		cancel()
		wg.Wait()
	})
}

// playToEndPicking is person.playToEnd with its own claims and hand-overs,
// each tried again until made rather than waited on for ever: a push may
// reset the cards picked (a new pick key re-applies the page's own picks),
// or take the button away just as it is clicked. A person would press
// again; the away clock doesn't run meanwhile (see realTimeTurns). A
// result sheet that doesn't show is reloaded, as a person would.
func playToEndPicking(p *person) (reloaded bool) {
	p.b.t.Helper()
	for !p.over() {
		v := p.s.view(p.game, p.seat)
		if len(v.Can) > 0 && (v.Can[0] == engine.ActPlay || v.Can[0] == engine.ActGive) {
			if !decide(p, v) {
				time.Sleep(50 * time.Millisecond)
			}
			continue
		}
		if !p.step() {
			time.Sleep(15 * time.Millisecond)
		}
	}
	if p.b.waitErr(visible("#result"), 15*time.Second) != nil {
		p.b.t.Logf("no result sheet 15 s after the end: reloading the page")
		p.b.open("/games/" + p.game)
		p.b.wait("the result sheet", visible("#result"))
		return true
	}
	return false
}

// decide makes the seat's play or hand-over through the page, and reports
// whether the server took it.
func decide(p *person, v engine.View) bool {
	p.b.t.Helper()
	button := map[engine.ActionKind]string{engine.ActPlay: "#claim", engine.ActGive: "#give"}[v.Can[0]]
	shown := fmt.Sprintf(`document.querySelector('#dock').dataset.no === %s && %s`,
		jsString(fmt.Sprint(v.Plays)), visible(button))
	if p.b.waitErr(shown, 3*time.Second) != nil {
		return false
	}
	if v.Can[0] == engine.ActPlay {
		cards, picked, codes := p.hand()
		if !slices.Equal(sortedCards(cards), sortedCards(v.Hand)) {
			return false // a sweep still landing
		}
		want := choose(v)
		for _, c := range cards {
			if picked[c] != slices.Contains(want, c) {
				p.toggle(codes[c])
			}
		}
		picks := fmt.Sprintf(`document.querySelectorAll('#hand input[name=card]:checked').length === %d`, len(want))
		if p.b.waitErr(picks, time.Second) != nil {
			return false
		}
	}
	if p.b.waitErr(fmt.Sprintf(`!document.querySelector(%s).disabled`, jsString(button)), time.Second) != nil {
		return false
	}
	p.act(p.b.tryClick(button))
	for deadline := time.Now().Add(2 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if p.s.view(p.game, p.seat).Version != v.Version {
			if v.Can[0] == engine.ActPlay {
				p.plays++
			} else {
				p.gives++
			}
			return true
		}
	}
	return false
}
