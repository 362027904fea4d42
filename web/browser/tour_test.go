package browser

import (
	"testing"
	"time"

	"bullshit/engine"
)

// The moments of a game a tour stops at, in the order they first come.
const (
	atLobby    = "lobby"
	atWaiting  = "waiting"
	atTable    = "table"
	atReveal   = "reveal"
	atHandOver = "hand-over"
	atResult   = "result"
)

var moments = []string{atLobby, atWaiting, atTable, atReveal, atHandOver, atResult}

// tour plays games as one person at b, from the lobby to the result sheet,
// and calls at once at each moment while the page shows it: the lobby, the
// waiting room, the table on the person's turn with cards picked, a reveal
// on its verdict, the person's hand-over (a sneak they caught) and the
// result sheet. The table runs fast between the moments and at real time
// around them, so the page shows each as a person would see it. A game that
// ends before the person has caught a sneak is followed by another.
func tour(t *testing.T, s *site, b *browser, at func(moment string, game string)) {
	t.Helper()
	seen := map[string]bool{}
	stop := func(m, game string) {
		if !seen[m] {
			seen[m] = true
			at(m, game)
		}
	}
	for game := 1; game <= 4 && len(seen) < len(moments); game++ {
		s.setSpeed(fastSpeed)
		b.open("/")
		b.wait("the lobby", visible("#create"))
		stop(atLobby, "")
		id := createTable(b, tableSettings{name: "Ada", bots: 3, window: "6", sneak: "3"})
		b.wait("the waiting room", visible("#waiting"))
		stop(atWaiting, id)
		startGame(b)
		p := &person{b: b, s: s, game: id, seat: 0, callEvery: 1}
		p.onMove = func(v engine.View) {
			switch {
			case v.Phase == engine.PhasePlay && v.Plays >= 2 && !seen[atTable]:
				s.setSpeed(1)
				b.wait("the person's turn", visible("#claim"))
				// Pick the cards to play, so the page shows its claim.
				_, picked, codes := p.hand()
				for _, c := range choose(v) {
					if !picked[c] {
						p.toggle(codes[c])
					}
				}
				stop(atTable, id)
				s.setSpeed(fastSpeed)
			case v.Phase == engine.PhaseCall && !seen[atReveal]:
				// Watch the call's reveal at real time.
				s.setSpeed(1)
			case v.Phase == engine.PhaseGive:
				s.setSpeed(1)
				b.wait("the hand-over", visible("#give"))
				stop(atHandOver, id)
				s.setSpeed(fastSpeed)
			}
		}
		for !p.over() {
			if p.step() {
				if !seen[atReveal] && s.view(id, 0).Phase == engine.PhaseReveal {
					if b.waitErr(`(() => { const el = document.querySelector('#reveal .beat-verdict');
						return !!el && getComputedStyle(el).opacity === '1' && el.getBoundingClientRect().height > 0; })()`, 4*time.Second) == nil {
						stop(atReveal, id)
					}
					s.setSpeed(fastSpeed)
				}
				if seen[atReveal] && seen[atHandOver] {
					p.callEvery = 0 // the rest of the game plainly, to its end
				}
				continue
			}
			time.Sleep(10 * time.Millisecond)
		}
		b.wait("the result sheet", visible("#result"))
		stop(atResult, id)
	}
	for _, m := range moments {
		if !seen[m] {
			t.Errorf("the tour never reached the %s", m)
		}
	}
}
