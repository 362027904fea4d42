package web

import (
	"fmt"
	"slices"
	"strconv"

	"bullshit/engine/review"
	"bullshit/game"
	"bullshit/views"
	"bullshit/views/words"
)

// reviewModel is the review page at a step: the step, the result and the
// seats' numbers.
func reviewModel(id string, rec game.Record, rv *review.Review, step int) views.ReviewPage {
	nm := reviewNames(rec.Game.Seats, len(rv.Dealt))
	p := views.ReviewPage{Game: id, Settings: settingsLine(rec.Game.Options), Record: "/api/v1/games/" + id + "/record",
		Step: stepModel(id, rec, rv, step)}
	p.Headline = headline(rec.Game, nm, len(rv.Plays))
	ratings := make(map[int]game.RatingChange)
	for _, r := range rec.Ratings {
		ratings[r.Seat] = r
	}
	for _, row := range rv.Final.Result {
		line := views.ReviewResult{Place: row.Place.Place, Left: row.Left, Name: nm[row.Seat]}
		if r, ok := ratings[row.Seat]; ok {
			if r.Rated {
				p.Rated = true
				line.Rating = fmt.Sprintf("%.0f → %.0f (%+.1f)", r.Before, r.After, r.After-r.Before)
			} else {
				line.Rating = "not rated"
			}
		}
		p.Result = append(p.Result, line)
	}
	for _, s := range rv.Seats {
		p.Stats = append(p.Stats, views.ReviewStats{Name: nm[s.Seat], Plays: s.Plays, Lies: s.Lies, Sneaks: s.Sneaks,
			Caught: s.Caught, Calls: s.Calls, Right: s.Right, GoodBets: s.GoodBets, Missed: s.Missed})
	}
	return p
}

// headline sums a finished game up: who won, or that the host ended it.
func headline(g game.Summary, nm []string, plays int) string {
	if g.Status == game.StatusEnded {
		return "Ended by the host after " + words.Count(plays, "play")
	}
	for _, r := range g.Result {
		if r.Place == 1 && r.Seat < len(nm) {
			return nm[r.Seat] + " won in " + words.Count(plays, "play")
		}
	}
	return "Over after " + words.Count(plays, "play")
}

// reviewNames are the seats' names, by seat number; two seats of one name
// (two bots of a kind) are told apart by their seat.
func reviewNames(seats []game.SeatInfo, n int) []string {
	nm := make([]string, n)
	for i := range nm {
		nm[i] = "Seat " + strconv.Itoa(i+1)
	}
	times := make(map[string]int)
	for _, s := range seats {
		times[s.Name]++
	}
	for _, s := range seats {
		if s.Seat < 0 || s.Seat >= n || s.Name == "" {
			continue
		}
		nm[s.Seat] = s.Name
		if times[s.Name] > 1 {
			nm[s.Seat] += " · seat " + strconv.Itoa(s.Seat+1)
		}
	}
	return nm
}

// stepModel is one step: the deal at 0, else the play of that number.
func stepModel(id string, rec game.Record, rv *review.Review, step int) views.ReviewStep {
	nm := reviewNames(rec.Game.Seats, len(rv.Dealt))
	s := views.ReviewStep{Game: id, No: step, Last: len(rv.Plays)}
	if step == 0 {
		s.Title = "The deal"
		for seat, hand := range rv.Dealt {
			h := views.ReviewHand{Name: nm[seat], Cards: make([]views.Card, len(hand))}
			// As the engine keeps every hand: by rank, then suit.
			for i, c := range hand {
				h.Cards[i] = cardModel(c)
			}
			s.Deal = append(s.Deal, h)
		}
		return s
	}
	s.Title = "Play " + strconv.Itoa(step) + " of " + strconv.Itoa(len(rv.Plays))
	p := playModel(rv.Plays[step-1], nm, rec.Game.Options.Sneak > 0)
	s.Play = &p
	return s
}

