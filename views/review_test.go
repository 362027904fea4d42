package views

import "testing"

// play is a step at a play, with the given play.
func play(p ReviewPlay) ReviewStep {
	return ReviewStep{Game: "g", No: 5, Last: 40, Title: "Play 5 of 40", Play: &p}
}

func reviewCards(codes ...string) []ReviewCard {
	out := make([]ReviewCard, len(codes))
	for i, c := range cards(codes...) {
		out[i] = ReviewCard{Card: c}
	}
	return out
}

func TestReviewStep(t *testing.T) {
	truth := ReviewPlay{Who: "Ada", RankCode: "K", Claim: "Ada claimed 2 kings", Cards: reviewCards("KS", "KH"),
		Verdict: "The truth", Tone: "truth", Sizes: "The table saw Ada's hand go 9-10 → 7 and the pile 4-6 → 7-10",
		Answers:  []ReviewAnswer{{Name: "Ben", Did: "let it go", After: "after 1.2 s"}},
		Outcome:  "Nobody called: the play stood.",
		Readings: []ReviewReading{{Name: "Ben", Lie: "12%", Sneak: "3%"}, {Name: "Cy", Lie: "20%", Sneak: "5%"}},
		Left:     []ReviewCount{{Name: "Ada", Cards: 7}, {Name: "Ben", Cards: 9}, {Name: "Cy", Cards: 10}}}
	lie := truth
	lie.Cards = reviewCards("KS", "4D")
	lie.Cards[1].Off = true
	lie.Verdict, lie.Tone = "A lie: 1 of the 2 cards not kings", "lie"
	lie.Answers = []ReviewAnswer{{Name: "Ben", Did: "called Bullshit!", After: "after 0.8 s", Called: true}}
	lie.Outcome = "Ben was right: Ada took the pile of 6 cards."
	lie.Readings = []ReviewReading{{Name: "Ben", Lie: "71%", Sneak: "3%", Call: true}, {Name: "Cy", Lie: "40%", Sneak: "5%"}}
	lie.GoodBet = "A good bet: Ben's reading of the counts said to call."
	sneak := lie
	sneak.Cards = reviewCards("KS", "KH", "2C")
	sneak.Cards[2].Sneaked = true
	sneak.Verdict, sneak.Tone = "Ada sneaked 1 card under the claim", "sneak"
	sneak.Shows, sneak.ShowsSeen = "The counts gave the sneak away: a careful watcher could see more went down than was claimed.", true
	sneak.GoodBet = ""
	sneak.HandOver, sneak.HandOverCards = "Ben handed Ada 1 card:", cards("3D")
	missed := truth
	missed.Cards = reviewCards("KS", "QH")
	missed.Cards[1].Off = true
	missed.Verdict, missed.Tone = "A lie: 1 of the 2 cards not kings", "lie"
	missed.Readings = []ReviewReading{{Name: "Ben", Lie: "100%", Sneak: "0%", Call: true, Impossible: true}, {Name: "Cy", Lie: "40%", Sneak: "5%"}}
	missed.Missed = "Should have been called: the counts told Ben to call, and nobody did."
	deal := ReviewStep{Game: "g", No: 0, Last: 40, Title: "The deal", Deal: []ReviewHand{{Name: "Ada", Cards: cards("AS", "2S", "3S")}, {Name: "Ben", Cards: cards("4S", "5S")}}}
	runCases(t, []componentCase{
		{"the deal", ReviewStepView(deal), []check{
			attrIs("#review-step", "data-step", "0"), attrIs("#review-step", "data-last", "40"), says("#rv-step-title", "The deal"),
			count(".rv-hand", 2), count(".rv-hand .rv-card", 5), says(".rv-hand h4", "Ada"), absent(".rv-play"),
			absent("a#rv-first"), absent("a#rv-prev"), attrIs("a#rv-next", "href", "/games/g/review?step=1"),
			attrIs("a#rv-next", "hx-get", "/games/g/review/step?step=1"), attrIs("a#rv-last", "href", "/games/g/review?step=40"),
			attrIs("#rv-slider", "value", "0"), attrIs("#rv-slider", "max", "40"), attrIs("#rv-slider", "hx-get", "/games/g/review/step"),
			attrIs(".rv-slider", "action", "/games/g/review"),
		}},
		{"a truthful play", ReviewStepView(play(truth)), []check{
			says("#rv-step-title", "Play 5 of 40"), says(".claim-line", "Ada claimed 2 kings"), says(".sizes", "9-10 → 7"),
			count(".rv-play .rv-card", 2), absent(".off"), absent(".sneaked"), says(".rv-truth", "The truth"), absent(".rv-shows"),
			says(".rv-answers", "Ben let it go after 1.2 s"), absent(".rv-answers .called"), says(".rv-outcome", "the play stood"),
			count(".rv-readings tbody tr", 2), absent(".rv-call"), absent(".rv-mark"), absent(".rv-hand"),
			count(".rv-left li", 3), says(".rv-left", "Ben 9"),
			attrIs("a#rv-prev", "href", "/games/g/review?step=4"), attrIs("a#rv-first", "href", "/games/g/review?step=0"),
			attrIs("a#rv-next", "href", "/games/g/review?step=6"), attrIs("#rv-slider", "value", "5"),
		}},
		{"a lie called, a good bet", ReviewStepView(play(lie)), []check{
			count(".rv-card.off", 1), says(".rv-card.off", "not of the rank"), says(".rv-lie", "A lie"),
			says(".rv-answers .called", "Ben"), says(".rv-outcome", "Ben was right"), count(".rv-call", 1), says(".rv-call", "Call"),
			says(".rv-good", "A good bet"), absent(".rv-missed"), absent(".rv-handover"),
		}},
		{"a sneak caught, with a hand-over", ReviewStepView(play(sneak)), []check{
			count(".rv-card.sneaked", 1), says(".rv-card.sneaked", "sneaked"), says(".rv-sneak", "sneaked 1 card"),
			present(".rv-shows.seen"), says(".rv-shows", "gave the sneak away"),
			says(".rv-handover", "Ben handed Ada 1 card"), count(".rv-handover .rv-card", 1), absent(".rv-good"),
		}},
		{"a lie that should have been called", ReviewStepView(play(missed)), []check{
			says(".rv-missed", "Should have been called"), says(".rv-call", "can't be true"), absent(".rv-good"),
		}},
		{"the last play", ReviewStepView(ReviewStep{Game: "g", No: 40, Last: 40, Title: "Play 40 of 40", Play: &truth}), []check{
			absent("a#rv-next"), absent("a#rv-last"), present("#rv-next[aria-disabled]"), attrIs("a#rv-prev", "href", "/games/g/review?step=39"),
		}},
	})
}

