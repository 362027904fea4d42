package web

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"golang.org/x/net/html"

	"bullshit/engine"
	"bullshit/game"
	"bullshit/views"
	"bullshit/views/words"
)

var t0 = time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)

// summaryOf is a summary of n seats: Ada hosting, people then bots.
func summaryOf(n int) game.Summary {
	g := game.Summary{ID: "abcd1234", Status: game.StatusLive, Options: engine.Standard(n)}
	for i := range n {
		s := game.SeatInfo{Seat: i, Kind: game.SeatPerson, Name: fmt.Sprintf("P%d", i)}
		if i >= 2 {
			s.Kind, s.Name, s.Bot = game.SeatBot, "Bold bot (medium)", &game.BotSpec{Level: "medium", Style: "bold"}
		}
		if i < 2 {
			s.Name = []string{"Ada", "Ben"}[i]
		}
		g.Seats = append(g.Seats, s)
	}
	return g
}

// dealt is a game of n seats just dealt, and its state.
func dealt(t testing.TB, n int) (*engine.State, game.Summary) {
	t.Helper()
	s, err := engine.New(engine.Standard(n), 7, t0)
	if err != nil {
		t.Fatal(err)
	}
	return s, summaryOf(n)
}

func frameOf(s *engine.State, g game.Summary, seat int) game.Frame {
	v := s.View(seat)
	return game.Frame{Game: g, Seat: seat, View: &v, Revision: v.Version}
}

// play has the seat whose turn it is claim its first card, truthfully or not.
func play(t testing.TB, s *engine.State, at time.Time) engine.View {
	t.Helper()
	v := s.View(s.View(engine.Spectator).Turn)
	if err := s.Apply(engine.Action{Kind: engine.ActPlay, Seat: v.Seat, No: v.Plays, Cards: v.Hand[:1]}, at); err != nil {
		t.Fatal(err)
	}
	return s.View(v.Seat)
}

func TestSeatStripFromYourLeft(t *testing.T) {
	s, g := dealt(t, 6)
	tests := []struct {
		seat int
		want []int
	}{
		{0, []int{1, 2, 3, 4, 5, 0}},
		{3, []int{4, 5, 0, 1, 2, 3}},
		{engine.Spectator, []int{0, 1, 2, 3, 4, 5}},
	}
	for _, tt := range tests {
		cells := seatStrip(frameOf(s, g, tt.seat), newNames(g.Seats, tt.seat), t0)
		var got []int
		for _, c := range cells {
			got = append(got, c.Seat)
		}
		if fmt.Sprint(got) != fmt.Sprint(tt.want) {
			t.Errorf("seat %d: got %v, want %v", tt.seat, got, tt.want)
		}
		if tt.seat >= 0 && (!cells[len(cells)-1].You || cells[len(cells)-1].Name != "You") {
			t.Errorf("seat %d: the last cell is %+v, want the player", tt.seat, cells[len(cells)-1])
		}
	}
	cells := seatStrip(frameOf(s, g, 0), newNames(g.Seats, 0), t0)
	// Fresh from the deal, every count is exact.
	if c := cells[1]; c.Name != "Bold bot" || c.Style != "medium" || c.Count != "9" {
		t.Errorf("a bot's cell: got name %q style %q count %q, want Bold bot, medium, 9 (as dealt)", c.Name, c.Style, c.Count)
	}
}

func TestHorseshoe(t *testing.T) {
	for others, want := range map[int]string{
		4: "[2 1 3] [1 1 6] [1 7 6] [2 10 3]",
		5: "[2 1 3] [1 1 4] [1 5 4] [1 9 4] [2 10 3]",
		7: "[3 1 3] [2 1 3] [1 1 4] [1 5 4] [1 9 4] [2 10 3] [3 10 3]",
		9: "[4 1 3] [3 1 3] [2 1 3] [1 1 4] [1 5 4] [1 9 4] [2 10 3] [3 10 3] [4 10 3]",
	} {
		cells := make([]views.SeatCell, others+1)
		cells[others].You = true
		placeHorseshoe(cells)
		var got []string
		for _, c := range cells[:others] {
			got = append(got, fmt.Sprint([]int{c.Row, c.Col, c.Span}))
		}
		if strings.Join(got, " ") != want {
			t.Errorf("%d others: got %s, want %s", others, strings.Join(got, " "), want)
		}
		if c := cells[others]; c.Row != 0 {
			t.Errorf("%d others: the player's own seat is placed at row %d, want none", others, c.Row)
		}
	}
}

