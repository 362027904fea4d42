package browser

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"bullshit/engine"
)

// unchanged finds a count said to go to itself ("11-13 → 11-13").
var unchanged = regexp.MustCompile(`(\d+(?:-\d+\+?)?) → (\d+(?:-\d+\+?)?)`)

// TestBrowserSizesSayWhatTheTableSaw plays the first windows of a game and
// reads, at each, the sizes line under the claim and the seats' counts: a
// hand still as dealt shows its exact count (the whole table saw it dealt),
// the line starts from that count, and a count that stayed inside its range
// is said to be "still" that range rather than to go to itself.
func TestBrowserSizesSayWhatTheTableSaw(t *testing.T) {
	ctx := testContext(t, 3*time.Minute)
	s := newSite(t, fastSpeed)
	b := newBrowser(ctx, t, s.base, phoneWidth, phoneHeight)
	id := createTable(b, tableSettings{name: "Ada", bots: 4, window: "6"})
	startGame(b)
	p := &person{b: b, s: s, game: id, seat: 0}
	windows, dealtSeen, stillSeen := 0, 0, 0
	p.onMove = func(v engine.View) {
		if v.Phase != engine.PhaseCall || v.Last == nil {
			return
		}
		windows++
		line := b.text("#sizes")
		for _, m := range unchanged.FindAllStringSubmatch(line, -1) {
			if m[1] == m[2] {
				t.Errorf("play %d: the sizes line %q says a count went to itself", v.Plays, line)
			}
		}
		if strings.Contains(line, "still ") {
			stillSeen++
		}
		if d := v.Last.Dealt; d > 0 && !strings.Contains(line, "hand "+strconv.Itoa(d)+" → ") && !strings.Contains(line, "hand still "+strconv.Itoa(d)) {
			t.Errorf("play %d: the player's hand was dealt %d: the sizes line %q doesn't start from it", v.Plays, d, line)
		}
		for _, sv := range v.Seats {
			if sv.Seat == v.Seat {
				continue
			}
			got := strings.Join(strings.Fields(strings.TrimPrefix(b.text(fmt.Sprintf("#seat-%d .count", sv.Seat)), "cards:")), " ")
			if want := sv.Count().String(); got != want {
				t.Errorf("play %d: seat %d's count: got %q, want %q", v.Plays, sv.Seat, got, want)
			}
			if sv.Dealt > 0 {
				dealtSeen++
			}
		}
	}
	for windows < 8 && !p.over() {
		if !p.step() {
			time.Sleep(10 * time.Millisecond)
		}
	}
	if dealtSeen == 0 {
		t.Errorf("in %d windows no seat showed its count as dealt", windows)
	}
	t.Logf("%d windows, %d counts as dealt, %d lines with a count still in its range", windows, dealtSeen, stillSeen)
}
