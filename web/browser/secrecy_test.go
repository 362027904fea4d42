package browser

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"bullshit/engine"
)

// TestBrowserTwoSeatsShareTheTableNotTheirCards seats two people, each in a
// browser of their own, at one table with two bots. Both pages must play the
// same reveal's beats within 150 ms of each other and show the same public
// state; and nothing that reached either browser (its DOM, every response
// body, every event of its stream) may hold a card of the other's that its
// seat never saw.
func TestBrowserTwoSeatsShareTheTableNotTheirCards(t *testing.T) {
	ctx := testContext(t, 4*time.Minute)
	s := newSite(t, personSpeed)
	a := newBrowser(ctx, t, s.base, phoneWidth, phoneHeight)
	// Two phones: the same page costs each the same to apply a frame.
	b := newBrowser(ctx, t, s.base, phoneWidth, phoneHeight)
	id := createTable(a, tableSettings{name: "Ada", bots: 2, window: "6"})
	takeSeat(b, id, "Bea")
	a.wait("the second person in the waiting room", `document.querySelector('#waiting').innerText.includes('Bea')`)
	startGame(a)
	b.wait("the table in the second browser", visible("#hand"))

	seatOf := func(name string) int {
		for _, st := range s.summary(id).Seats {
			if st.Name == name {
				return st.Seat
			}
		}
		t.Fatalf("nobody called %s at the table", name)
		return -1
	}
	pa := &person{b: a, s: s, game: id, seat: seatOf("Ada"), callEvery: 1}
	pb := &person{b: b, s: s, game: id, seat: seatOf("Bea")}
	watch := watchSecrets(ctx, s, id, pa.seat, pb.seat)

	// Play until a reveal has played in both pages and a good number of
	// plays have gone by, comparing the public state now and then.
	var calledAt time.Time
	pa.onMove = func(v engine.View) {
		if calledAt.IsZero() && v.Phase == engine.PhaseCall {
			// The pages play the reveal in real time: so does the table.
			s.setSpeed(1)
			calledAt = time.Now()
		}
	}
	var revealChecked bool
	compared := 0
	// The DOMs as they stood now and then, searched with everything else.
	doms := map[*browser][]received{}
	snap := func() {
		for _, x := range []*browser{a, b} {
			doms[x] = append(doms[x], received{url: "the DOM at play " + fmt.Sprint(s.view(id, pa.seat).Plays), kind: "dom", data: x.html()})
		}
	}
	steps := 0
	deadline := time.Now().Add(2 * time.Minute)
	for !pa.over() && time.Now().Before(deadline) && (!revealChecked || s.view(id, pa.seat).Plays < 24) {
		moved := pa.step()
		moved = pb.step() || moved
		if steps++; steps%25 == 0 {
			snap()
		}
		if !revealChecked && !calledAt.IsZero() && s.view(id, pa.seat).Phase != engine.PhaseReveal {
			ra, rb := revealBeats(a.beats(), calledAt), revealBeats(b.beats(), calledAt)
			for key, ba := range ra {
				bb := rb[key]
				if len(ba) < len(cues) || len(bb) < len(cues) {
					continue
				}
				// The moment each beat is timed to appear in each page, from
				// its animation: the pages may differ by what it takes each
				// to receive and apply the frame, and on a busy machine a
				// beat can stall in one; the beats of one reveal together
				// must agree within 150 ms.
				var apart []time.Duration
				for _, cue := range cues {
					d := ba[cue].Sub(bb[cue]).Abs()
					apart = append(apart, d)
					t.Logf("%s, beat %s: %v after the call in Ada's page, %v in Bea's: %v apart",
						key, cue, ba[cue].Sub(calledAt), bb[cue].Sub(calledAt), d)
				}
				slices.Sort(apart)
				if median := (apart[1] + apart[2]) / 2; median > 150*time.Millisecond {
					t.Errorf("the beats of %s played %v apart in the two browsers (the median of the four), want within 150 ms", key, median)
				}
				revealChecked = true
				s.setSpeed(personSpeed)
				break
			}
		}
		if !moved && s.view(id, pa.seat).Phase == engine.PhaseCall && compared < 5 {
			comparePublic(t, a, b)
			compared++
		}
		if !moved {
			time.Sleep(15 * time.Millisecond)
		}
	}
	if !revealChecked {
		t.Error("no reveal played in both browsers")
	}
	if compared == 0 {
		t.Error("the public state was never compared")
	}
	watch.stop()
	snap()
	for _, x := range []struct {
		who        *browser
		name       string
		own, other int
	}{
		{a, "Ada", pa.seat, pb.seat},
		{b, "Bea", pb.seat, pa.seat},
	} {
		secrets := watch.secretsOf(x.other, x.own)
		if len(secrets) == 0 {
			t.Fatalf("%s's partner had no cards %s never saw: nothing to check", x.name, x.name)
		}
		ownCodes := eval[[]string](x.who, `[...document.querySelectorAll('#hand input[name=card]')].map(el => el.value)`)
		pat := leakPattern(secrets, ownCodes)
		x.who.settle()
		things := append(x.who.everything(), doms[x.who]...)
		checked := 0
		for _, r := range things {
			if r.kind == "unreadable" {
				t.Errorf("%s's browser couldn't read a response of %s: %s", x.name, r.url, r.data)
				continue
			}
			if isAsset(r.url) {
				continue
			}
			checked++
			if m := pat.FindString(r.data); m != "" {
				t.Errorf("%s's browser received %q, a card of the other seat's it never saw, in %s (%s): ...%s...",
					x.name, strings.TrimSpace(m), r.url, r.kind, around(r.data, m))
			}
		}
		t.Logf("%s: searched %d bodies, events and DOMs for %d of the other's cards", x.name, checked, len(secrets))
	}
}

