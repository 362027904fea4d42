package views

import (
	"strings"
	"testing"

	"golang.org/x/net/html"
)

func chartOf(n int) Chart {
	c := Chart{Width: 600, Height: 240, Left: 52, Right: 588, Top: 12, Bottom: 212, Title: "Rating history of Ada", Desc: "some games",
		YTicks: []ChartTick{{Pos: 212, Label: "1450"}, {Pos: 112, Label: "1500"}, {Pos: 12, Label: "1550"}},
		XTicks: []ChartTick{{Pos: 60, Label: "1 Mar"}}}
	for i := range n {
		c.Points = append(c.Points, ChartPoint{X: 60 + float64(i)*10, Y: 100 + float64(i), Label: "a game"})
	}
	return c
}

func TestRatingChart(t *testing.T) {
	polylinePoints := func(n int) check {
		return func(t *testing.T, doc *html.Node) {
			t.Helper()
			if got := len(strings.Fields(attr(find(doc, "polyline"), "points"))); got != n {
				t.Errorf("polyline: got %d points, want %d", got, n)
			}
		}
	}
	runCases(t, []componentCase{
		{"a point per game, joined by a line", RatingChart(chartOf(7)), []check{
			count("circle", 7), count("polyline", 1), polylinePoints(7), attrIs("svg", "role", "img"),
			attrIs("svg", "aria-labelledby", "chart-title chart-desc"), says("#chart-title", "Rating history of Ada"),
			says("#chart-desc", "some games"), count(".axes line", 2), count(".ticks text", 4), says(".ticks", "1500"),
			says("circle title", "a game"), attrIs("svg", "viewBox", "0 0 600 240"),
		}},
		{"one game: a point and no line", RatingChart(chartOf(1)), []check{
			count("circle", 1), absent("polyline"),
		}},
		{"no games: the axes alone", RatingChart(chartOf(0)), []check{
			count("circle", 0), absent("polyline"), count(".axes line", 2),
		}},
	})
}

func TestRatingMarks(t *testing.T) {
	runCases(t, []componentCase{
		{"provisional", RatingView(RatingText{Rating: "1502", Deviation: "290", Provisional: true}), []check{
			says(".rating", "1502"), says(".deviation", "± 290"), present(".provisional"), says("abbr.provisional", "?"),
		}},
		{"settled", RatingView(RatingText{Rating: "1620", Deviation: "80"}), []check{
			says(".rating", "1620"), absent(".provisional"),
		}},
		{"the result sheet's changes", RatingChanges([]RatingLine{
			{Name: "You", URL: "/players/Ada", Change: "1500 → 1502 (+2.4)", Provisional: true, You: true},
			{Name: "Bea", URL: "/players/Bea", Change: "1610 → 1605 (-5.0)"},
		}), []check{
			count("#rating-changes li", 2), says("li.you", "1500 → 1502 (+2.4)"), present("li.you .provisional"),
			count(".provisional", 1), attrIs("li.you a", "href", "/players/Ada"),
		}},
		{"no rated seats: nothing", RatingChanges(nil), []check{absent("#rating-changes")}},
	})
}

func TestLeaderboardAndPlayerPages(t *testing.T) {
	board := LeaderboardPage{Show: "people", Page: 2, Prev: "/leaderboard?page=1&show=people", Lines: []LeaderLine{
		{Rank: 51, Name: "Ada", URL: "/players/Ada", Rating: RatingText{Rating: "1502", Deviation: "290", Provisional: true}, Games: 1},
		{Rank: 52, Name: "Robo", URL: "/players/Robo", Bot: true, Rating: RatingText{Rating: "1490", Deviation: "60"}, Games: 40},
	}}
	player := PlayerPage{Name: "Ada", Rating: RatingText{Rating: "1502", Deviation: "290", Provisional: true}, RatedGames: 3,
		Games: 4, Wins: 1, Places: []PlaceCell{{"1st", 1}, {"3rd", 3}}, Calls: 5, RightCalls: 2, Lies: 6, Sneaks: 3, SneaksCaught: 1,
		Chart: chartOf(3), Recent: []RecentGame{{When: "1 Mar 2026", Review: "/games/abc/review", Seats: 4, Place: "1st", Change: "1500 → 1502 (+2.4)"}}}
	runCases(t, []componentCase{
		{"leaderboard", LeaderboardView(board), []check{
			count("#leaders tbody tr", 2), says("#leaders tbody tr", "51"), count(".provisional", 1), says(".tag", "program"),
			attrIs("a.chosen", "href", "/leaderboard?show=people"), attrIs("a[rel=prev]", "href", "/leaderboard?page=1&show=people"),
			absent("a[rel=next]"),
		}},
		{"player", PlayerView(player), []check{
			says("h1", "Ada"), present(".player-rating .provisional"), count("#rating-chart circle", 3),
			says("#player-stats", "1st × 1, 3rd × 3"), says("#player-stats", "2 of 5"), says("#player-stats", "1 of 3"),
			attrIs("#recent-games a", "href", "/games/abc/review"), says("#recent-games", "1500 → 1502 (+2.4)"),
		}},
	})
}
