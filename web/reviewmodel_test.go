package web

import (
	"strconv"
	"strings"
	"testing"
	"time"

	"bullshit/engine"
	"bullshit/engine/bot"
	"bullshit/engine/review"
	"bullshit/game"
)

func parseCards(t *testing.T, codes ...string) []engine.Card {
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

// TestPlayModel: each kind of play reads back in words: the truth let go,
// a lie called on a good bet, a sneak caught with a hand-over that the
// counts gave away, and a lie that should have been called.
func TestPlayModel(t *testing.T) {
	nm := []string{"Ada", "Ben", "Cy"}
	sizes := engine.Sizes{Hand: [2]engine.Range{{Lo: 9, Hi: 10}, {Lo: 7, Hi: 7}}, Pile: [2]engine.Range{{Lo: 4, Hi: 6}, {Lo: 7, Hi: 10}}}
	read := func(seat int, lie float64, call bool) review.Reading {
		return review.Reading{Seat: seat, Reading: bot.Reading{Lie: lie, Sneak: lie / 2, Call: call}}
	}
	call := func(seat int, ms int) *review.Answer {
		return &review.Answer{Seat: seat, After: time.Duration(ms) * time.Millisecond}
	}
	tests := []struct {
		name string
		play review.Play
		want []string
		not  []string
	}{
		{"the truth let go", review.Play{Seat: 0, Rank: engine.King, Claim: 2, Cards: parseCards(t, "KS", "KH"), Sizes: sizes, Loser: -1,
			Passes:   []review.Answer{{Seat: 2, After: 2100 * time.Millisecond}, {Seat: 1, After: 1200 * time.Millisecond}},
			Readings: []review.Reading{read(1, 0.12, false), read(2, 0.2, false)}, Left: []int{7, 9, 10}},
			[]string{"Ada claimed 2 kings", "hand 9-10 → 7, the pile 4-6 → 7-10", "The truth", "Ben let it go after 1.2 s|Cy let it go after 2.1 s",
				"Nobody called: the play stood.", "Ben 12% 6%", "Ada 7|Ben 9|Cy 10"},
			[]string{"good bet", "Should have", "handed", "counts gave"}},
		{"a lie called, a good bet", review.Play{Seat: 0, Rank: engine.King, Claim: 2, Cards: parseCards(t, "KS", "4D"), Lie: true, Sizes: sizes,
			Call: call(1, 800), Loser: 0, Took: 6, GoodBet: true, Readings: []review.Reading{read(1, 0.71, true), read(2, 0.4, false)}, Left: []int{13, 9, 10}},
			[]string{"A lie: 1 of the 2 cards not kings", "Ben called Bullshit! after 0.8 s", "Ben was right: Ada took the pile of 6 cards.",
				"A good bet: Ben's reading", "Ben 71% 36% call"},
			[]string{"Should have", "The truth"}},
		{"a sneak caught, handed a card", review.Play{Seat: 0, Rank: engine.King, Claim: 2, Cards: parseCards(t, "KS", "KH", "2C"), Sneaked: 1, Lie: true,
			Shows: true, Sizes: sizes, Call: call(2, 500), Also: []review.Answer{*call(1, 600)}, Loser: 0, Took: 9,
			HandOver: &review.HandOver{From: 2, To: 0, Cards: parseCards(t, "3D")}, Readings: []review.Reading{read(1, 0.5, false), read(2, 0.9, false)}},
			[]string{"Ada sneaked 1 card under the claim", "The counts gave the sneak away",
				"Cy called Bullshit! after 0.5 s|Ben called too after 0.6 s, within the grace, and lost the shout", "Cy was right: Ada took the pile of 9 cards.",
				"Cy handed Ada 1 card:"},
			[]string{"good bet"}},
		{"a lie let go that the counts said to call", review.Play{Seat: 1, Rank: engine.Ace, Claim: 1, Cards: parseCards(t, "QH"), Lie: true, Sizes: sizes,
			Loser: -1, Missed: true, Readings: []review.Reading{read(0, 1, true), read(2, 0.9, true)}},
			[]string{"Ben claimed one ace", "A lie: 1 of the 1 card not aces", "Nobody answered", "Should have been called: the counts told Ada and Cy to call"},
			[]string{"good bet"}},
	}
	for _, tt := range tests {
		m := playModel(tt.play, nm, true)
		var parts []string
		parts = append(parts, m.Claim, m.Sizes, m.Verdict, m.Shows, m.Outcome, m.HandOver, m.GoodBet, m.Missed)
		var answers, readings, left []string
		for _, a := range m.Answers {
			answers = append(answers, a.Name+" "+a.Did+" "+a.After)
		}
		for _, r := range m.Readings {
			s := r.Name + " " + r.Lie + " " + r.Sneak
			if r.Call {
				s += " call"
			}
			readings = append(readings, s)
		}
		for _, l := range m.Left {
			left = append(left, l.Name+" "+strconv.Itoa(l.Cards))
		}
		parts = append(parts, strings.Join(answers, "|"), strings.Join(readings, "|"), strings.Join(left, "|"))
		all := strings.Join(parts, "\n")
		for _, w := range tt.want {
			if !strings.Contains(all, w) {
				t.Errorf("%s: got\n%s\nwant it to say %q", tt.name, all, w)
			}
		}
		for _, w := range tt.not {
			if strings.Contains(all, w) {
				t.Errorf("%s: got\n%s\nwant nothing of %q", tt.name, all, w)
			}
		}
	}
	// Cards not of the rank, and cards sneaked, are marked as such.
	m := playModel(tests[2].play, nm, true)
	if m.Cards[2].Sneaked != true || m.Cards[2].Off || m.Cards[0].Off || m.Cards[0].Sneaked {
		t.Errorf("the sneak's cards: got %+v, want the third sneaked and none off", m.Cards)
	}
	if m := playModel(tests[1].play, nm, true); !m.Cards[1].Off || m.Cards[0].Off {
		t.Errorf("the lie's cards: got %+v, want the second off", m.Cards)
	}
}

// TestReviewNames: seats are named as they sat; two of one name are told
// apart by their seats.
func TestReviewNames(t *testing.T) {
	got := reviewNames([]game.SeatInfo{{Seat: 0, Name: "Ada"}, {Seat: 1, Name: "Bold bot (hard)"}, {Seat: 2, Name: "Bold bot (hard)"}}, 4)
	want := []string{"Ada", "Bold bot (hard) · seat 2", "Bold bot (hard) · seat 3", "Seat 4"}
	if strings.Join(got, ",") != strings.Join(want, ",") {
		t.Errorf("got %q, want %q", got, want)
	}
}

// TestReviewModelRatings: a rated seat's change is on the result, an
// account's unrated seat says so, and a guest's has nothing.
func TestReviewModelRatings(t *testing.T) {
	rec := game.Record{Game: game.Summary{ID: "g", Status: game.StatusFinished, Options: engine.Standard(3),
		Seats:  []game.SeatInfo{{Seat: 0, Name: "Ada"}, {Seat: 1, Name: "Ben"}, {Seat: 2, Name: "Cy"}},
		Result: []engine.Place{{Seat: 1, Place: 1}, {Seat: 0, Place: 2, Left: 3}, {Seat: 2, Place: 3, Left: 5}}},
		Ratings: []game.RatingChange{{Seat: 0, Rated: true, Before: 1500, After: 1497.6}, {Seat: 1, Before: 1600, After: 1600}}}
	rv := &review.Review{Dealt: make([][]engine.Card, 3), Seats: []review.SeatStats{{Seat: 0}, {Seat: 1}, {Seat: 2}}}
	for _, p := range rec.Game.Result {
		rv.Final.Result = append(rv.Final.Result, engine.ResultRow{Place: p})
	}
	p := reviewModel("g", rec, rv, 0)
	got := []string{p.Headline}
	for _, r := range p.Result {
		got = append(got, strconv.Itoa(r.Place)+" "+r.Name+" "+r.Rating)
	}
	want := []string{"Ben won in 0 plays", "1 Ben not rated", "2 Ada 1500 → 1498 (-2.4)", "3 Cy "}
	if !p.Rated || strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("got %q (rated %v), want %q", got, p.Rated, want)
	}
}

