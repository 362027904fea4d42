package web

import (
	"fmt"
	"math"
	"net/http"
	"net/url"
	"strconv"

	"github.com/labstack/echo/v4"

	"bullshit/engine/glicko"
	"bullshit/game"
	"bullshit/players"
	"bullshit/views"
	"bullshit/views/words"
)

// leaderboardPage is a page of the leaderboard: ?show=all|people|programs
// and ?page=N.
func (h *Handler) leaderboardPage(c echo.Context) error {
	if h.accounts == nil {
		return errNoAccounts
	}
	show := c.QueryParam("show")
	page := 1
	if p := c.QueryParam("page"); p != "" {
		n, err := strconv.Atoi(p)
		if err != nil {
			return badForm("A page is a number.")
		}
		page = n
	}
	b, err := h.accounts.Leaderboard(c.Request().Context(), show, page, 0)
	if err != nil {
		if status, msg, ok := refusal(c, err); ok {
			return &pageError{status: status, title: "Check the address", message: msg}
		}
		return err
	}
	l := views.LeaderboardPage{Shell: h.shell(c, "Leaderboard · Bullshit", "leaderboard"), Show: b.Show, Page: b.Page}
	for _, s := range b.Lines {
		l.Lines = append(l.Lines, views.LeaderLine{Rank: s.Rank, Name: s.Name, URL: views.PlayerURL(s.Name), Bot: s.Bot,
			Rating: ratingText(s.Rating, s.Deviation, s.Provisional), Games: s.Games})
	}
	pageURL := func(n int) string {
		return "/leaderboard?" + url.Values{"show": {b.Show}, "page": {strconv.Itoa(n)}}.Encode()
	}
	if b.Page > 1 {
		l.Prev = pageURL(b.Page - 1)
	}
	if b.More {
		l.Next = pageURL(b.Page + 1)
	}
	return render(c, http.StatusOK, views.LeaderboardView(l))
}

// playerPage is a player's page, by the account's name.
func (h *Handler) playerPage(c echo.Context) error {
	if h.accounts == nil {
		return errNoAccounts
	}
	p, err := h.accounts.Profile(c.Request().Context(), c.Param("name"))
	if err != nil {
		if status, msg, ok := refusal(c, err); ok {
			return &pageError{status: status, title: "No such player", message: msg}
		}
		return err
	}
	v := playerModel(p)
	v.Shell = h.shell(c, p.Name+" · Bullshit", "player")
	if a, ok := account(c); ok && a.Name == p.Name {
		v.IsYou = true
	}
	return render(c, http.StatusOK, views.PlayerView(v))
}

// playerModel is a player's page from their profile.
func playerModel(p players.Profile) views.PlayerPage {
	v := views.PlayerPage{Name: p.Name, Bot: p.Bot, Since: day(p.Since),
		Rating:     ratingText(p.Rating, p.Deviation, p.Provisional),
		RatedGames: p.RatedGames, Games: p.Games, Wins: p.Wins, Calls: p.Calls, RightCalls: p.RightCalls,
		Lies: p.Lies, Sneaks: p.Sneaks, SneaksCaught: p.SneaksCaught, Chart: chartModel(p.Name, p.History)}
	for _, pc := range p.Places {
		v.Places = append(v.Places, views.PlaceCell{Place: words.Ordinal(pc.Place), Games: pc.Games})
	}
	for _, g := range p.Recent {
		r := views.RecentGame{When: day(g.At), Review: "/games/" + url.PathEscape(g.Game) + "/review", Seats: g.Seats, Place: words.Ordinal(g.Place)}
		if g.Rated {
			r.Change = change(g.Before, g.After)
		}
		v.Recent = append(v.Recent, r)
	}
	return v
}

func ratingText(r, dev float64, provisional bool) views.RatingText {
	return views.RatingText{Rating: strconv.Itoa(int(math.Round(r))), Deviation: strconv.Itoa(int(math.Round(dev))), Provisional: provisional}
}

// change is a rating change in words: "1500 → 1502 (+2.4)".
func change(before, after float64) string {
	return fmt.Sprintf("%.0f → %.0f (%+.1f)", before, after, after-before)
}

