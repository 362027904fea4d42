package web

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"bullshit/engine"
	"bullshit/game"
	"bullshit/views"
	"bullshit/views/words"
)

// dockModel is the seat's dock: the status line, the two move slots (the
// main one on the right) and the sneak switch, and the first-game tip the
// move calls for ("claim", "give" or none).
func dockModel(g game.Summary, v *engine.View, nm names) (views.Dock, string) {
	me := v.Seat
	d := views.Dock{Game: g.ID, No: v.Plays}
	sortBtn := &views.Move{ID: "sort", Label: "Sort", Key: "O"}
	claim := &views.Move{ID: "claim", Label: "Claim", Key: "C", Action: "play", Disabled: true}
	can := func(k engine.ActionKind) bool { return slices.Contains(v.Can, k) }
	teach := ""
	switch {
	case me == engine.Spectator:
		d.Status = "You're watching this game."
		if v.Phase == engine.PhaseOver {
			d.Status = "The game is over."
		}
		return d, ""
	case v.Phase == engine.PhaseOver:
		d.Status = "The game is over."
		return d, ""
	case can(engine.ActPlay):
		d.Status = "Your turn: claim " + v.Rank.Name(true) + "."
		d.Alert = views.Alert{Key: "play-" + strconv.Itoa(v.Plays), Title: "Your turn", Body: d.Status}
		claim.Disabled = false
		claim.Label = claimLabel(v.Rank, len(v.Picks()), 0)
		d.Left, d.Right = sortBtn, claim
		if v.Options.Sneak > 0 {
			d.Sneak = &views.Sneak{Max: v.Options.Sneak}
		}
		teach = "claim"
	case can(engine.ActCall):
		d.Status = fmt.Sprintf("%s %s %s. Call it or let it go.", nm.name(v.Last.Seat), claimVerb(false), count(v.Last.Rank, v.Last.Claim))
		d.Left = &views.Move{ID: "let-go", Label: "Let it go", Key: "G", Action: "pass"}
		d.Right = &views.Move{ID: "call", Label: "Bullshit!", Key: "B", Action: "call", Big: true}
	case can(engine.ActGive):
		d.Status = fmt.Sprintf("Caught! Pick %s to hand %s.", cardsWord(v.Give.Count), nm.object(v.Give.Seat))
		d.Alert = views.Alert{Key: "give-" + strconv.Itoa(v.Plays), Title: "Your hand-over", Body: d.Status}
		d.Left = sortBtn
		d.Right = &views.Move{ID: "give", Label: "Hand over", Key: "C", Action: "give"}
		teach = "give"
	case v.Phase == engine.PhaseCall && v.Last != nil && v.Last.Seat == me:
		d.Status = "Will anyone call it?"
		d.Left, d.Right = sortBtn, claim
	case v.Phase == engine.PhaseCall:
		d.Status = "You let it go."
		d.Left = &views.Move{ID: "let-go", Label: "Let it go", Key: "G", Disabled: true}
		d.Right = &views.Move{ID: "call", Label: "Bullshit!", Key: "B", Big: true, Disabled: true}
	case v.Phase == engine.PhaseShout:
		// The grace for calls made together: the reveal follows at once.
		d.Status = "Bullshit! is called: the cards turn up."
		d.Left, d.Right = sortBtn, claim
	case v.Phase == engine.PhaseReveal && v.Reveal != nil:
		d.Status = shoutLine(v.Reveal.Caller, v.Reveal.Seat, nm)
		d.Left, d.Right = sortBtn, claim
	case v.Phase == engine.PhaseGive && v.Give != nil:
		if v.Give.Seat == me {
			d.Status = fmt.Sprintf("Caught sneaking: %s picks %s to hand you.", nm.name(v.Give.Caller), cardsWord(v.Give.Count))
		} else {
			d.Status = fmt.Sprintf("%s %s %s.", nm.does(v.Give.Caller, "hand"), nm.object(v.Give.Seat), cardsWord(v.Give.Count))
		}
		d.Left, d.Right = sortBtn, claim
	default:
		d.Status = fmt.Sprintf("%s to play %s.", nm.name(v.Turn), v.Rank.Name(true))
		d.Left, d.Right = sortBtn, claim
	}
	return d, teach
}

func cardsWord(n int) string {
	if n == 1 {
		return "a card"
	}
	return strconv.Itoa(n) + " cards"
}

// claimLabel is the claim button's words: "Claim 2 kings", "+1" with a sneak.
func claimLabel(r engine.Rank, picked, sneak int) string {
	claim := picked - sneak
	if claim <= 0 {
		return "Pick cards to claim"
	}
	s := "Claim " + count(r, claim)
	if sneak > 0 {
		s += " +" + strconv.Itoa(sneak)
	}
	return s
}

