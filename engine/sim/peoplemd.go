package sim

import (
	"fmt"
	"slices"
	"strings"

	"bullshit/engine"
	"bullshit/engine/bot"
)

// The people panel's goals: no strategy wins more than these shares of a
// fair share against each level.
const MediumCap, HardCap = 1.3, 1.15

// person looks up the panel's row for a strategy, level and size.
func (r *Report) person(st Strategy, level bot.Level, seats int) (PeopleRow, bool) {
	i := slices.IndexFunc(r.People, func(p PeopleRow) bool { return p.Strategy == st && p.Level == level && p.Seats == seats })
	if i < 0 {
		return PeopleRow{}, false
	}
	return r.People[i], true
}

// peopleMarkdown writes the "Against people" section.
func (r *Report) peopleMarkdown(b *strings.Builder, charts string) {
	if len(r.People) == 0 {
		return
	}
	b.WriteString("\n### Against people\n\n")
	fmt.Fprintf(b, "A scripted person in one seat (moving round the table from game to game), the other seats bots of one level, "+
		"each in a site style drawn at random, at standard settings. Each person decides from their seat's view alone, with a "+
		"person's timing: %.0f s to play or hand over, and listening until %d ms after the slowest bot, so they call only what "+
		"no bot shouted first. Every one of them tells the truth when they hold the rank, bluffs one card when they don't, and "+
		"calls a play that empties a hand. The figures are the person's wins as a share of a fair share; the goals are at most "+
		"%.2f against medium bots and %.2f against hard ones.\n\n", personTurn.Seconds(), personAfter.Milliseconds(), MediumCap, HardCap)
	b.WriteString("| strategy | what it does |\n|---|---|\n")
	for _, st := range Strategies {
		fmt.Fprintf(b, "| %s | %s |\n", st.Name, st.About)
	}
	for _, level := range readers {
		fmt.Fprintf(b, "\nAgainst %s bots:\n\n| strategy |", level)
		for _, seats := range PeopleSeats {
			fmt.Fprintf(b, " %d seats |", seats)
		}
		b.WriteString("\n|---|" + strings.Repeat("---|", len(PeopleSeats)) + "\n")
		for _, st := range Strategies {
			fmt.Fprintf(b, "| %s |", st.Name)
			for _, seats := range PeopleSeats {
				row, _ := r.person(st.Name, level, seats)
				fmt.Fprintf(b, " %s |", row.Share)
			}
			b.WriteString("\n")
		}
	}
	if charts != "" {
		fmt.Fprintf(b, "\n![A person's share of a fair share, by strategy](%speople.svg)\n", charts)
	}
	b.WriteString("\nAt each table size: how often the bots call (the length table's games, bots only), a game's minutes (a live " +
		"table's, by the one clock) with bots only and with a newcomer among medium / hard bots, the share of a truthful person's " +
		"(\"silent\") true plays that the bots turn up, against medium / hard, and one bot of a stronger level among bots of " +
		"the weaker (each in a site style drawn at random), as a share of a fair share.\n\n")
	b.WriteString("| seats | bots call | minutes, bots only | minutes with a newcomer | true plays turned up | " +
		"one hard among medium | one medium among easy |\n|---|---|---|---|---|---|---|\n")
	for seats := engine.MinSeats; seats <= engine.MaxSeats; seats++ {
		called, botMinutes := "–", "–"
		if i := slices.IndexFunc(r.Length, func(l LengthRow) bool { return l.Seats == seats }); i >= 0 {
			called, botMinutes = r.Length[i].Called.String(), r.Length[i].Minutes.Format(1)
		}
		minutes, turned := "–", "–"
		if m, ok := r.person("newcomer", bot.Medium, seats); ok {
			h, _ := r.person("newcomer", bot.Hard, seats)
			minutes = m.Minutes.Format(1) + " / " + h.Minutes.Format(1)
		}
		if m, ok := r.person("silent", bot.Medium, seats); ok {
			h, _ := r.person("silent", bot.Hard, seats)
			turned = m.Turned.String() + " / " + h.Turned.String()
		}
		strong := "– | –"
		if i := slices.IndexFunc(r.Strong, func(s StrongRow) bool { return s.Seats == seats }); i >= 0 {
			strong = r.Strong[i].HardAmongMedium.String() + " | " + r.Strong[i].MediumAmongEasy.String()
		}
		fmt.Fprintf(b, "| %d | %s | %s | %s | %s | %s |\n", seats, called, botMinutes, minutes, turned, strong)
	}
}

// peopleChart is the panel's chart: each strategy's share at four and eight
// seats (one deck and two), against medium and hard bots.
func (r *Report) peopleChart() chart {
	var groups []string
	var ss []series
	for _, seats := range []int{4, 8} {
		for _, level := range readers {
			s := series{name: fmt.Sprintf("vs %s, %d seats", level, seats)}
			for _, st := range Strategies {
				row, _ := r.person(st.Name, level, seats)
				s.values = append(s.values, row.Share)
			}
			ss = append(ss, s)
		}
	}
	for _, st := range Strategies {
		groups = append(groups, string(st.Name))
	}
	return chart{title: "A scripted person among bots: share of a fair share", y: "share of fair share", x: "the person's strategy",
		groups: groups, series: ss, ref: 1, slant: true}
}
