package api

import (
	"net/http"
	"strconv"

	"github.com/labstack/echo/v4"

	"bullshit/engine"
	"bullshit/game"
	"bullshit/internal/httpx"
)

// GameList is the body of the list of games.
type GameList struct {
	Games []game.Summary `json:"games"`
	// More says a further page follows (at the offset plus the limit).
	More bool `json:"more,omitempty"`
}

// SeatList is the body of a game's seats.
type SeatList struct {
	Seats []game.SeatInfo `json:"seats"`
}

// EventList is the body of a game's log.
type EventList struct {
	Events []engine.Event `json:"events"`
}

// The list's page sizes.
const (
	defaultLimit = 50
	maxLimit     = 200
)

func (s *Server) healthz(c echo.Context) error {
	return c.JSON(http.StatusOK, map[string]string{"status": "ok"})
}

func (s *Server) create(c echo.Context) error {
	body, err := readBody(c)
	if err != nil {
		return err
	}
	acc := accountOf(c)
	req, err := decodeCreateAs(body, acc.Name)
	if err != nil {
		return err
	}
	req.Address = c.RealIP()
	req.HostPlayer = acc.ID
	j, err := s.games.Create(c.Request().Context(), req)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusCreated, j)
}

func (s *Server) list(c echo.Context) error {
	status := game.Status(c.QueryParam("status"))
	switch status {
	case "", game.StatusOpen, game.StatusLive, game.StatusFinished, game.StatusEnded:
	default:
		return invalid("The status is open, live, finished or ended.")
	}
	limit := defaultLimit
	if q := c.QueryParam("limit"); q != "" {
		n, err := strconv.Atoi(q)
		if err != nil || n < 1 || n > maxLimit {
			return invalid("The limit is 1 to " + strconv.Itoa(maxLimit) + ".")
		}
		limit = n
	}
	q, err := searchQuery(c)
	if err != nil {
		return err
	}
	q.Status, q.Limit = status, limit
	games, more, err := s.games.Search(c.Request().Context(), q)
	if err != nil {
		return err
	}
	if games == nil {
		games = []game.Summary{}
	}
	return c.JSON(http.StatusOK, GameList{Games: games, More: more})
}

func (s *Server) get(c echo.Context) error {
	return s.summary(c, http.StatusOK)
}

// summary answers with the game as it now stands.
func (s *Server) summary(c echo.Context, status int) error {
	g, err := s.games.Get(c.Request().Context(), httpx.GameID(c))
	if err != nil {
		return err
	}
	return c.JSON(status, g)
}

func (s *Server) join(c echo.Context) error {
	body, err := readBody(c)
	if err != nil {
		return err
	}
	acc := accountOf(c)
	name, err := decodeJoinAs(body, acc.Name)
	if err != nil {
		return err
	}
	j, err := s.games.Join(c.Request().Context(), httpx.GameID(c), name, acc.ID)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusCreated, j)
}

func (s *Server) start(c echo.Context) error {
	by, err := seatOf(c)
	if err != nil {
		return err
	}
	if err := s.games.Start(c.Request().Context(), httpx.GameID(c), by); err != nil {
		return err
	}
	return s.summary(c, http.StatusOK)
}

func (s *Server) leave(c echo.Context) error {
	by, err := seatOf(c)
	if err != nil {
		return err
	}
	if err := s.games.Leave(c.Request().Context(), httpx.GameID(c), by); err != nil {
		return err
	}
	return s.summary(c, http.StatusOK)
}

func (s *Server) end(c echo.Context) error {
	by, err := seatOf(c)
	if err != nil {
		return err
	}
	if err := s.games.End(c.Request().Context(), httpx.GameID(c), by); err != nil {
		return err
	}
	return s.summary(c, http.StatusOK)
}

func (s *Server) handToBot(c echo.Context) error {
	seat, err := strconv.Atoi(c.Param("seat"))
	if err != nil || seat < 0 || seat >= engine.MaxSeats {
		return invalid("A seat is a number from 0 to " + strconv.Itoa(engine.MaxSeats-1) + ".")
	}
	by, err := seatOf(c)
	if err != nil {
		return err
	}
	if err := s.games.HandToBot(c.Request().Context(), httpx.GameID(c), by, seat); err != nil {
		return err
	}
	return s.summary(c, http.StatusOK)
}

func (s *Server) seats(c echo.Context) error {
	seats, err := s.games.Seats(c.Request().Context(), httpx.GameID(c))
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, SeatList{Seats: seats})
}

func (s *Server) view(c echo.Context) error {
	seat, err := seatOf(c)
	if err != nil {
		return err
	}
	v, err := s.games.View(c.Request().Context(), httpx.GameID(c), seat)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, v)
}

func (s *Server) gameLog(c echo.Context) error {
	seat, err := seatOf(c)
	if err != nil {
		return err
	}
	events, err := s.games.Log(c.Request().Context(), httpx.GameID(c), seat)
	if err != nil {
		return err
	}
	if events == nil {
		events = []engine.Event{}
	}
	return c.JSON(http.StatusOK, EventList{Events: events})
}

// act makes a move of one kind for the token's seat and answers with the
// seat's view after it.
func (s *Server) act(kind engine.ActionKind) echo.HandlerFunc {
	return func(c echo.Context) error {
		body, err := readBody(c)
		if err != nil {
			return err
		}
		a, err := decodeAction(kind, body)
		if err != nil {
			return err
		}
		token, err := tokenOf(c)
		if err != nil {
			return err
		}
		f, err := s.games.Move(c.Request().Context(), httpx.GameID(c), token, a)
		if err != nil {
			return err
		}
		return c.JSON(http.StatusOK, f.View)
	}
}

// record is a finished game's whole record.
func (s *Server) record(c echo.Context) error {
	rec, err := s.games.Record(c.Request().Context(), httpx.GameID(c))
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, rec)
}

// events streams the seat's view (the spectator's without a token): the
// current one at once, then each new one as the table changes.
func (s *Server) events(c echo.Context) error {
	ctx := c.Request().Context()
	id := httpx.GameID(c)
	seat, err := seatOf(c)
	if err != nil {
		return err
	}
	g, err := s.games.Get(ctx, id)
	if err != nil {
		return err
	}
	v, err := s.games.View(ctx, id, seat)
	if err != nil {
		return err
	}
	if g.Status == game.StatusFinished || g.Status == game.StatusEnded || v.Phase == engine.PhaseOver {
		// A browser's EventSource reconnects whenever a stream ends; 204 is
		// the one answer that stops it, once it has the final view.
		if c.Request().Header.Get("Last-Event-ID") == strconv.Itoa(v.Version) {
			return c.NoContent(http.StatusNoContent)
		}
		return s.hub.Serve(c, id, seat, FormatJSON, game.Frame{Seat: seat, View: &v, Final: true}, nil)
	}
	f, err := s.games.Frame(ctx, id, seat)
	if err != nil {
		return err
	}
	done, err := s.OpenStream(c)
	if err != nil {
		return err
	}
	defer done()
	return s.hub.Serve(c, id, seat, FormatJSON, f, func() (game.Frame, error) { return s.games.Frame(ctx, id, seat) })
}

// gameID is the game's code from the path. Codes are lowercase, but a person
// reading one out may type it in capitals.
