package engine

import (
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"
)

// fuzzGame plays a game from fuzz bytes. The first four choose the table;
// then every move takes six bytes and as many more as it has cards:
//
//	kind  0 play, 1 call, 2 pass, 3 give, 4 run to the deadline, 5 a tick,
//	      6 a deciding seat's fallback (always legal, so games get deep),
//	      7 a move that does not exist
//	seat  any seat, one off either end of the table
//	no    the play number, or (high bit set) up to two off it
//	cards the count (low 3 bits, 0 to 7), from the seat's hand or (bit 4)
//	      any byte as a card, repeats allowed
//	claim as a signed byte, -9 to 9
//	wait  milliseconds, times 50, before the move
func fuzzGame(t *testing.T, data []byte) {
	if len(data) < 4 {
		return
	}
	// A hundred and more moves reach deep into a game; longer inputs add
	// little and slow the fuzzer down.
	data = data[:min(len(data), 1024)]
	opts := Standard(MinSeats + int(data[0])%(MaxSeats-MinSeats+1))
	opts.Sneak = int(data[1]) % (MaxSneakLimit + 1)
	opts.Window = Windows[int(data[2])%len(Windows)]
	if data[3]&1 == 1 {
		opts.Penalty = Penalty{Cards: 1 + int(data[3]>>1)%3, PerCard: data[3]&2 != 0}
	}
	s, err := New(opts, uint64(data[3]), t0)
	if err != nil {
		t.Fatal(err)
	}
	now := t0
	data = data[4:]
	for len(data) >= 6 && !s.Over() {
		b := data[:6]
		data = data[6:]
		now = now.Add(time.Duration(b[5]) * 50 * time.Millisecond)
		seat := int(b[1])%(s.n+2) - 1
		a := Action{Kind: []ActionKind{ActPlay, ActCall, ActPass, ActGive}[b[0]%4], Seat: seat, No: s.plays,
			Claim: int(int8(b[4])) % 10}
		if b[2]&0x80 != 0 {
			a.No += int(b[2]%5) - 2
		}
		n := int(b[3] & 7)
		picks := data[:min(n, len(data))]
		data = data[len(picks):]
		for _, p := range picks {
			switch {
			case b[3]&0x10 != 0 || seat < 0 || seat >= s.n || len(s.hands[seat]) == 0:
				a.Cards = append(a.Cards, Card(p))
			default:
				a.Cards = append(a.Cards, s.hands[seat][int(p)%len(s.hands[seat])])
			}
		}
		switch b[0] % 8 {
		case 4:
			if d := s.Deadline(); !d.IsZero() {
				now = d
			}
			s.Tick(now)
			checkInvariants(t, s, now)
			continue
		case 5:
			s.Tick(now)
			checkInvariants(t, s, now)
			continue
		case 6:
			s.Tick(now)
			ds := s.Deciding()
			if len(ds) == 0 {
				continue
			}
			fb, ok := s.View(ds[int(b[1])%len(ds)].Seat).Fallback()
			if !ok {
				t.Fatalf("a deciding seat has no fallback")
			}
			a = fb
		case 7:
			a.Kind = ActionKind(strings.Repeat("x", int(b[1]%3)))
		}
		want := ticked(s, now)
		if err := s.Apply(a, now); err != nil {
			var e *Error
			if !errors.As(err, &e) || e.Message == "" {
				t.Fatalf("Apply(%+v): got %T %v, want an *Error with a message", a, err, err)
			}
			switch e.Code {
			case CodeNotYourTurn, CodeIllegal, CodeStale, CodeOver:
			default:
				t.Fatalf("Apply(%+v): got code %q", a, e.Code)
			}
			if b[0]%8 == 6 {
				t.Fatalf("fallback %+v refused: %v", a, err)
			}
			if !want.matches(s) {
				t.Fatalf("refused %+v (%v) changed the state", a, err)
			}
			continue
		}
		checkInvariants(t, s, now)
	}
}