func TestSneakHint(t *testing.T) {
	s, _ := dealt(t, 4)
	v := s.View(s.View(engine.Spectator).Turn)
	of := func(n int) []engine.Card { return v.Hand[:n] }
	tests := []struct {
		name      string
		picked    []engine.Card
		sneak     int
		status    string
		claimWord string
	}{
		{"nothing picked", nil, 0, "pick the cards", "Pick cards to claim"},
		{"sneaking all", of(1), 1, "at least one is claimed", "Pick cards to claim"},
		{"one claimed, one sneaked", of(2), 1, "neaking 1", "Claim one ace +1"},
	}
	for _, tt := range tests {
		status, label := sneakHint(v, tt.picked, tt.sneak)
		if !strings.Contains(status, tt.status) || label != tt.claimWord {
			t.Errorf("%s: got %q / %q, want %q / %q", tt.name, status, label, tt.status, tt.claimWord)
		}
	}
	// The counts: a sneak from an exact hand shows, and the hint says so.
	v.Hand = v.Hand[:5]
	status, _ := sneakHint(v, v.Hand[:3], 1)
	if want := engine.SneakMayShow(5, v.Pile, 2, 1); want != strings.Contains(status, "might show") {
		t.Errorf("a sneak from 5 cards: got %q, want it to say it might show: %v", status, want)
	}
}

// TestRevealLandsInTheRightBeat: a frame rendered late gets negative delays,
// so its animations stand in the beat the table is in.
func TestRevealLandsInTheRightBeat(t *testing.T) {
	s, g := dealt(t, 4)
	at := t0.Add(time.Second)
	last := play(t, s, at)
	caller := (last.Seat + 1) % 4
	if err := s.Apply(engine.Action{Kind: engine.ActCall, Seat: caller, No: last.Plays}, at.Add(time.Second)); err != nil {
		t.Fatal(err)
	}
	// Past the grace for calls made together, still in the reveal's first
	// beat: the cards are being turned up.
	s.Tick(at.Add(time.Second + engine.MaxGrace))
	f := frameOf(s, g, caller)
	if f.View.Reveal == nil {
		t.Fatalf("no reveal in phase %v after the grace", f.View.Phase)
	}
	beats := f.View.Reveal.Beats
	late := beats[2].At.Add(100 * time.Millisecond) // in the verdict
	_, tb := screen(f, late)
	r := tb.Reveal
	if r == nil {
		t.Fatal("no reveal")
	}
	if !(r.Shout0 < 0 && r.Flip0 < 0 && r.Verdict0 < 0 && r.Take0 > 0) {
		t.Errorf("delays at the verdict: got shout %.2f flip %.2f verdict %.2f take %.2f, want the first three past", r.Shout0, r.Flip0, r.Verdict0, r.Take0)
	}
	if !strings.HasPrefix(r.Shout, "You called it on ") {
		t.Errorf("the caller's shout: got %q", r.Shout)
	}
	if tb.Dock.Right == nil || !tb.Dock.Right.Disabled {
		t.Errorf("moves during a reveal: got %+v, want disabled", tb.Dock.Right)
	}
	_, other := screen(frameOf(s, g, last.Seat), late)
	if want := "called it on you"; !strings.Contains(other.Reveal.Shout, want) {
		t.Errorf("the player's shout: got %q, want %q", other.Reveal.Shout, want)
	}
}

