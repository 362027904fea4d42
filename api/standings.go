package api

import (
	"context"
	"net/http"
	"strconv"

	"github.com/labstack/echo/v4"

	"bullshit/players"
)

// Standings is what the leaderboard and the player routes need of the
// accounts (*players.Service).
type Standings interface {
	Leaderboard(ctx context.Context, show string, page, size int) (players.Leaderboard, error)
	Profile(ctx context.Context, name string) (players.Profile, error)
}

// registerStandings adds the leaderboard and the player routes.
func (s *Server) registerStandings(add func(method, path string, h echo.HandlerFunc, m ...echo.MiddlewareFunc)) {
	add(http.MethodGet, "/leaderboard", s.leaderboard)
	add(http.MethodGet, "/players/:name", s.player)
}

var errNoStandings = invalid("This server keeps no accounts, so it has no leaderboard.")

// leaderboard answers a page of the leaderboard: ?show=all|people|programs,
// ?page (from 1) and ?per_page (1 to players.MaxPerPage).
func (s *Server) leaderboard(c echo.Context) error {
	if s.standings == nil {
		return errNoStandings
	}
	page, err := queryInt(c, "page", 1)
	if err != nil {
		return err
	}
	size, err := queryInt(c, "per_page", players.PerPage)
	if err != nil {
		return err
	}
	b, err := s.standings.Leaderboard(c.Request().Context(), c.QueryParam("show"), page, size)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, b)
}

// player answers a player's page by the account's name.
func (s *Server) player(c echo.Context) error {
	if s.standings == nil {
		return errNoStandings
	}
	p, err := s.standings.Profile(c.Request().Context(), c.Param("name"))
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, p)
}

// queryInt reads a whole number from the query, def when it is missing.
func queryInt(c echo.Context, key string, def int) (int, error) {
	q := c.QueryParam(key)
	if q == "" {
		return def, nil
	}
	n, err := strconv.Atoi(q)
	if err != nil {
		return 0, invalid("The " + key + " is a whole number.")
	}
	return n, nil
}
