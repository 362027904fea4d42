package web

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/labstack/echo/v4"

	"bullshit/engine"
	"bullshit/errcode"
	"bullshit/game"
	"bullshit/views"
)

// join takes a seat at an open table: from its page, or from the lobby's
// form, whose refusal is shown on the lobby.
func (h *Handler) join(c echo.Context) error {
	id := gameID(c)
	if seat, _ := h.identify(c, id); seat != engine.Spectator {
		return redirect(c, "/games/"+id)
	}
	name, player := accountName(c, c.FormValue("name"))
	j, err := h.games.Join(c.Request().Context(), id, name, player)
	if err != nil {
		if isRefusal(err) && c.Request().Header.Get("HX-Request") != "true" {
			return h.lobbyRefusal(c, err)
		}
		return err
	}
	h.setSeat(c, id, j.Token)
	h.setName(c, name)
	return redirect(c, "/games/"+id)
}

// redirect sends the browser to path: by HX-Redirect for htmx, else 303.
func redirect(c echo.Context, path string) error {
	if c.Request().Header.Get("HX-Request") == "true" {
		c.Response().Header().Set("HX-Redirect", path)
		return c.NoContent(http.StatusNoContent)
	}
	return c.Redirect(http.StatusSeeOther, path)
}

// frame is the seat's whole screen now.
func (h *Handler) frame(ctx context.Context, id string, seat int) (game.Frame, error) {
	return h.games.Frame(ctx, id, seat)
}

// gamePage is a game's one page: waiting room, table or result sheet.
func (h *Handler) gamePage(c echo.Context) error {
	id := gameID(c)
	seat, ctx := h.identify(c, id)
	f, err := h.frame(ctx, id, seat)
	if err != nil {
		return err
	}
	assists := readAssists(c)
	w, t := screen(f, h.now())
	if w != nil {
		w.ShareURL = absURL(c, w.ShareURL)
	}
	if t != nil {
		t.Hand.CheckPicks = assists.Pick
		if t.Result != nil && t.Result.CanPlayAgain {
			t.Result.Next = h.games.Next(id)
		}
	}
	title := "Waiting room · Bullshit"
	if t != nil {
		title = t.Bar.Title
	}
	s := h.shell(c, title, "game")
	if !f.Final {
		if h.stream != nil {
			s.Stream = "/games/" + id + "/events"
		} else {
			s.Poll = "/games/" + id + "/frame"
		}
	}
	return render(c, http.StatusOK, views.GamePage(views.Page{Shell: s, Waiting: w, Table: t, Options: assists}))
}

// absURL is path on the host the request came to.
func absURL(c echo.Context, path string) string {
	return c.Scheme() + "://" + c.Request().Host + path
}

// framePart answers the page's poll with the seat's frame.
func (h *Handler) framePart(c echo.Context) error {
	id := gameID(c)
	seat, ctx := h.identify(c, id)
	return h.answerFrame(c, ctx, id, seat, http.StatusOK, "")
}

// answerFrame answers with the seat's current frame, with the HTTP status
// code and, if set, status in the status line.
func (h *Handler) answerFrame(c echo.Context, ctx context.Context, id string, seat int, code int, status string) error {
	f, err := h.frame(ctx, id, seat)
	if err != nil {
		return err
	}
	return h.render(c, ctx, f, code, status)
}

// render answers with frame f's screen, status (if any) in its status line.
func (h *Handler) render(c echo.Context, ctx context.Context, f game.Frame, code int, status string) error {
	w, t := screen(f, h.now())
	if status != "" {
		if t != nil {
			t.Dock.Status = status
		} else {
			w.Status = status
		}
	}
	var buf bytes.Buffer
	if err := views.Screen(w, t, true, nil).Render(ctx, &buf); err != nil {
		return err
	}
	if !f.Final {
		c.Response().Header().Set(revisionHeader, strconv.Itoa(f.Revision))
	}
	return writeHTML(c, code, buf.Bytes())
}

// revisionHeader carries the revision of the frame an answer shows. The
// stream may push a newer frame while the answer is on its way (the move's
// window closed just after it), and nothing follows to put right an answer
// swapped in after it: the page drops an answer older than the last frame
// pushed. A finished game's frame is numbered apart, so it has none.
const revisionHeader = "X-Frame-Revision"

// screenBuffers are the buffers screens are rendered into, each with room
// for a full table's screen: the event keeps only an exact copy.
var screenBuffers = sync.Pool{New: func() any { b := new(bytes.Buffer); b.Grow(12 << 10); return b }}

// RenderFrame is one seat's screen as hx-swap-oob fragments, the data of
// one SSE "frame" event. now is the time of rendering: the reveal's beats
// and the clock are drawn relative to it. It does no I/O.
func (h *Handler) RenderFrame(f game.Frame, now time.Time) ([]byte, error) {
	w, t := screen(f, now)
	return renderScreen(w, t, nil)
}

// renderScreen renders a screen as a push's fragments, its table's regions
// noted in cuts (which may be nil).
func renderScreen(w *views.Waiting, t *views.Table, cuts *views.Cuts) ([]byte, error) {
	buf := screenBuffers.Get().(*bytes.Buffer)
	defer screenBuffers.Put(buf)
	buf.Reset()
	if err := views.Screen(w, t, true, cuts).Render(context.Background(), buf); err != nil {
		return nil, err
	}
	return bytes.Clone(buf.Bytes()), nil
}

