package browser

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"bullshit/engine"
)

// TestBrowserRevealHoldsTheCountsTillTheSweep plays reveals at real speed
// (the table's clock at real time from the call to the end of the reveal)
// and looks at the page as soon as it shows the reveal, well before the
// sweep lands by the server's clock: the person's hand must not hold the pile yet and no seat's count
// may have moved (every count is the one the table saw before the call, the
// person's own exactly). Once the sweep lands the hand holds the pile, every
// count is the new one, and a person who took the pile is told how many
// cards came, exactly. The person calls a play the test knows is the truth,
// so they take the pile, and one it knows is a lie, so a bot does.
func TestBrowserRevealHoldsTheCountsTillTheSweep(t *testing.T) {
	ctx := testContext(t, 5*time.Minute)
	s := newSite(t, fastSpeed)
	b := newBrowser(ctx, t, s.base, phoneWidth, phoneHeight)
	id := createTable(b, tableSettings{name: "Ada", bots: 3, window: "6", sneak: "0"})
	startGame(b)
	p := &person{b: b, s: s, game: id, seat: 0}
	// truth says whether the play being called on is the truth, from its
	// player's own view (the test may peek).
	truth := func(v engine.View) bool {
		l := s.view(id, v.Last.Seat).Last
		if l == nil || len(l.Cards) != l.Claim {
			return false
		}
		for _, c := range l.Cards {
			if c.Rank() != l.Rank {
				return false
			}
		}
		return true
	}
	took, gave := 0, 0 // reveals checked where the person took the pile, and where a bot did
	p.callIf = func(v engine.View) bool {
		call := (took == 0 && truth(v)) || (gave == 0 && !truth(v))
		if call {
			s.setSpeed(1) // the reveal plays in real seconds
		}
		return call
	}
	for !p.over() && (took == 0 || gave == 0) {
		if err := ctx.Err(); err != nil {
			t.Fatalf("the game ran out of time with %d reveals taken and %d given: %v", took, gave, err)
		}
		if !p.step() {
			time.Sleep(10 * time.Millisecond)
			continue
		}
		v := s.view(id, 0)
		if v.Phase != engine.PhaseShout && v.Phase != engine.PhaseReveal {
			s.setSpeed(fastSpeed)
			continue
		}
		for v.Reveal == nil && v.Phase == engine.PhaseShout {
			time.Sleep(5 * time.Millisecond)
			v = s.view(id, 0)
		}
		if v.Reveal == nil {
			s.setSpeed(fastSpeed)
			continue
		}
		// A bot may have called first, while the table still ran fast:
		// only a reveal with its verdict still to come plays at real speed.
		if v.Reveal.Lands.Sub(s.clock.Now()) < 2*time.Second {
			s.setSpeed(fastSpeed)
			continue
		}
		if checkReveal(t, b, s, id, v) {
			took++
		} else {
			gave++
		}
		s.setSpeed(fastSpeed)
	}
	if took == 0 || gave == 0 {
		t.Fatalf("reveals checked: %d where the person took the pile and %d where a bot did, want one of each", took, gave)
	}
}

// revealMoment is what the page shows in a reveal, before the sweep.
type revealMoment struct {
	Hand   []string          `json:"hand"`
	Counts map[string]string `json:"counts"`
	Notice string            `json:"notice"`
}