// comparePublic waits (briefly) for both pages to show the same public
// state: the rank, the pile, the claim, the sizes and every bot's count
// (each person's page shows their own count exactly). The claimant is named
// in the second person on their own page ("You claim one 10", "Your hand")
// and by name on the other's, so the claim and the sizes are compared
// without who made them.
func comparePublic(t *testing.T, a, b *browser) {
	t.Helper()
	const state = `JSON.stringify({
		rank: (document.querySelector('#rank')||{}).innerText||'',
		pile: (document.querySelector('#pile')||{}).innerText||'',
		claim: ((document.querySelector('#claim-line')||{}).innerText||'').replace(/^(You claim|\S+ claims) /, ''),
		sizes: ((document.querySelector('#sizes')||{}).innerText||'').replace(/^(Your|\S+'s) hand /, 'hand '),
		counts: [...document.querySelectorAll('#seats .seat[data-seat][data-bot]')]
			.map(el => el.dataset.seat + ':' + ((el.querySelector('.count')||{}).innerText||'').trim()).sort(),
	})`
	var sa, sb string
	for range 100 {
		sa, sb = eval[string](a, state), eval[string](b, state)
		if sa == sb {
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Errorf("the two pages' public state differs:\n%s\n%s", sa, sb)
}

// secretWatch samples both seats' views from the server while the game is
// played, to learn which cards each seat held and which each was ever shown,
// and keeps the pages' DOMs now and then.
type secretWatch struct {
	cancel context.CancelFunc
	done   chan struct{}

	mu    sync.Mutex
	held  map[int]map[engine.Card]bool // every card each seat held
	shown map[int]map[engine.Card]bool // every card each seat saw: held, or turned up
}

func watchSecrets(ctx context.Context, s *site, id string, seats ...int) *secretWatch {
	ctx, cancel := context.WithCancel(ctx)
	w := &secretWatch{cancel: cancel, done: make(chan struct{}),
		held: map[int]map[engine.Card]bool{}, shown: map[int]map[engine.Card]bool{}}
	for _, seat := range seats {
		w.held[seat], w.shown[seat] = map[engine.Card]bool{}, map[engine.Card]bool{}
	}
	go func() {
		defer close(w.done)
		for ctx.Err() == nil {
			for _, seat := range seats {
				v, err := s.mgr.View(ctx, id, seat)
				if err != nil {
					continue
				}
				w.note(seat, v)
			}
			time.Sleep(5 * time.Millisecond)
		}
	}()
	return w
}

func (w *secretWatch) note(seat int, v engine.View) {
	w.mu.Lock()
	defer w.mu.Unlock()
	for _, c := range v.Hand {
		w.held[seat][c], w.shown[seat][c] = true, true
	}
	if v.Last != nil {
		for _, c := range v.Last.Cards {
			w.shown[seat][c] = true
		}
	}
	if v.Reveal != nil {
		for _, c := range v.Reveal.Cards {
			w.shown[seat][c] = true
		}
	}
}

func (w *secretWatch) stop() {
	w.cancel()
	<-w.done
}

// secretsOf is every card seat held that seeing never saw.
func (w *secretWatch) secretsOf(seat, seeing int) []engine.Card {
	w.mu.Lock()
	defer w.mu.Unlock()
	var out []engine.Card
	for c := range w.held[seat] {
		if !w.shown[seeing][c] {
			out = append(out, c)
		}
	}
	return sortedCards(out)
}

// leakPattern matches any of the cards as the JSON API writes them and as
// the page writes its own cards (learnt from own, the values of the page's
// own hand: upper or lower case, ten as "T" or "10"), standing alone.
func leakPattern(cards []engine.Card, own []string) *regexp.Regexp {
	lower := false
	ten := "T"
	for _, c := range own {
		if strings.ToLower(c) == c {
			lower = true
		}
		if strings.HasPrefix(c, "10") {
			ten = "10"
		}
	}
	var alts []string
	for _, c := range cards {
		code := c.String()
		alts = append(alts, regexp.QuoteMeta(code))
		page := code
		if strings.HasPrefix(page, "T") {
			page = ten + page[1:]
		}
		if lower {
			page = strings.ToLower(page)
		}
		if page != code {
			alts = append(alts, regexp.QuoteMeta(page))
		}
	}
	return regexp.MustCompile(`(?:^|[^A-Za-z0-9])(?:` + strings.Join(alts, "|") + `)(?:[^A-Za-z0-9]|$)`)
}

// isAsset says whether a response is one of the site's static files (the
// same for everyone, so no place for a seat's cards).
func isAsset(url string) bool {
	return strings.Contains(url, "/assets/") || strings.Contains(url, "/static/") ||
		strings.HasSuffix(url, ".js") || strings.HasSuffix(url, ".css") || strings.HasSuffix(url, ".ico")
}

// around is some text either side of the first m in s.
func around(s, m string) string {
	i := strings.Index(s, m)
	lo, hi := max(0, i-60), min(len(s), i+len(m)+60)
	return fmt.Sprintf("%q", s[lo:hi])
}
