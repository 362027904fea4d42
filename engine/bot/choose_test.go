package bot

import (
	"testing"

	"bullshit/engine"
)

func cards(t *testing.T, codes ...string) []engine.Card {
	t.Helper()
	out := make([]engine.Card, len(codes))
	for i, c := range codes {
		card, err := engine.ParseCard(c)
		if err != nil {
			t.Fatal(err)
		}
		out[i] = card
	}
	return out
}

// turnView is seat 0's turn at four seats, kings called, holding hand.
func turnView(hand []engine.Card) engine.View {
	opts := engine.Standard(4)
	return engine.View{
		Version: 9, Seat: 0, Options: opts, Phase: engine.PhasePlay, RankIndex: 12, Rank: engine.King,
		Plays: 12, Hand: hand, Seats: seats(4, 13), Pile: engine.Seen(5, engine.PileKind),
		Can: []engine.ActionKind{engine.ActPlay}, MaxClaim: opts.MaxClaim(),
	}
}

// callView is seat 1 answering seat 0's claim of claim aces, holding hand.
func callView(hand []engine.Card, claim int, before, after int, out bool) engine.View {
	opts := engine.Standard(4)
	return engine.View{
		Version: 21, Seat: 1, Options: opts, Phase: engine.PhaseCall, RankIndex: 0, Rank: engine.Two, Plays: 1,
		Hand: hand, Seats: seats(4, 13), Pile: engine.Seen(claim+before-after, engine.PileKind),
		Last: &engine.LastPlay{No: 1, Seat: 0, Rank: engine.Ace, Claim: claim, Out: out, Caller: -1,
			Sizes: engine.Sizes{
				Hand: [2]engine.Range{engine.Seen(before, engine.HandKind), engine.Seen(after, engine.HandKind)},
				Pile: [2]engine.Range{engine.Seen(0, engine.PileKind), engine.Seen(before-after, engine.PileKind)},
			}},
		Can: []engine.ActionKind{engine.ActCall, engine.ActPass}, MaxClaim: opts.MaxClaim(),
	}
}

func seats(n, size int) []engine.SeatView {
	out := make([]engine.SeatView, n)
	for i := range out {
		out[i] = engine.SeatView{Seat: i, Hand: engine.Seen(size, engine.HandKind)}
	}
	return out
}

func TestBluffsWithoutTheRank(t *testing.T) {
	for _, b := range every(t, 3) {
		for version := range 50 {
			v := turnView(cards(t, "2S", "3H", "5D", "7C", "9S", "JH", "QD"))
			v.Version = version
			a, ok := b.Choose(v)
			if !ok || a.Kind != engine.ActPlay {
				t.Fatalf("%s: got %+v, want a play", b, a)
			}
			if a.Claim < 1 || a.Claim > 2 {
				t.Fatalf("%s: got a claim of %d, want a bluff of 1 or 2", b, a.Claim)
			}
			for _, c := range a.Cards {
				if c.Rank() == engine.King {
					t.Fatalf("%s: played a king it does not hold", b)
				}
			}
		}
	}
}

func TestPlaysTheRankItHolds(t *testing.T) {
	for _, b := range every(t, 4) {
		for version := range 50 {
			v := turnView(cards(t, "2S", "3H", "5D", "KC", "KS", "JH", "QD"))
			v.Version = version
			a, _ := b.Choose(v)
			kings := 0
			for _, c := range a.Cards[:a.Claim] {
				if c.Rank() == engine.King {
					kings++
				}
			}
			if kings != 2 {
				t.Fatalf("%s: got %d kings claimed in %v, want both", b, kings, a.Cards)
			}
		}
	}
}

func TestCalls(t *testing.T) {
	tests := []struct {
		name          string
		hand          []string
		claim         int
		before, after int
		out           bool
	}{
		// The seat holds three aces: a claim of two can't be true.
		{"impossible claim", []string{"AS", "AH", "AD", "5C", "9C"}, 2, 12, 10, false},
		// A last card is called by every bot, easy included.
		{"last card", []string{"2S", "5C", "9C"}, 1, 1, 0, true},
		{"last two cards", []string{"2S", "5C", "9C", "AH"}, 2, 2, 0, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, b := range every(t, 5) {
				for version := range 40 {
					v := callView(cards(t, tt.hand...), tt.claim, tt.before, tt.after, tt.out)
					v.Version = version
					if a, _ := b.Choose(v); a.Kind != engine.ActCall {
						t.Fatalf("%s (version %d): got %s, want call", b, version, a.Kind)
					}
				}
			}
		})
	}
}

// A counted hand dropping more than the claim gives a sneak away: a hard bot
// always sees it, and the lower levels sometimes do.
func TestNoticesSneakTheCountsShow(t *testing.T) {
	tests := []struct {
		level    Level
		min, max float64
	}{
		{Hard, 1, 1},
		{Medium, 0.6, 1},
		{Easy, 0.3, 0.9},
	}
	for _, tt := range tests {
		t.Run(string(tt.level), func(t *testing.T) {
			b, err := New(tt.level, Cautious, 11)
			if err != nil {
				t.Fatal(err)
			}
			const n = 400
			calls := 0
			for version := range n {
				// Seat 0 had 7 cards and now has 5 after claiming one.
				v := callView(cards(t, "2S", "5C", "9C", "JD"), 1, 7, 5, false)
				v.Version = version
				if a, _ := b.Choose(v); a.Kind == engine.ActCall {
					calls++
				}
			}
			got := float64(calls) / n
			if got < tt.min || got > tt.max {
				t.Errorf("got %.2f of plays called, want %.2f to %.2f", got, tt.min, tt.max)
			}
		})
	}
}