// shoutLine says who called it on whom, "you" for the viewer.
func shoutLine(caller, seat int, nm names) string {
	return nm.name(caller) + " called it on " + nm.object(seat)
}

// revealModel times the four beats from the view's own times, relative to
// now: a late render gets negative delays and lands in the right beat.
func revealModel(v *engine.View, nm names, now time.Time) *views.Reveal {
	r := v.Reveal
	if r == nil || len(r.Beats) < 4 {
		return nil
	}
	beat := func(c engine.Cue) engine.Beat {
		for _, b := range r.Beats {
			if b.Cue == c {
				return b
			}
		}
		return engine.Beat{At: now, Ends: now}
	}
	since := func(t time.Time) float64 { return t.Sub(now).Seconds() }
	flip := beat(engine.CueFlip)
	m := &views.Reveal{
		Key:    strconv.Itoa(v.Last.No),
		Shout:  shoutLine(r.Caller, r.Seat, nm),
		Shout0: since(beat(engine.CueShout).At), Flip0: since(flip.At), Verdict0: since(beat(engine.CueVerdict).At),
		Take0: since(beat(engine.CueTake).At), End: since(v.Closes),
		// The cards turn one by one through the flip beat.
		FlipEach: flip.Ends.Sub(flip.At).Seconds() / float64(max(1, len(r.Cards))),
	}
	for _, c := range r.Cards {
		cm := cardModel(c)
		cm.Lit = c.Rank() == v.Last.Rank
		m.Cards = append(m.Cards, cm)
	}
	switch {
	case r.Sneaked > 0:
		m.Verdict, m.Tone = "Caught sneaking!", "lie"
	case !r.Truth:
		m.Verdict, m.Tone = "Lie!", "lie"
	default:
		m.Verdict, m.Tone = "Truth!", "truth"
	}
	took := r.Took.String()
	if r.Loser == v.Seat {
		// The cards it brings are said once the sweep lands (the hand's Say).
		m.Take = "The pile goes to you."
	} else {
		m.Take = nm.name(r.Loser) + " takes the pile: " + took + " " + rangePlural(r.Took, "card", "cards") + "."
	}
	if r.Given > 0 {
		m.Take += " " + nm.does(r.Caller, "hand") + " " + nm.object(r.Seat) + " " + cardsWord(r.Given) + " next."
	}
	return m
}

// rangePlural is one for a count seen as exactly 1, else many.
func rangePlural(r engine.Range, one, many string) string {
	n := 0
	if r.Exact() {
		n = r.Lo
	}
	return words.Plural(n, one, many)
}

// resultModel is the result sheet, each line with its secrets revealed.
func resultModel(g game.Summary, v *engine.View, nm names) views.Result {
	r := views.Result{Game: g.ID, CanPlayAgain: v.Seat != engine.Spectator}
	for _, row := range v.Result {
		r.Rows = append(r.Rows, views.ResultRow{Place: row.Place.Place, Left: row.Left, Sneaked: row.Sneaked, Caught: row.Caught,
			Calls: row.Calls, Right: row.Right, Name: nm.name(row.Seat), You: row.Seat == v.Seat})
	}
	switch {
	case v.Ended:
		r.Headline = "The host ended the game."
	case v.Capped:
		r.Headline = fmt.Sprintf("%d plays: the fewest cards win.", engine.PlayCap)
	case len(v.Result) > 0 && v.Result[0].Seat == v.Seat:
		r.Headline = "You win!"
	case len(v.Result) > 0:
		r.Headline = nm.name(v.Result[0].Seat) + " wins!"
	default:
		r.Headline = "Game over."
	}
	r.ShareText = shareText(v, nm)
	return r
}

// shareText is a line or two to paste to friends.
func shareText(v *engine.View, nm names) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Bullshit, %d players, %d plays.", len(v.Seats), v.Plays)
	for _, row := range v.Result {
		if row.Seat == v.Seat {
			fmt.Fprintf(&b, " I came %s with %d %s left", words.Ordinal(row.Place.Place), row.Left, words.Plural(row.Left, "card", "cards"))
			if row.Sneaked > 0 {
				fmt.Fprintf(&b, ", sneaked %d past everyone", row.Sneaked)
			}
			b.WriteString(".")
		}
	}
	if len(v.Result) > 0 && v.Result[0].Seat != v.Seat {
		fmt.Fprintf(&b, " %s won.", nm.name(v.Result[0].Seat))
	}
	return b.String()
}

func levelChoices() []views.Choice {
	return []views.Choice{{Value: "easy", Label: "Easy"}, {Value: "medium", Label: "Medium", Selected: true}, {Value: "hard", Label: "Hard"}}
}
