package sim

import (
	"fmt"
	"slices"
	"strings"

	"bullshit/engine"
	"bullshit/engine/bot"
)

// Markdown writes the report's tables, each with a line on how to read it.
// charts is the path prefix of the SVG charts (see Charts) as the Markdown
// file links them, or "" to leave them out.
func (r *Report) Markdown(charts string) string {
	var b strings.Builder
	cfg := r.Config
	if cfg.PeopleOnly {
		fmt.Fprintf(&b, "Measured with `bullshit sim -people-only -games %d -people-games %d -seed %d`: %d games a cell of the length "+
			"table, %d of the people panel. Every rate has its 95%% confidence interval in brackets.\n\n", cfg.Games, cfg.PeopleGames,
			cfg.Seed, cfg.Games, cfg.PeopleGames)
	} else {
		fmt.Fprintf(&b, "Measured with `bullshit sim -games %d -knob-games %d -option-games %d -people-games %d -seed %d`: %d games a cell "+
			"(%d in the knob sweep, %d playing on for places, %d in the people panel). Every rate has its 95%% confidence interval "+
			"in brackets.\n\n", cfg.Games, cfg.KnobGames, cfg.OptionGames, cfg.PeopleGames, cfg.Seed, cfg.Games, cfg.KnobGames,
			cfg.OptionGames, cfg.PeopleGames)
	}

	b.WriteString("### Length and balance\n\n")
	b.WriteString("The site's bots (medium and hard, in the three site styles, drawn at random for each seat) at standard settings. " +
		"Minutes are those a live table runs, by the one clock both keep (`engine/drive`): each bot's think time at the " +
		"brisk pace from the moment its decision became its own, each call window closing when everyone has let the play go, " +
		"the reveal's beats and the hand-overs. " +
		fmt.Sprintf("\"Leader loses\" is how often the first player down to %d cards "+
			"does not win; \"called\" is the share of plays someone called; \"capped\" counts games that reached the "+
			"%d-play cap.\n\n", LeaderCards, engine.PlayCap))
	b.WriteString("| seats | plays a game | minutes | leader loses | called | capped |\n|---|---|---|---|---|---|\n")
	for _, l := range r.Length {
		fmt.Fprintf(&b, "| %d | %s | %s | %s | %s | %d of %d |\n", l.Seats, l.Plays.Format(1), l.Minutes.Format(1),
			l.LeaderLoses, l.Called, l.Capped, l.Games)
	}
	if charts != "" {
		fmt.Fprintf(&b, "\n![Plays a game by table size](%slength.svg)\n", charts)
	}
	r.peopleMarkdown(&b, charts)
	if cfg.PeopleOnly {
		return b.String()
	}

	b.WriteString("\n### Is sneaking worth it?\n\n")
	b.WriteString("One sneaker among honest players, all of one level: its wins as a share of its fair share " +
		"(1.00 wins as often as playing straight would, 0 never). Medium bots stand in for casual readers, hard for sharp ones. " +
		"Sneaks and caught are per game.\n\n")
	b.WriteString("| sneaker | seats | vs medium | sneaks / caught | vs hard | sneaks / caught |\n|---|---|---|---|---|---|\n")
	for _, s := range r.Sneak {
		fmt.Fprintf(&b, "| %s | %d | %s | %.1f / %.1f | %s | %.1f / %.1f |\n", s.Style, s.Seats, s.Medium,
			s.Sneaks[0], s.Caught[0], s.Hard, s.Sneaks[1], s.Caught[1])
	}
	if charts != "" {
		fmt.Fprintf(&b, "\n![A sneaker's share of its fair share](%ssneak.svg)\n", charts)
	}

	fmt.Fprintf(&b, "\n### The knobs\n\nA careful sneaker, and one who sneaks all it may every play, at %d seats among honest "+
		"players, for each penalty and sneak limit (a limit of 0 turns sneaking off, so both play straight there). "+
		"Shares of a fair share, against medium / hard readers.\n\n", KnobSeats)
	b.WriteString("| penalty | limit | careful vs medium | careful vs hard | every play vs medium | every play vs hard |\n" +
		"|---|---|---|---|---|---|\n")
	for _, k := range r.Knobs {
		mark := ""
		if k.Penalty == engine.StandardPenalty && k.Limit == engine.StandardSneak {
			mark = " **(chosen)**"
		}
		fmt.Fprintf(&b, "| %s%s | %d | %s | %s | %s | %s |\n", PenaltyName(k.Penalty), mark, k.Limit,
			k.Careful[0], k.Careful[1], k.Always[0], k.Always[1])
	}
	if charts != "" {
		fmt.Fprintf(&b, "\n![A careful sneaker's share for each penalty and limit](%sknobs.svg)\n", charts)
	}
	r.optionsMarkdown(&b)
	b.WriteString("\n### The bots measured\n\nThe styles' parameters and the levels' skills, as the code has them when the tables were measured.\n\n")
	b.WriteString(StylesMarkdown())
	return b.String()
}

