package web

import (
	"context"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"

	"github.com/labstack/echo/v4"

	"bullshit/engine/review"
	"bullshit/game"
	"bullshit/views"
)

// gamesPerPage is how many finished games the list shows at once.
const gamesPerPage = 20

// registerReview adds the finished games' list and the review pages. They
// only read, and only games that are over: a game in play is refused by
// the runtime before anything of it is read.
func (h *Handler) registerReview(g routes) {
	g.GET("/games", h.gamesPage)
	g.GET("/games/:id/review", h.reviewPage)
	g.GET("/games/:id/review/step", h.reviewStep)
}

// gamesPage lists the finished games, newest first, a page at a time, or
// those of the player searched for. To htmx it answers the list alone.
func (h *Handler) gamesPage(c echo.Context) error {
	// The runtime checks the name, as it checks every name.
	player := strings.TrimSpace(c.QueryParam("player"))
	page := 1
	if q := c.QueryParam("page"); q != "" {
		n, err := strconv.Atoi(q)
		if err != nil || n < 1 || n > maxPage {
			return badForm("There's no page " + q + " of the list.")
		}
		page = n
	}
	games, more, err := h.games.Search(c.Request().Context(), game.Query{Status: game.StatusFinished, Player: player,
		Offset: (page - 1) * gamesPerPage, Limit: gamesPerPage})
	if err != nil {
		return err
	}
	p := views.GamesPage{Shell: h.shell(c, "Finished games · Bullshit", "games"), Player: player, Page: page}
	for _, g := range games {
		row := gameRow(g)
		row.URL = "/games/" + g.ID + "/review"
		p.Rows = append(p.Rows, row)
	}
	if page > 1 {
		p.Prev = gamesURL(player, page-1)
	}
	if more {
		p.Next = gamesURL(player, page+1)
	}
	// htmx asks for the list alone, except when it restores a page of its
	// history that it no longer holds: that needs the whole page.
	if hx := c.Request().Header; hx.Get("HX-Request") == "true" && hx.Get("HX-History-Restore-Request") != "true" {
		return render(c, http.StatusOK, views.GamesList(p))
	}
	return render(c, http.StatusOK, views.GamesView(p))
}

// maxPage bounds the list's paging, as the API bounds its offset.
const maxPage = 5000

func gamesURL(player string, page int) string {
	v := url.Values{}
	if player != "" {
		v.Set("player", player)
	}
	if page > 1 {
		v.Set("page", strconv.Itoa(page))
	}
	if len(v) == 0 {
		return "/games"
	}
	return "/games?" + v.Encode()
}

// reviewAt reads the request's game, its review and the step asked for.
func (h *Handler) reviewAt(c echo.Context) (id string, r reviewed, step int, err error) {
	id = gameID(c)
	if r, err = h.reviewed(c.Request().Context(), id); err != nil {
		return id, r, 0, err
	}
	step, err = stepParam(c, len(r.rv.Plays))
	return id, r, step, err
}

// reviewPage is a finished game's review at a step (?step=N, 0 the deal).
func (h *Handler) reviewPage(c echo.Context) error {
	id, r, step, err := h.reviewAt(c)
	if err != nil {
		return err
	}
	p := reviewModel(id, r.rec, r.rv, step)
	p.Shell = h.shell(c, "Review of "+id+" · Bullshit", "review")
	p.Script, p.Style = h.assets.URL("review.js"), h.assets.URL("review.css")
	return render(c, http.StatusOK, views.ReviewView(p))
}

// reviewStep answers htmx with one step, and has the browser's address
// show the page at that step, so a step can be linked.
func (h *Handler) reviewStep(c echo.Context) error {
	id, r, step, err := h.reviewAt(c)
	if err != nil {
		return err
	}
	c.Response().Header().Set("HX-Push-Url", "/games/"+id+"/review?step="+strconv.Itoa(step))
	return render(c, http.StatusOK, views.ReviewStepView(stepModel(id, r.rec, r.rv, step)))
}

// stepParam reads ?step=, 0 when absent; last is the last step.
func stepParam(c echo.Context, last int) (int, error) {
	q := c.QueryParam("step")
	if q == "" {
		return 0, nil
	}
	n, err := strconv.Atoi(q)
	if err != nil {
		return 0, badForm("A step is a number, from 0 (the deal) to " + strconv.Itoa(last) + ".")
	}
	if n < 0 || n > last {
		return 0, &pageError{status: http.StatusNotFound, title: "No such step",
			message: "This game's steps go from 0 (the deal) to " + strconv.Itoa(last) + "."}
	}
	return n, nil
}

// reviewed is a game's record and review, computed once and kept: a game
// over never changes, and reading one back costs tens of milliseconds for
// a long game at a full table, too much for every step.
type reviewed struct {
	rec game.Record
	rv  *review.Review
}

func (h *Handler) reviewed(ctx context.Context, id string) (reviewed, error) {
	if r, ok := h.reviewCache.get(id); ok {
		return r, nil
	}
	rec, rv, err := h.games.Reviewed(ctx, id)
	if err != nil {
		return reviewed{}, err
	}
	r := reviewed{rec: rec, rv: rv}
	h.reviewCache.put(id, r)
	return r, nil
}

// reviewsKept is how many reviews the cache holds: a long ten-seat game's
// is about a megabyte, mostly its log.
const reviewsKept = 16

// reviewCache keeps the reviews most recently read.
type reviewCache struct {
	mu    sync.Mutex
	order []string // least recently used first
	byID  map[string]reviewed
}

func (c *reviewCache) get(id string) (reviewed, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	r, ok := c.byID[id]
	if ok {
		c.touch(id)
	}
	return r, ok
}

func (c *reviewCache) put(id string, r reviewed) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.byID == nil {
		c.byID = make(map[string]reviewed)
	}
	if _, ok := c.byID[id]; !ok && len(c.order) >= reviewsKept {
		delete(c.byID, c.order[0])
		c.order = c.order[1:]
	}
	c.byID[id] = r
	c.touch(id)
}

// touch moves id to the end of the order.
func (c *reviewCache) touch(id string) {
	for i, x := range c.order {
		if x == id {
			c.order = append(c.order[:i], c.order[i+1:]...)
			break
		}
	}
	c.order = append(c.order, id)
}