// TestReviewDealIsSortedAsHeld: the deal shows each hand as the engine
// keeps it, by rank and then suit, with no sorting of the page's own.
func TestReviewDealIsSortedAsHeld(t *testing.T) {
	s, err := engine.New(engine.Standard(4), 11, t0)
	if err != nil {
		t.Fatal(err)
	}
	rv := &review.Review{Dealt: make([][]engine.Card, 4)}
	for seat := range rv.Dealt {
		rv.Dealt[seat] = s.View(seat).Hand
	}
	step := stepModel("g", game.Record{Game: game.Summary{ID: "g", Options: engine.Standard(4)}}, rv, 0)
	for seat, h := range step.Deal {
		for i, c := range h.Cards {
			card, err := engine.ParseCard(c.Code)
			if err != nil {
				t.Fatal(err)
			}
			if card != rv.Dealt[seat][i] {
				t.Fatalf("seat %d's card %d: got %v, want %v (the hand as dealt)", seat, i, card, rv.Dealt[seat][i])
			}
			if i > 0 {
				prev, _ := engine.ParseCard(h.Cards[i-1].Code)
				if prev.Rank() > card.Rank() || prev.Rank() == card.Rank() && prev.Suit() > card.Suit() {
					t.Errorf("seat %d: got %v before %v, want the hand by rank, then suit", seat, prev, card)
				}
			}
		}
	}
}