func TestClockAndClaim(t *testing.T) {
	s, g := dealt(t, 4)
	last := play(t, s, t0.Add(time.Second))
	f := frameOf(s, g, (last.Seat+1)%4)
	_, tb := screen(f, t0.Add(3*time.Second))
	c := tb.Middle.Clock
	if c.Key == "" || c.Total != 6 || c.Left != 4 || c.SayAt != 2 {
		t.Errorf("the call window's clock: got %+v, want 6 s in all, 4 left, said in 2", c)
	}
	// The hand was as dealt, so the table knew its count exactly.
	if want := "hand 13 → 11-13 · pile 0 → 1"; !strings.Contains(tb.Middle.Claim, "claims one ace") || !strings.Contains(tb.Middle.Sizes, want) {
		t.Errorf("claim %q, sizes %q: want one ace claimed, sizes %q", tb.Middle.Claim, tb.Middle.Sizes, want)
	}
	if tb.Dock.Right == nil || tb.Dock.Right.ID != "call" || tb.Dock.Left.ID != "let-go" {
		t.Errorf("the call window's moves: got %+v / %+v", tb.Dock.Left, tb.Dock.Right)
	}
}

// TestSettledCallLeavesTheMiddle: once a called play's pile has gone to its
// loser, through the hand-over of a caught sneak too, the middle says who
// called whose claim and drops the sizes line, whose pile has gone.
func TestSettledCallLeavesTheMiddle(t *testing.T) {
	for _, tt := range []struct {
		name  string
		sneak bool
		phase engine.Phase
	}{
		{"a play called", false, engine.PhasePlay},
		{"a sneak caught, at its hand-over", true, engine.PhaseGive},
	} {
		s, g := dealt(t, 4)
		v := s.View(s.View(engine.Spectator).Turn)
		a := engine.Action{Kind: engine.ActPlay, Seat: v.Seat, No: v.Plays, Cards: v.Hand[:1]}
		if tt.sneak {
			a.Cards, a.Claim = v.Hand[:2], 1
		}
		if err := s.Apply(a, t0.Add(time.Second)); err != nil {
			t.Fatal(err)
		}
		caller := (v.Seat + 1) % 4
		at := t0.Add(2 * time.Second)
		if err := s.Apply(engine.Action{Kind: engine.ActCall, Seat: caller, No: s.Plays()}, at); err != nil {
			t.Fatal(err)
		}
		for i := 0; i < 100 && s.Phase() != tt.phase; i++ {
			at = s.Deadline()
			s.Tick(at)
		}
		if s.Phase() != tt.phase {
			t.Fatalf("%s: got phase %v, want %v", tt.name, s.Phase(), tt.phase)
		}
		for _, tc := range []struct {
			seat int
			want string
		}{
			{v.Seat, "Ben called your one ace"},
			{caller, "You called Ada's one ace"},
			{(caller + 1) % 4, "Ben called Ada's one ace"},
		} {
			_, tb := screen(frameOf(s, g, tc.seat), at)
			if tb.Middle.Claim != tc.want || tb.Middle.Sizes != "" {
				t.Errorf("%s: seat %d: got claim %q, sizes %q; want %q and no sizes", tt.name, tc.seat, tb.Middle.Claim, tb.Middle.Sizes, tc.want)
			}
		}
	}
}

// TestFrameEventParts: at the table a frame event's parts are its regions in
// page order, each a slice of the whole, each swapping itself out of band;
// a result sheet changes the shape; the waiting room has no parts.
func TestFrameEventParts(t *testing.T) {
	h := New(Config{})
	s, g := dealt(t, 4)
	ev, ok, err := h.FrameEvent(frameOf(s, g, 0), t0)
	if err != nil || !ok {
		t.Fatalf("FrameEvent: got %v, %v", ok, err)
	}
	var ids []string
	for _, p := range ev.Parts {
		if !bytes.Contains(ev.Data, p) {
			t.Errorf("part %.40q is not in the whole event", p)
		}
		doc, err := html.Parse(bytes.NewReader(p))
		if err != nil {
			t.Fatal(err)
		}
		body := doc.FirstChild.LastChild
		root := body.FirstChild
		if root == nil || root.NextSibling != nil {
			t.Errorf("part %.60q: want exactly one element", p)
			continue
		}
		var id, swap string
		for _, a := range root.Attr {
			switch a.Key {
			case "id":
				id = a.Val
			case "hx-swap-oob":
				swap = a.Val
			}
		}
		if swap != "morph" {
			t.Errorf("region %q: got hx-swap-oob %q, want morph", id, swap)
		}
		ids = append(ids, id)
	}
	if want := []string{"bar", "seats", "middle", "hand", "dock", "reveal"}; !slices.Equal(ids, want) || ev.Shape != "table" {
		t.Errorf("got regions %v shape %q, want %v shape table", ids, ev.Shape, want)
	}
	if id, at, _ := strings.Cut(ev.ID, "."); id != fmt.Sprint(ev.Key) || at != fmt.Sprint(t0.UnixMilli()) {
		t.Errorf("got id %q, want the revision %d and the render time %d", ev.ID, ev.Key, t0.UnixMilli())
	}

	waiting := game.Frame{Game: game.Summary{ID: "abcd1234", Status: game.StatusOpen}, Revision: 1}
	if ev, _, err := h.FrameEvent(waiting, t0); err != nil || ev.Parts != nil || ev.Shape != "" {
		t.Errorf("the waiting room: got %d parts, shape %q, err %v; want it whole", len(ev.Parts), ev.Shape, err)
	}
}