func FuzzActions(f *testing.F) {
	f.Add([]byte{1, 2, 1, 0})
	// Four seats: seat 1 plays one card, everyone lets it go.
	f.Add([]byte{1, 2, 1, 0, 0, 1, 0, 1, 0, 10, 0, 2, 2, 0, 0, 0, 10, 2, 3, 0, 0, 0, 10, 2, 0, 0, 0, 0, 10})
	// Fallbacks and deadlines, over and over, at ten seats with two decks.
	f.Add([]byte{7, 3, 2, 5, 6, 0, 0, 0, 0, 20, 6, 1, 0, 0, 0, 20, 1, 2, 0, 0, 0, 10, 4, 0, 0, 0, 0, 0, 4, 0, 0, 0, 0, 0, 3, 2, 0, 1, 0, 5, 7, 6, 0, 0, 0, 0, 0, 4, 0, 0, 0, 0, 0})
	// A sneak: three cards claiming one, called.
	f.Add([]byte{0, 2, 1, 3, 0, 1, 0, 3, 1, 10, 0, 1, 2, 1, 2, 1, 0, 5, 4, 0, 0, 0, 0, 0, 3, 2, 0, 1, 0, 5, 9})
	// Junk: stale numbers, bad seats, cards from nowhere.
	f.Add([]byte{3, 0, 0, 9, 0, 255, 130, 0x13, 200, 1, 250, 104, 7, 0, 9, 0xff, 0x80, 33, 33, 1, 7, 9, 2, 0})
	f.Fuzz(fuzzGame)
}

func FuzzParseCard(f *testing.F) {
	for _, s := range []string{"AS", "10h", "TD", "KC2", "2S2", "AS22", "", "1", "ZZ", " qd ", "102", "\u017f"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		c, err := ParseCard(s)
		if err != nil {
			return
		}
		if int(c) >= 104 {
			t.Fatalf("ParseCard(%q) = %d, not a card", s, c)
		}
		back, err := ParseCard(c.String())
		if err != nil || back != c {
			t.Fatalf("ParseCard(%q) = %v, which reads back as %v, %v", s, c, back, err)
		}
		lower, err := ParseCard(strings.ToLower(c.String()))
		if err != nil || lower != c {
			t.Fatalf("%v in lower case reads as %v, %v", c, lower, err)
		}
		b, _ := json.Marshal([]Card{c})
		var cs []Card
		if err := json.Unmarshal(b, &cs); err != nil || !slices.Equal(cs, []Card{c}) {
			t.Fatalf("%v through JSON %s: got %v, %v", c, b, cs, err)
		}
	})
}

func TestEveryCardRoundTrips(t *testing.T) {
	seen := map[string]bool{}
	for _, c := range deck(2) {
		s := c.String()
		if seen[s] {
			t.Errorf("two cards write as %q", s)
		}
		seen[s] = true
		if back, err := ParseCard(s); err != nil || back != c {
			t.Errorf("ParseCard(%q): got %v, %v, want %v", s, back, err, c)
		}
	}
}

func FuzzRangeJSON(f *testing.F) {
	for _, s := range []string{"[5,5]", "[9,10]", "[30,null]", "null", "[]", "[1]", "[null,1]", "[1,2,3]", "[1.5,2]", `{"a":1}`, "[-3, -1]"} {
		f.Add([]byte(s), 0, 0)
	}
	f.Add([]byte("[0,0]"), 30, Open)
	f.Add([]byte("[0,0]"), 9, 10)
	f.Fuzz(func(t *testing.T, data []byte, lo, hi int) {
		var r Range
		if err := json.Unmarshal(data, &r); err == nil {
			roundTrip(t, r)
		}
		roundTrip(t, Range{lo, hi})
	})
}

func roundTrip(t *testing.T, r Range) {
	b, err := json.Marshal(r)
	if err != nil {
		t.Fatalf("Marshal(%v): %v", r, err)
	}
	var back Range
	if err := json.Unmarshal(b, &back); err != nil || back != r {
		t.Fatalf("%v through JSON %s: got %v, %v", r, b, back, err)
	}
}
