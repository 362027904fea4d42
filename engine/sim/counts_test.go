package sim

import (
	"fmt"
	"math"
	"testing"

	"bullshit/engine"
	"bullshit/engine/bot"
)

func r(lo, hi int) engine.Range { return engine.Range{Lo: lo, Hi: hi} }

// The share of sizes that would hide a sneak, worked out by hand from the
// buckets (a hand of 11-13, a pile of 4-6, 7-10 and so on).
func TestCountRuleHides(t *testing.T) {
	tests := []struct {
		name  string
		rule  CountRule
		sizes engine.Sizes
		claim int
		want  float64
	}{
		// Hand 11, 12, 13 less two: 9, 10, 11; only 13 stays 11-13. Pile
		// 4, 5, 6 plus two: 6, 7, 8; only 4 stays 4-6.
		{"both buckets", CountRule{Share: 0.01}, engine.Sizes{Hand: [2]engine.Range{r(11, 13), r(11, 13)}, Pile: [2]engine.Range{r(4, 6), r(4, 6)}}, 1, 1.0 / 9},
		{"hand alone", CountRule{Share: 0.01, Hand: true}, engine.Sizes{Hand: [2]engine.Range{r(11, 13), r(11, 13)}, Pile: [2]engine.Range{r(4, 6), r(4, 6)}}, 1, 1.0 / 3},
		{"pile alone", CountRule{Share: 0.01, Pile: true}, engine.Sizes{Hand: [2]engine.Range{r(5, 5), r(3, 3)}, Pile: [2]engine.Range{r(4, 6), r(4, 6)}}, 1, 1.0 / 3},
		// An exact hand shows every card: nothing hides.
		{"exact hand", CountRule{Share: 0.01}, engine.Sizes{Hand: [2]engine.Range{r(5, 5), r(4, 4)}, Pile: [2]engine.Range{r(7, 10), r(7, 10)}}, 1, 0},
		// Hand 14-17 less three lands in 11-13 or 14-17: 14, 15, 16 do
		// (to 11-13) and 17 stays; after is 14-17, so only 17 hides two.
		{"two cards", CountRule{Share: 0.01, Cards: 2, Hand: true}, engine.Sizes{Hand: [2]engine.Range{r(14, 17), r(14, 17)}}, 1, 1.0 / 4},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.rule.hides(tt.sizes, tt.claim); math.Abs(got-tt.want) > 1e-9 {
				t.Errorf("got %v, want %v", got, tt.want)
			}
		})
	}
}

// hideable reports, from the engine's own check, whether the counts could
// have hidden sneak cards under the last play: a change of claim+sneak that
// looks like the one shown, in the hand and in the pile.
func hideable(v *engine.View, sneak int) bool {
	s, c := v.Last.Sizes, v.Last.Claim+sneak
	return engine.LooksClean(s.Hand[0], s.Hand[1], c, engine.HandKind) && engine.LooksClean(s.Pile[0], s.Pile[1], c, engine.PileKind)
}

// The panel's count-reading and record-reading callers call exactly what
// their rule says, from the view alone, and their rule fires in a game.
func TestCountReadersCall(t *testing.T) {
	base := func(v *engine.View) bool { return v.Last.Out || v.Doubt != "" }
	small := func(v *engine.View) bool { return v.Pile.Hi != engine.Open && v.Pile.Hi <= 6 }
	tests := []struct {
		st   Strategy
		rule func(v *engine.View) bool
	}{
		{"counts hide", func(v *engine.View) bool { return hideable(v, 1) }},
		{"counts hide 2", func(v *engine.View) bool { return hideable(v, 2) }},
		{"counts hide, small piles", func(v *engine.View) bool { return hideable(v, 1) && small(v) }},
		{"counts hide, big piles", func(v *engine.View) bool { return hideable(v, 1) && v.Pile.Lo >= 7 }},
		{"counts hide, big claims", func(v *engine.View) bool { return hideable(v, 1) && v.Last.Claim >= 2 }},
		{"record reader", func(v *engine.View) bool { return bot.Read(*v).Sneak >= 1.0/3 }},
		{"counts and record", func(v *engine.View) bool { return hideable(v, 1) && bot.Read(*v).Sneak >= 0.2 }},
	}
	for _, tt := range tests {
		for _, seats := range []int{3, 4, 8} {
			t.Run(fmt.Sprintf("%s at %d seats", tt.st, seats), func(t *testing.T) {
				fired := 0
				for seed := uint64(1); seed <= 8; seed++ {
					listening(t, tt.st, seats, seed*11+uint64(seats), func(v *engine.View, call bool) {
						rule := !base(v) && tt.rule(v)
						if rule {
							fired++
						}
						if want := base(v) || rule; call != want {
							t.Fatalf("play %d (claim %d, sizes %v, doubt %q): got call %v, want %v",
								v.Plays, v.Last.Claim, v.Last.Sizes, v.Doubt, call, want)
						}
					})
				}
				if fired == 0 {
					t.Fatalf("got the rule firing on no play in eight games, want some")
				}
			})
		}
	}
}

