package browser

import (
	"testing"
	"time"

	"bullshit/engine"
)

// The moments of a game a tour stops at.
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
// around them, so the page shows each as a person would see it. The person
// calls the plays the test knows are sneaks (it asks the server), so a
// hand-over comes; a game that ends without one is followed by another.
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
		p := &person{b: b, s: s, game: id, seat: 0}
		// sneaky says whether the play being called on slipped cards under
		// its claim, from its player's own view (the test may peek).
		sneaky := func(v engine.View) bool {
			if v.Last == nil {
				return false
			}
			l := s.view(id, v.Last.Seat).Last
			return l != nil && len(l.Cards) > l.Claim
		}
		p.callIf = func(v engine.View) bool {
			if seen[atReveal] && seen[atHandOver] {
				return false // the rest of the game plainly, to its end
			}
			return sneaky(v) || (!seen[atReveal] && v.Plays >= 6)
		}
		p.onMove = func(v engine.View) {
			switch {
			case v.Phase == engine.PhasePlay && v.Plays >= 2 && !seen[atTable]:
				// Pick the cards to play, so the page shows its claim.
				_, picked, codes := p.hand()
				for _, c := range choose(v) {
					if !picked[c] {
						p.toggle(codes[c])
					}
				}
				stop(atTable, id)
			case v.Phase == engine.PhaseGive:
				b.wait("the hand-over", visible("#give"))
				stop(atHandOver, id)
			}
		}
		for !p.over() {
			if err := b.ctx.Err(); err != nil {
				t.Fatalf("the tour ran out of time in game %d, having seen %v: %v", game, seen, err)
			}
			v := s.view(id, 0)
			// Real time while the person decides and a reveal or a hand-over
			// plays: the bots' shouts come at a person's pace, the page's
			// beats at the server's.
			watching := !seen[atReveal] || !seen[atHandOver]
			slow := (v.Phase == engine.PhaseCall && len(v.Can) > 0 && p.callIf(v)) ||
				(watching && (v.Phase == engine.PhaseShout || v.Phase == engine.PhaseReveal || v.Phase == engine.PhaseGive)) ||
				(len(v.Can) > 0 && v.Can[0] == engine.ActGive) ||
				(len(v.Can) > 0 && v.Can[0] == engine.ActPlay && !seen[atTable])
			if slow {
				s.setSpeed(1)
			} else {
				s.setSpeed(fastSpeed)
			}
			if !p.step() {
				time.Sleep(10 * time.Millisecond)
				continue
			}
			// A call first opens the grace for calls made together (the
			// shout phase), then the reveal.
			if ph := s.view(id, 0).Phase; !seen[atReveal] && (ph == engine.PhaseShout || ph == engine.PhaseReveal) {
				s.setSpeed(1)
				verdict := `(() => { const el = document.querySelector('#reveal .beat-verdict');
					return !!el && getComputedStyle(el).opacity === '1' && el.getBoundingClientRect().height > 0; })()`
				if b.waitErr(verdict, 4*time.Second) == nil {
					stop(atReveal, id)
				}
			}
		}
		s.setSpeed(fastSpeed)
		b.wait("the result sheet", visible("#result"))
		stop(atResult, id)
	}
	for _, m := range moments {
		if !seen[m] {
			t.Errorf("the tour never reached the %s", m)
		}
	}
}