// playModel reads one play back in words.
func playModel(p review.Play, nm []string, sneaking bool) views.ReviewPlay {
	who := nm[p.Seat]
	m := views.ReviewPlay{Who: who, RankCode: rankCode(p.Rank), Claim: who + " claimed " + count(p.Rank, p.Claim),
		Sizes: "The table saw " + who + "'s hand " + went(p.Sizes.Hand, 0) + ", the pile " + went(p.Sizes.Pile, 0)}
	if p.Out {
		m.Claim += " to go out"
	}
	off := 0
	for i, c := range p.Cards {
		rc := views.ReviewCard{Card: cardModel(c), Sneaked: i >= p.Claim}
		rc.Off = !rc.Sneaked && c.Rank() != p.Rank
		if rc.Off {
			off++
		}
		m.Cards = append(m.Cards, rc)
	}
	switch {
	case p.Sneaked > 0 && off > 0:
		m.Verdict, m.Tone = fmt.Sprintf("A lie, with %s sneaked under it", words.Count(p.Sneaked, "card")), "sneak"
	case p.Sneaked > 0:
		m.Verdict, m.Tone = fmt.Sprintf("%s sneaked %s under the claim", who, words.Count(p.Sneaked, "card")), "sneak"
	case p.Lie:
		m.Verdict, m.Tone = fmt.Sprintf("A lie: %d of the %s not %s", off, words.Count(p.Claim, "card"), p.Rank.Name(true)), "lie"
	default:
		m.Verdict, m.Tone = "The truth", "truth"
	}
	switch {
	case p.Sneaked > 0 && p.Shows:
		m.Shows, m.ShowsSeen = "The counts gave the sneak away: a careful watcher could see more went down than was claimed.", true
	case p.Sneaked > 0:
		m.Shows = "The counts hid the sneak: what the table saw fitted the claim."
	case p.Shows:
		m.Shows, m.ShowsSeen = "The counts looked like more went down than was claimed, though nothing was.", true
	}
	// Every answer in the order it came: the passes, the call, and the calls
	// made within its grace that lost the shout to it.
	type said struct {
		review.Answer
		did    string
		called bool
	}
	var answers []said
	for _, a := range p.Passes {
		answers = append(answers, said{a, "let it go", false})
	}
	if p.Call != nil {
		answers = append(answers, said{*p.Call, "called Bullshit!", true})
	}
	for _, a := range p.Also {
		answers = append(answers, said{a, "called too", false})
	}
	slices.SortStableFunc(answers, func(a, b said) int { return int(a.After - b.After) })
	for _, a := range answers {
		after := "after " + words.Tenths(a.After)
		if a.did == "called too" {
			after += ", within the grace, and lost the shout"
		}
		m.Answers = append(m.Answers, views.ReviewAnswer{Name: nm[a.Seat], Did: a.did, After: after, Called: a.called})
	}
	if len(m.Answers) == 0 {
		m.Answers = []views.ReviewAnswer{{Name: "Nobody", Did: "answered before the window closed"}}
	}
	switch {
	case p.Call == nil:
		m.Outcome = "Nobody called: the play stood."
	case p.Lie:
		m.Outcome = fmt.Sprintf("%s was right: %s took the pile of %s.", nm[p.Call.Seat], nm[p.Loser], words.Count(p.Took, "card"))
	default:
		m.Outcome = fmt.Sprintf("%s was wrong: %s took the pile of %s.", nm[p.Call.Seat], nm[p.Loser], words.Count(p.Took, "card"))
	}
	if h := p.HandOver; h != nil {
		m.HandOver = fmt.Sprintf("%s handed %s %s:", nm[h.From], nm[h.To], words.Count(len(h.Cards), "card"))
		for _, c := range h.Cards {
			m.HandOverCards = append(m.HandOverCards, cardModel(c))
		}
	}
	var callers []string
	for _, r := range p.Readings {
		rd := views.ReviewReading{Name: nm[r.Seat], Lie: percent(r.Lie), Sneak: "–", Call: r.Call, Impossible: r.Impossible}
		if sneaking {
			rd.Sneak = percent(r.Sneak)
		}
		m.Readings = append(m.Readings, rd)
		if r.Call {
			callers = append(callers, nm[r.Seat])
		}
	}
	if p.GoodBet {
		m.GoodBet = "A good bet: " + nm[p.Call.Seat] + "'s reading of the counts said to call."
	}
	if p.Missed {
		m.Missed = "Should have been called: the counts told " + words.And(callers) + " to call, and nobody did."
	}
	for seat, n := range p.Left {
		m.Left = append(m.Left, views.ReviewCount{Name: nm[seat], Cards: n})
	}
	return m
}

// percent is a chance in whole percent.
func percent(x float64) string { return strconv.Itoa(int(x*100+0.5)) + "%" }