func TestReviewPage(t *testing.T) {
	p := ReviewPage{Game: "g", Headline: "Ada won in 40 plays", Settings: "Sneak up to 2", Record: "/api/v1/games/g/record",
		Script: "/static/x/review.js", Style: "/static/x/review.css", Step: play(ReviewPlay{Who: "Ada", Claim: "Ada claimed 1 king"}),
		Result: []ReviewResult{{Place: 1, Name: "Ada", Left: 0, Rating: "1500 → 1512 (+12)"}, {Place: 2, Name: "Ben", Left: 3, Rating: "not rated"}},
		Stats:  []ReviewStats{{Name: "Ada", Plays: 20, Lies: 5, Sneaks: 2, Caught: 1, Calls: 4, Right: 3, GoodBets: 2, Missed: 1}},
		Rated:  true}
	unrated := p
	unrated.Rated = false
	runCases(t, []componentCase{
		{"rated", ReviewView(p), []check{
			says("h1", "Ada won in 40 plays"), attrIs("a[download]", "href", "/api/v1/games/g/record"),
			attrIs("main script", "src", "/static/x/review.js"), flag("main script", "defer", true), attrIs("main link", "href", "/static/x/review.css"),
			present("#review-step"), count(".rv-result tbody tr", 2), says(".rv-result", "+12"), says(".rv-result thead", "Rating"),
			says(".rv-stats tbody", "5 of 20"), says(".rv-stats tbody", "1 of 2"), says(".rv-stats tbody", "3 of 4"),
		}},
		{"unrated", ReviewView(unrated), []check{
			count(".rv-result thead th", 3), count(".rv-result tbody td", 4),
		}},
	})
}

func TestGamesList(t *testing.T) {
	rows := []GameRow{{ID: "a1", URL: "/games/a1/review", Host: "Ada", Players: "with 3 bots", Seats: "4 players", Detail: "Ada won in 40 plays"}}
	runCases(t, []componentCase{
		{"a page of games", GamesView(GamesPage{Player: "ada", Rows: rows, Page: 2, Prev: "/games?player=ada", Next: "/games?page=3&player=ada"}), []check{
			attrIs("#games-player", "value", "ada"), attrIs("form[role=search]", "action", "/games"), attrIs("form[role=search]", "hx-select", "#games-list"),
			count("#games-list li", 1), attrIs("#game-a1 a", "href", "/games/a1/review"), says("#game-a1", "Ada won in 40 plays"),
			attrIs("a[rel=prev]", "href", "/games?player=ada"), attrIs("a[rel=next]", "href", "/games?page=3&player=ada"), says(".rv-pages", "Page 2"),
		}},
		{"nobody of that name", GamesList(GamesPage{Player: "Zed", Page: 1}), []check{
			says("#games-list .empty", "No finished game with a player called Zed"), absent(".rv-pages"),
		}},
	})
}