// events serves the seat's stream of frames, once the cookie says who it is.
func (h *Handler) events(c echo.Context) error {
	if h.stream == nil {
		return echo.ErrNotFound
	}
	if hasFinal(c.Request().Header.Get("Last-Event-ID")) {
		// 204 is the one answer after which a browser's EventSource does
		// not reconnect.
		return c.NoContent(http.StatusNoContent)
	}
	id := gameID(c)
	seat, ctx := h.identify(c, id)
	c.SetRequest(c.Request().WithContext(ctx))
	return h.stream(c, id, seat)
}

func (h *Handler) lobbyEvents(c echo.Context) error {
	if h.lobby == nil {
		return echo.ErrNotFound
	}
	return h.lobby(c)
}

// start starts the game (the host only: the table checks).
func (h *Handler) start(c echo.Context) error {
	id := gameID(c)
	seat, ctx, err := h.seated(c, id)
	if err != nil {
		return err
	}
	if err := h.games.Start(ctx, id, seat); err != nil {
		return err
	}
	return h.answerFrame(c, ctx, id, seat, http.StatusOK, "")
}

func (h *Handler) addBot(c echo.Context) error {
	id := gameID(c)
	seat, ctx, err := h.seated(c, id)
	if err != nil {
		return err
	}
	if err := h.games.AddBot(ctx, id, seat, c.FormValue("level")); err != nil {
		return err
	}
	return h.answerFrame(c, ctx, id, seat, http.StatusOK, "")
}

func (h *Handler) removeBot(c echo.Context) error {
	id := gameID(c)
	seat, ctx, err := h.seated(c, id)
	if err != nil {
		return err
	}
	bot, err := strconv.Atoi(c.Param("seat"))
	if err != nil {
		return echo.ErrNotFound
	}
	if err := h.games.RemoveBot(ctx, id, seat, bot); err != nil {
		return err
	}
	return h.answerFrame(c, ctx, id, seat, http.StatusOK, "")
}

// again opens the next game with the same seats, or joins it if a player
// of this one already has.
func (h *Handler) again(c echo.Context) error {
	id := gameID(c)
	seat, ctx, err := h.seated(c, id)
	if err != nil {
		return err
	}
	j, err := h.games.Rematch(ctx, id, seat)
	if err != nil {
		return err
	}
	h.setSeat(c, j.Game.ID, j.Token)
	return redirect(c, "/games/"+j.Game.ID)
}

// move makes a move from the dock's post: the play number, the picked cards
// and the sneak switch, as the engine takes them. A refusal comes back in
// the status line in the engine's words.
func (h *Handler) move(kind engine.ActionKind) echo.HandlerFunc {
	return func(c echo.Context) error {
		id := gameID(c)
		token := h.token(c)
		if token == "" {
			return errNotSeated
		}
		a, err := action(c, kind)
		if err != nil {
			return err
		}
		ctx := c.Request().Context()
		f, err := h.games.Move(ctx, id, token, a)
		switch {
		case err == nil:
			return h.render(c, ctx, f, http.StatusOK, "")
		case f.Game.ID == "" && isUnauthorized(err):
			return errNotSeated
		case f.Game.ID == "" || !isRefusal(err):
			return err
		}
		// A refusal is the player's to read in the status line, not a
		// failure of the page: to htmx it answers 200 (a browser logs every
		// 4xx as an error), the refusal's status in a header; anything else
		// gets the refusal's own status.
		code, _, msg := describe(err)
		if c.Request().Header.Get("HX-Request") == "true" {
			c.Response().Header().Set(refusedHeader, strconv.Itoa(code))
			code = http.StatusOK
		}
		return h.render(c, ctx, f, code, msg)
	}
}

// refusedHeader carries a refused move's status to htmx, which is answered
// 200.
const refusedHeader = "X-Refused"

// action reads a move's form fields.
func action(c echo.Context, kind engine.ActionKind) (engine.Action, error) {
	no, err := strconv.Atoi(c.FormValue("no"))
	if err != nil || no < 0 {
		return engine.Action{}, badForm("The move didn't say which play it answers: reload the page.")
	}
	a := engine.Action{Kind: kind, No: no}
	if kind != engine.ActPlay && kind != engine.ActGive {
		return a, nil
	}
	if err := c.Request().ParseForm(); err != nil {
		return a, badForm("The move couldn't be read.")
	}
	for _, code := range c.Request().Form["card"] {
		card, err := engine.ParseCard(code)
		if err != nil {
			return a, badForm(fmt.Sprintf("There's no card %q.", code))
		}
		a.Cards = append(a.Cards, card)
	}
	if kind == engine.ActPlay {
		sneak, _ := strconv.Atoi(c.FormValue("sneak"))
		if sneak > 0 {
			// The claim is the cards put down less those sneaked; a claim
			// of none is sent as such for the engine to refuse, since its
			// zero means "all".
			a.Claim = len(a.Cards) - sneak
			if a.Claim == 0 {
				a.Claim = -1
			}
		}
	}
	return a, nil
}

// isUnauthorized reports whether err refuses the call's token.
func isUnauthorized(err error) bool {
	code, _, ok := errcode.Of(err)
	return ok && code == errcode.Unauthorized
}