// TestNamesAtATableAreUnique: two bots of one style, a person who named
// themselves after a bot and a person's seat handed to a bot of a style
// another seat has are all told apart, and the seat handed over mid-game
// takes the new name rather than renaming a seat that had one.
func TestNamesAtATableAreUnique(t *testing.T) {
	bot := func(seat int, style string) game.SeatInfo {
		return game.SeatInfo{Seat: seat, Kind: game.SeatBot, Name: words.Capital(style) + " bot (medium)", Bot: &game.BotSpec{Level: "medium", Style: style}}
	}
	covered := bot(0, "caller")
	covered.Name, covered.Covered = "Ada", true
	seats := []game.SeatInfo{covered, bot(1, "caller"), bot(2, "bold"), bot(3, "caller"),
		{Seat: 4, Kind: game.SeatPerson, Name: "bold BOT"}, {Seat: 5, Kind: game.SeatEmpty}}
	nm := newNames(seats, 4)
	want := []string{"Caller bot 3", "Caller bot", "Bold bot", "Caller bot 2", "bold BOT 2", "Someone"}
	for seat, w := range want {
		if got := nm.of(seat); got != w {
			t.Errorf("seat %d: got %q, want %q", seat, got, w)
		}
	}
	if got := nm.name(4); got != "You" {
		t.Errorf("the viewer's own seat: got %q, want You", got)
	}
}

// TestDockAlertsTheMoveThatWaits: the dock names the move that waits for
// the player, for a hidden tab to be told of: their turn and a hand-over
// they owe, each with a key of its own; nothing while others move.
func TestDockAlertsTheMoveThatWaits(t *testing.T) {
	g := game.Summary{ID: "abcdefgh", Seats: []game.SeatInfo{{Seat: 0, Name: "Ada"}, {Seat: 1, Name: "Ben"}, {Seat: 2, Name: "Cy"}}}
	tests := []struct {
		name string
		v    engine.View
		key  string
	}{
		{"the turn", engine.View{Seat: 0, Phase: engine.PhasePlay, Plays: 4, Rank: engine.Seven, MaxClaim: 4, Can: []engine.ActionKind{engine.ActPlay}}, "play-4"},
		{"a hand-over", engine.View{Seat: 0, Phase: engine.PhaseGive, Plays: 9, Can: []engine.ActionKind{engine.ActGive},
			Give: &engine.Give{Caller: 0, Seat: 2, Count: 1}}, "give-9"},
		{"a call window", engine.View{Seat: 0, Phase: engine.PhaseCall, Plays: 5, Can: []engine.ActionKind{engine.ActCall, engine.ActPass},
			Last: &engine.LastPlay{Seat: 1, Rank: engine.Seven, Claim: 1}}, ""},
		{"someone else's turn", engine.View{Seat: 0, Phase: engine.PhasePlay, Plays: 6, Turn: 1}, ""},
	}
	for _, tt := range tests {
		d, _ := dockModel(g, &tt.v, newNames(g.Seats, 0))
		if d.Alert.Key != tt.key || (tt.key != "" && (d.Alert.Title == "" || d.Alert.Body == "")) {
			t.Errorf("%s: got the alert %+v, want the key %q with words", tt.name, d.Alert, tt.key)
		}
	}
}