// The deliberate liars lie only where their policy says: pads and two-card
// bluffs onto the piles they pick, sneaks only where the counts hide them
// and onto the piles they pick, and some of each in a game.
func TestDeliberateLiarsLieWhereTheySay(t *testing.T) {
	tests := []struct {
		st          Strategy
		pile        func(p engine.Range) bool // where a pad or a sneak may go
		pads, sneak bool                      // which lies it tells on purpose
		someSneaks  bool                      // sneaks on only some hidden plays
	}{
		{"pads small piles", func(p engine.Range) bool { return p.Hi != engine.Open && p.Hi <= 3 }, true, false, false},
		{"pads small always", func(p engine.Range) bool { return p.Hi != engine.Open && p.Hi <= 3 }, true, false, false},
		{"pads big piles", func(p engine.Range) bool { return p.Lo >= 7 }, true, false, false},
		{"sneaks small piles", func(p engine.Range) bool { return p.Hi != engine.Open && p.Hi <= 3 }, false, true, false},
		{"sneaks a quarter", func(engine.Range) bool { return true }, false, true, true},
		{"sneaks half", func(engine.Range) bool { return true }, false, true, true},
	}
	for _, tt := range tests {
		t.Run(string(tt.st), func(t *testing.T) {
			padded, sneaked, hidden := 0, 0, 0
			for seed := uint64(1); seed <= 4; seed++ {
				deciding(t, tt.st, 4+int(seed), seed*5, func(v *engine.View, a engine.Action) {
					if a.Kind != engine.ActPlay {
						return
					}
					held := 0
					for _, c := range a.Cards[:a.Claim] {
						if c.Rank() == v.Rank {
							held++
						}
					}
					pad := held > 0 && held < a.Claim || held == 0 && a.Claim == 2
					sneak := len(a.Cards) - a.Claim
					if pad && (!tt.pads || !tt.pile(v.Pile)) {
						t.Fatalf("play %d: got a pad (claim %d, %d true) onto a pile of %v, want none there", v.Plays, a.Claim, held, v.Pile)
					}
					if sneak > 0 && (!tt.sneak || !tt.pile(v.Pile) || engine.SneakMayShow(len(v.Hand), v.Pile, a.Claim, sneak)) {
						t.Fatalf("play %d: got %d sneaked onto a pile of %v (may show %v), want none there",
							v.Plays, sneak, v.Pile, engine.SneakMayShow(len(v.Hand), v.Pile, a.Claim, sneak))
					}
					if v.Options.Sneak > 0 && len(v.Hand)-len(a.Cards) > 1 && !engine.SneakMayShow(len(v.Hand), v.Pile, a.Claim, 1) {
						hidden++
					}
					if pad {
						padded++
					}
					if sneak > 0 {
						sneaked++
					}
				})
			}
			if tt.pads && padded == 0 {
				t.Errorf("got no pads in four games, want some")
			}
			if tt.sneak && sneaked == 0 {
				t.Errorf("got no sneaks in four games, want some")
			}
			if tt.someSneaks && sneaked*10 >= hidden*9 {
				t.Errorf("got %d sneaks on %d plays the counts hide, want only some of them", sneaked, hidden)
			}
		})
	}
}