func TestHandsOverTheSuggestedCard(t *testing.T) {
	hand := cards(t, "2S", "5C", "9C")
	v := engine.View{Version: 40, Seat: 2, Options: engine.Standard(4), Phase: engine.PhaseGive, Plays: 7, Hand: hand,
		Seats: seats(4, 10), Can: []engine.ActionKind{engine.ActGive},
		Give: &engine.Give{Caller: 2, Seat: 1, Count: 1, Suggested: hand[1:2]}}
	for _, b := range every(t, 6) {
		a, ok := b.Choose(v)
		if !ok || a.Kind != engine.ActGive || len(a.Cards) != 1 || a.Cards[0] != hand[1] {
			t.Fatalf("%s: got %+v, want to hand over %v", b, a, hand[1])
		}
	}
}

func TestNothingToDo(t *testing.T) {
	v := turnView(nil)
	v.Can = []engine.ActionKind{}
	for _, b := range every(t, 7) {
		if a, ok := b.Choose(v); ok {
			t.Fatalf("%s: got %+v with nothing to do, want none", b, a)
		}
	}
}

func TestParse(t *testing.T) {
	tests := []struct {
		in      string
		wantErr bool
	}{
		{"easy", false}, {"hard", false}, {"expert", true}, {"", true},
	}
	for _, tt := range tests {
		if _, err := ParseLevel(tt.in); (err != nil) != tt.wantErr {
			t.Errorf("ParseLevel(%q): got error %v, want error %v", tt.in, err, tt.wantErr)
		}
	}
	for _, s := range Styles() {
		if got, err := ParseStyle(string(s)); err != nil || got != s {
			t.Errorf("ParseStyle(%q): got %q, %v, want %q", s, got, err, s)
		}
	}
	if _, err := ParseStyle("sly"); err == nil {
		t.Errorf("ParseStyle(%q): got no error, want one", "sly")
	}
	if _, err := New("expert", Bold, 1); err == nil {
		t.Errorf("New with level %q: got no error, want one", "expert")
	}
}

// A padded claim has a wrong card among the claimed ones. Easy pads at its
// style's rate anywhere; medium and hard only where it pays: at a table that
// has not called in twelve plays and onto an empty pile, never onto a big
// pile at a table that calls every play, and never to a claim of more than
// half the copies (three kings of four), which a listener holding the other
// king would see is impossible.
func TestPads(t *testing.T) {
	one := []string{"2S", "3H", "5D", "KC", "9S", "JH", "QD"}
	two := []string{"2S", "3H", "5D", "KC", "KS", "JH", "QD"}
	tests := []struct {
		level   Level
		hand    []string
		pile    int
		calls   int // each other seat's calls in the view's twelve plays
		wantAny bool
	}{
		{Easy, two, 14, 4, true},
		{Medium, one, 0, 0, true},
		{Medium, one, 14, 4, false},
		{Medium, two, 0, 0, false},
		{Hard, one, 0, 0, true},
		{Hard, one, 14, 4, false},
		{Hard, two, 0, 0, false},
	}
	for _, tt := range tests {
		b, err := New(tt.level, Bold, 8)
		if err != nil {
			t.Fatal(err)
		}
		padded := 0
		for version := range 200 {
			v := turnView(cards(t, tt.hand...))
			v.Pile = engine.Seen(tt.pile, engine.PileKind)
			for i := 1; i < len(v.Seats); i++ {
				v.Seats[i].Calls = tt.calls
			}
			v.Version = version
			a, _ := b.Choose(v)
			for _, c := range a.Cards[:a.Claim] {
				if c.Rank() != engine.King {
					padded++
					break
				}
			}
		}
		if got := padded > 0; got != tt.wantAny {
			t.Errorf("%s holding %v on a pile of %d, %d calls a seat: got %d of 200 claims padded, want some: %v", b, tt.hand,
				tt.pile, tt.calls, padded, tt.wantAny)
		}
	}
}

// Medium and hard bots read the claimant's record in this game: the same
// play is called more often from a seat caught lying on most of the calls
// against it than from one never caught while the rest of the table was.
func TestCallsByTheClaimantsRecord(t *testing.T) {
	for _, level := range []Level{Medium, Hard} {
		for _, style := range SiteStyles() {
			b, err := New(level, style, 23)
			if err != nil {
				t.Fatal(err)
			}
			rate := func(liarLies int) float64 {
				const n = 600
				calls := 0
				for version := range n {
					// Seat 0 claims one ace after 40 plays, 6 cards down to
					// 5; this seat holds two aces. Seats 2 and 3 were caught
					// 3 times each, and made the table's 24 calls, every
					// lie caught among them.
					v := callView(cards(t, "AS", "AH", "9C", "JD", "QH", "KS"), 1, 6, 5, false)
					v.Plays = 40
					v.Seats[0].Lies = liarLies
					v.Seats[2].Lies, v.Seats[3].Lies = 3, 3
					v.Seats[2].Calls, v.Seats[3].Calls = 12, 12
					v.Seats[2].Right = (liarLies + 6) / 2
					v.Seats[3].Right = liarLies + 6 - v.Seats[2].Right
					v.Version = version
					if a, _ := b.Choose(v); a.Kind == engine.ActCall {
						calls++
					}
				}
				return float64(calls) / n
			}
			honest, liar := rate(0), rate(8)
			if liar < honest+0.1 {
				t.Errorf("%s: got %.2f of a caught liar's plays called, want clearly more than the %.2f of a seat never caught",
					b, liar, honest)
			}
		}
	}
}