// checkReveal checks one reveal the person's page plays (v is the person's
// view of it), and reports whether the person took the pile.
func checkReveal(t *testing.T, b *browser, s *site, id string, v engine.View) bool {
	t.Helper()
	r := v.Reveal
	mine := r.Loser == 0
	before := v.Hand
	if mine {
		before = r.Hand
	}
	m := b.beforeSweep(s, v.Last.No, r.Lands)
	if m == nil {
		t.Fatalf("play %d: the page never showed the reveal", v.Last.No)
	}
	if got, want := normCards(m.Hand), cardCodes(before); !slices.Equal(got, want) {
		t.Errorf("play %d, the reveal shown, the sweep to come: the person's hand shows %v, want %v (without the pile)", v.Last.No, got, want)
	}
	for seat := range v.Seats {
		want := r.Counts[seat].String()
		if seat == 0 {
			want = strconv.Itoa(len(before))
		}
		if got := m.Counts[strconv.Itoa(seat)]; got != want {
			t.Errorf("play %d, the reveal shown, the sweep to come: seat %d's count shows %q, want %q (as before the call)", v.Last.No, seat, got, want)
		}
	}
	if m.Notice != "" {
		t.Errorf("play %d: the page said %q before the sweep landed", v.Last.No, m.Notice)
	}
	// The sweep lands as the reveal ends.
	for s.view(id, 0).Phase == engine.PhaseReveal {
		time.Sleep(10 * time.Millisecond)
	}
	after := s.view(id, 0)
	(&person{b: b, s: s, game: id, seat: 0}).waitHand()
	b.wait("the counts after the sweep", fmt.Sprintf(`(() => {
		const want = %s;
		return [...document.querySelectorAll('#seats .seat[data-seat]')].every(el =>
			el.querySelector('.count').innerText.replace('cards:', '').trim() === want[el.dataset.seat]);
	})()`, countsJSON(after)))
	if mine {
		n := len(after.Hand) - len(before)
		want := fmt.Sprintf("You take the pile: %d cards come to your hand.", n)
		if n == 1 {
			want = "You take the pile: 1 card comes to your hand."
		}
		b.wait("the pile taken said", fmt.Sprintf(`(() => { const el = document.querySelector('#notice');
			return !!el && !el.hidden && el.dataset.key === %s && el.textContent === %s; })()`,
			jsString("took-"+strconv.Itoa(v.Last.No)), jsString(want)))
	}
	return mine
}

// beforeSweep reads the page's hand and counts as soon as it shows the
// reveal of play no, at a moment the server's clock says is well before the
// sweep lands (nil if there is none).
func (b *browser) beforeSweep(s *site, no int, lands time.Time) *revealMoment {
	b.t.Helper()
	js := fmt.Sprintf(`(() => {
		if (!document.getElementById(%s)) return '';
		const notice = document.querySelector('#notice');
		return JSON.stringify({
			hand: [...document.querySelectorAll('#hand input[name=card]')].map(el => el.value),
			counts: Object.fromEntries([...document.querySelectorAll('#seats .seat[data-seat]')].map(el =>
				[el.dataset.seat, el.querySelector('.count').innerText.replace('cards:', '').trim()])),
			notice: notice && !notice.hidden && notice.dataset.key === %s ? notice.textContent : '',
		});
	})()`, jsString("reveal-"+strconv.Itoa(no)), jsString("took-"+strconv.Itoa(no)))
	for s.clock.Now().Before(lands.Add(-500 * time.Millisecond)) {
		raw := eval[string](b, js)
		if raw != "" && s.clock.Now().Before(lands.Add(-300*time.Millisecond)) {
			var m revealMoment
			if err := json.Unmarshal([]byte(raw), &m); err != nil {
				b.t.Fatalf("reading the page in the reveal: %v", err)
			}
			return &m
		}
		time.Sleep(10 * time.Millisecond)
	}
	b.t.Logf("the reveal of play %d never showed before its sweep: %s", no, b.streamReport())
	return nil
}

// countsJSON is every seat's count as the person's page should show it,
// their own exactly, as a JavaScript object by seat.
func countsJSON(v engine.View) string {
	want := map[string]string{}
	for _, sv := range v.Seats {
		want[strconv.Itoa(sv.Seat)] = sv.Count().String()
	}
	want[strconv.Itoa(v.Seat)] = strconv.Itoa(len(v.Hand))
	b, _ := json.Marshal(want)
	return string(b)
}

// normCards are the page's card codes as the engine writes them, sorted.
func normCards(codes []string) []string {
	out := make([]string, 0, len(codes))
	for _, c := range codes {
		c = strings.ToUpper(c)
		if strings.HasPrefix(c, "10") {
			c = "T" + c[2:]
		}
		out = append(out, c)
	}
	slices.Sort(out)
	return out
}

// cardCodes are the cards' codes, sorted.
func cardCodes(cards []engine.Card) []string {
	out := make([]string, 0, len(cards))
	for _, c := range cards {
		out = append(out, c.String())
	}
	slices.Sort(out)
	return out
}