// TestBubbles: each seat's bubble says what the view says it is doing, and
// its kind (how it is drawn) comes with it; nobody says "Out!" who did not
// go out, even with no cards left when the host ended the game.
func TestBubbles(t *testing.T) {
	seats := []engine.SeatView{{Seat: 0}, {Seat: 1, Passed: true}, {Seat: 2}}
	last := &engine.LastPlay{No: 3, Seat: 2, Claim: 2, Caller: -1}
	won := []engine.ResultRow{{Place: engine.Place{Seat: 2, Place: 1}, Out: true}, {Place: engine.Place{Seat: 0, Place: 2, Left: 4}}}
	ended := []engine.ResultRow{{Place: engine.Place{Seat: 2, Place: 1}}, {Place: engine.Place{Seat: 0, Place: 2, Left: 4}}}
	tests := []struct {
		name string
		v    engine.View
		seat int
		want string
		kind views.BubbleKind
	}{
		{"playing", engine.View{Phase: engine.PhasePlay, Turn: 1, Seats: seats}, 1, "Playing…", views.BubbleSay},
		{"waiting", engine.View{Phase: engine.PhasePlay, Turn: 1, Seats: seats}, 0, "", views.BubbleSay},
		{"a claim", engine.View{Phase: engine.PhaseCall, Last: last, Seats: seats}, 2, "Claims 2", views.BubbleSay},
		{"let it go", engine.View{Phase: engine.PhaseCall, Last: last, Seats: seats}, 1, "Let it go", views.BubbleSay},
		{"the call", engine.View{Phase: engine.PhaseReveal, Last: last, Seats: seats, Reveal: &engine.Reveal{Showdown: engine.Showdown{Caller: 0}}}, 0, "Bullshit!", views.BubbleCall},
		{"a hand-over", engine.View{Phase: engine.PhaseGive, Last: last, Seats: seats, Give: &engine.Give{Caller: 0, Seat: 2}}, 0, "Picking…", views.BubbleSay},
		{"out", engine.View{Phase: engine.PhaseOver, Seats: seats, Result: won}, 2, "Out!", views.BubbleOut},
		{"placed", engine.View{Phase: engine.PhaseOver, Seats: seats, Result: won}, 0, "", views.BubbleSay},
		{"ended with no cards", engine.View{Phase: engine.PhaseOver, Ended: true, Seats: seats, Result: ended}, 2, "", views.BubbleSay},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, kind := bubble(&tt.v, tt.seat)
			if got != tt.want || kind != tt.kind {
				t.Errorf("got %q (kind %d), want %q (kind %d)", got, kind, tt.want, tt.kind)
			}
		})
	}
}

func TestWentSaysWhatChanged(t *testing.T) {
	r := func(lo, hi int) engine.Range { return engine.Range{Lo: lo, Hi: hi} }
	for _, tc := range []struct {
		counts [2]engine.Range
		dealt  int
		want   string
	}{
		{[2]engine.Range{r(11, 13), r(11, 13)}, 0, "still 11-13"},
		{[2]engine.Range{r(11, 13), r(11, 13)}, 13, "13 → 11-13"},
		{[2]engine.Range{r(9, 10), r(7, 7)}, 0, "9-10 → 7"},
		{[2]engine.Range{r(4, 6), r(7, 10)}, 0, "4-6 → 7-10"},
		{[2]engine.Range{r(3, 3), r(4, 4)}, 0, "3 → 4"},
	} {
		if got := went(tc.counts, tc.dealt); got != tc.want {
			t.Errorf("went(%v, %d): got %q, want %q", tc.counts, tc.dealt, got, tc.want)
		}
	}
}

func TestDoesAgreesWithItsSubject(t *testing.T) {
	nm := newNames([]game.SeatInfo{{Name: "Ada"}, {Name: "Ben"}}, 1)
	for _, tc := range []struct {
		seat int
		want string
	}{
		{0, "Ada hands"},
		{1, "You hand"},
	} {
		if got := nm.does(tc.seat, "hand"); got != tc.want {
			t.Errorf("does(%d, hand): got %q, want %q", tc.seat, got, tc.want)
		}
	}
}