// The rating chart's size, in its own units.
const (
	chartW, chartH         = 600, 250
	chartLeft, chartRight  = 64, 584
	chartTop, chartBottom  = 12, 214
	chartStep              = 50.0 // the rating between grid lines, at least
	chartMaxTicks          = 6
	chartDateTicks         = 4
	chartDateFormat        = "2 Jan"
	chartDateFormatLongAgo = "Jan 2006"
)

// chartModel places a rating history on the chart: one point per rated
// game, evenly spaced in the order played (a chart by date would crowd a
// day's games into a line), the rating scale padded to whole steps.
func chartModel(name string, hist []players.Point) views.Chart {
	c := views.Chart{Width: chartW, Height: chartH, Left: chartLeft, Right: chartRight, Top: chartTop, Bottom: chartBottom,
		Title: "Rating history of " + name}
	if len(hist) == 0 {
		c.Desc = "No rated games yet."
		return c
	}
	lo, hi := hist[0].Rating, hist[0].Rating
	for _, p := range hist {
		lo, hi = min(lo, p.Rating), max(hi, p.Rating)
	}
	step := chartStep
	for (hi-lo)/step > chartMaxTicks-1 {
		step *= 2
	}
	lo, hi = math.Floor(lo/step)*step, math.Ceil(hi/step)*step
	if hi == lo {
		lo, hi = lo-step, hi+step
	}
	y := func(r float64) float64 {
		return chartBottom - (r-lo)/(hi-lo)*(chartBottom-chartTop)
	}
	x := func(i int) float64 {
		if len(hist) == 1 {
			return (chartLeft + chartRight) / 2
		}
		return chartLeft + 8 + float64(i)*float64(chartRight-chartLeft-16)/float64(len(hist)-1)
	}
	for r := lo; r <= hi; r += step {
		c.YTicks = append(c.YTicks, views.ChartTick{Pos: y(r), Label: strconv.Itoa(int(r))})
	}
	format := chartDateFormat
	if hist[len(hist)-1].At.Year() != hist[0].At.Year() {
		format = chartDateFormatLongAgo
	}
	last := ""
	for k := range chartDateTicks {
		i := k * (len(hist) - 1) / max(1, chartDateTicks-1)
		if label := hist[i].At.UTC().Format(format); label != last {
			c.XTicks = append(c.XTicks, views.ChartTick{Pos: x(i), Label: label})
			last = label
		}
		if len(hist) == 1 {
			break
		}
	}
	best := hist[0]
	for i, p := range hist {
		c.Points = append(c.Points, views.ChartPoint{X: x(i), Y: y(p.Rating),
			Label: fmt.Sprintf("%s: %.0f ± %.0f", p.At.UTC().Format("2 Jan 2006"), p.Rating, p.Deviation)})
		if p.Rating > best.Rating {
			best = p
		}
	}
	first, now := hist[0], hist[len(hist)-1]
	c.Desc = fmt.Sprintf("%d rated %s, from %.0f on %s to %.0f on %s; the highest %.0f.", len(hist), words.Plural(len(hist), "game", "games"),
		first.Rating, day(first.At), now.Rating, day(now.At), best.Rating)
	return c
}

// ratingLines are the result sheet's rating changes: every rated seat's.
func ratingLines(f game.Frame, nm names) []views.RatingLine {
	var out []views.RatingLine
	for _, r := range f.Ratings {
		if !r.Rated {
			continue
		}
		line := views.RatingLine{Name: nm.name(r.Seat), Change: change(r.Before, r.After),
			Provisional: glicko.Rating{R: r.After, Deviation: r.AfterDeviation}.Provisional(), You: r.Seat == f.Seat}
		if r.Seat < len(f.Game.Seats) {
			line.URL = views.PlayerURL(f.Game.Seats[r.Seat].Name)
		}
		out = append(out, line)
	}
	return out
}

// accountName is the name and account a seat is taken with: a guest's as
// typed, a signed-in person's always the account's, as over the API, so
// nobody plays a rated game under another name.
func accountName(c echo.Context, typed string) (string, int64) {
	if a, ok := account(c); ok {
		return a.Name, a.ID
	}
	return typed, 0
}

// defaultName is the name the lobby's forms start with: the signed-in
// account's, else the one this browser last played under.
func defaultName(c echo.Context) string {
	if a, ok := account(c); ok {
		return a.Name
	}
	return lastName(c)
}