// StylesMarkdown writes the bots' styles and levels as the code has them.
func StylesMarkdown() string {
	var b strings.Builder
	b.WriteString("| style | offered | sneak | most | pad | weight | floor | reckless |\n|---|---|---|---|---|---|---|---|\n")
	for _, s := range bot.Styles() {
		p := s.Params()
		where := "simulation"
		if slices.Contains(bot.SiteStyles(), s) {
			where = "site"
		}
		fmt.Fprintf(&b, "| %s | %s | %.2f | %d | %.2f | %.2f | %.2f | %.2f |\n", s, where, p.Sneak, p.Most, p.Pad, p.Weight,
			p.Floor, p.Reckless)
	}
	b.WriteString("\n| level | notices a sneak the counts show | bluffs and sneaks with | checks a sneak won't show | pads |\n" +
		"|---|---|---|---|---|\n")
	for _, l := range bot.Levels() {
		sk := l.Skill()
		with, checks := "the cards it needs last", "yes"
		pads := fmt.Sprintf("where it pays, at %g times its style's rate", sk.PadBoost)
		if sk.AnyCard {
			with, checks, pads = "any card", "no", "at its style's rate"
		}
		fmt.Fprintf(&b, "| %s | %.0f%% | %s | %s | %s |\n", l, 100*float64(sk.Notice), with, checks, pads)
	}
	return b.String()
}

// AnchorsMarkdown writes the level pairings' table.
func AnchorsMarkdown(rows []AnchorRow, cfg Config) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Measured with `bullshit anchors -games %d -seed %d`: %d games a pairing at each table size, half with one "+
		"bot of the stronger level among bots of the weaker and half with one of the weaker among the stronger, the seats "+
		"turning and each bot in a site style drawn at random. The score is the stronger level's share of its meetings with "+
		"the weaker (a meeting is won by finishing ahead, ties halved), the Elo gap the one that score implies; the win "+
		"columns are one bot's chance of winning a game (a fair share is one over the seats). 95%% confidence intervals in "+
		"brackets.\n\n", cfg.Games, cfg.Seed, cfg.Games)
	b.WriteString("| pairing | seats | score | Elo gap | one stronger: it wins | a weaker wins | one weaker: a stronger wins | it wins |\n" +
		"|---|---|---|---|---|---|---|---|\n")
	for _, r := range rows {
		fmt.Fprintf(&b, "| %s vs %s | %d | %s | %+.0f (%+.0f to %+.0f) | %s | %s | %s | %s |\n", r.Strong, r.Weak, r.Seats,
			r.Score.Format(3), r.Elo.Value, r.Elo.Lo, r.Elo.Hi, r.Lineups[0].StrongWins, r.Lineups[0].WeakWins,
			r.Lineups[1].StrongWins, r.Lineups[1].WeakWins)
	}
	return b.String()
}

// optionsMarkdown writes the tables of the table options: calls made
// together, and playing on for places.
func (r *Report) optionsMarkdown(b *strings.Builder) {
	b.WriteString("\n### Calls made together\n\n")
	b.WriteString("In the length table's games (standard settings, so a grace of " +
		fmt.Sprintf("%d ms), the share of called plays that a second bot would have called too, as the table stood at the "+
			"first call, and the share whose second call came within 50, 150 and 300 ms of the first. A bot listens for "+
			"one of four staggered times (%d to %d ms at the brisk pace, 400 ms apart), so two bots' calls are either "+
			"at the same moment or at least 400 ms apart.\n\n", engine.StandardGrace.Milliseconds(),
			engine.ThinkTime(engine.Listen0, engine.Brisk).Milliseconds(), engine.ThinkTime(engine.Listen3, engine.Brisk).Milliseconds()))
	b.WriteString("| seats | called plays | a second caller | within 50 ms | within 150 ms | within 300 ms |\n|---|---|---|---|---|---|\n")
	for _, s := range r.Shouts {
		fmt.Fprintf(b, "| %d | %d | %s | %s | %s | %s |\n", s.Seats, s.Called, s.Together, s.Within[0], s.Within[1], s.Within[2])
	}
	games := r.Config.OptionGames
	if games <= 0 {
		games = r.Config.Games
	}
	b.WriteString("\n### Playing on for places\n\n")
	fmt.Fprintf(b, "The length table again (%d games a cell), with the table playing on after the first player out until two "+
		"are left. \"First out\" is the plays made by the time the first player went out, where the standard game ends; "+
		"\"leader loses\" is how often the first player down to %d cards does not take first place. At three seats two "+
		"are left at the first out, so it is the standard game.\n\n", games, LeaderCards)
	b.WriteString("| seats | plays a game | minutes | first out | leader loses | called | capped |\n|---|---|---|---|---|---|---|\n")
	for _, l := range r.PlayOn {
		fmt.Fprintf(b, "| %d | %s | %s | %s | %s | %s | %d of %d |\n", l.Seats, l.Plays.Format(1), l.Minutes.Format(1),
			l.FirstOut.Format(1), l.LeaderLoses, l.Called, l.Capped, l.Games)
	}
}
