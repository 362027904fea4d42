package web

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"bullshit/api"
	"bullshit/engine"
	"bullshit/engine/bot"
	"bullshit/live"
	"bullshit/views"
)

// The lobby's words, the specification's.
const (
	siteTitle  = "Bullshit"
	siteKicker = "Card game · 3 to 10 players"
	siteBlurb  = "Claim your cards face down, slip a few extra under the pile if you dare, and shout when someone’s lying."
	// defaultBots is how many bots a new table seats unless told otherwise.
	defaultBots = 3
)

// The lobby lists' lengths.
const (
	openListed     = 20
	liveListed     = 20
	finishedListed = 10
)

func (h *Handler) lobbyPage(c echo.Context) error {
	return h.renderLobby(c, http.StatusOK, "")
}

func (h *Handler) renderLobby(c echo.Context, status int, problem string) error {
	lists, err := h.lobbyLists_(c.Request().Context())
	if err != nil {
		return err
	}
	s := h.shell(c, "Bullshit · the bluffing card game", "lobby")
	if h.lobby != nil {
		s.Stream = "/lobby/events"
	} else {
		s.Poll = "/lobby/lists"
	}
	l := views.Lobby{
		Shell: s, Title: siteTitle, Kicker: siteKicker, Blurb: siteBlurb, Settings: settings(),
		Bots: defaultBots, MaxBots: engine.MaxSeats - 1, Levels: levelChoices(), Name: lastName(c), Lists: lists,
		Error: problem,
	}
	return render(c, status, views.LobbyView(l))
}

// settings are a new table's three settings in the specification's words,
// their choices and defaults from the engine.
func settings() []views.Setting {
	sneak := views.Setting{Key: "sneak", Label: "Sneaking", Hint: "The most extra cards you may slip under a play."}
	for n := 0; n <= engine.MaxSneakLimit; n++ {
		label := strconv.Itoa(n)
		if n == 0 {
			label = "Off"
		}
		sneak.Choices = append(sneak.Choices, views.Choice{Value: strconv.Itoa(n), Label: label, Selected: n == engine.StandardSneak})
	}
	window := views.Setting{Key: "window", Label: "Time to call", Hint: "Seconds to shout after each play."}
	for _, w := range engine.Windows {
		window.Choices = append(window.Choices, views.Choice{Value: strconv.Itoa(int(w.Seconds())), Label: strconv.Itoa(int(w.Seconds())) + " s", Selected: w == engine.StandardWindow})
	}
	pace := views.Setting{Key: "pace", Label: "Bot speed", Hint: "Relaxed is easier to follow.", Choices: []views.Choice{
		{Value: string(engine.Brisk), Label: "Brisk", Selected: true}, {Value: string(engine.Relaxed), Label: "Relaxed"},
	}}
	return []views.Setting{sneak, window, pace}
}

// lobbyLists_ reads the three lists.
func (h *Handler) lobbyLists_(ctx context.Context) (views.LobbyLists, error) {
	var l views.LobbyLists
	for _, q := range []struct {
		status live.Status
		limit  int
		into   *[]views.GameRow
	}{{live.StatusOpen, openListed, &l.Open}, {live.StatusLive, liveListed, &l.Live}, {live.StatusFinished, finishedListed, &l.Finished}} {
		games, err := h.games.List(ctx, q.status, q.limit)
		if err != nil {
			return l, err
		}
		for _, g := range games {
			*q.into = append(*q.into, gameRow(g))
		}
	}
	return l, nil
}

func gameRow(g live.Summary) views.GameRow {
	r := views.GameRow{ID: g.ID, URL: "/games/" + g.ID}
	var people []string
	bots, taken := 0, 0
	for _, s := range g.Seats {
		switch s.Kind {
		case live.SeatPerson:
			people = append(people, s.Name)
		case live.SeatBot:
			bots++
		}
		if s.Kind != live.SeatEmpty {
			taken++
		}
	}
	if g.Host >= 0 && g.Host < len(g.Seats) {
		r.Host = g.Seats[g.Host].Name
	}
	var who []string
	for _, p := range people {
		if p != r.Host {
			who = append(who, p)
		}
	}
	if bots == 1 {
		who = append(who, "1 bot")
	} else if bots > 1 {
		who = append(who, strconv.Itoa(bots)+" bots")
	}
	if len(who) > 0 {
		r.Players = "with " + andList(who)
	}
	switch g.Status {
	case live.StatusOpen:
		r.Seats = fmt.Sprintf("%d of %d seated", taken, len(g.Seats))
		r.Detail = settingsLine(g.Options)
	case live.StatusLive:
		r.Seats = fmt.Sprintf("%d players", taken)
		r.Detail = "play " + strconv.Itoa(g.Plays)
	default:
		r.Seats = fmt.Sprintf("%d players", taken)
		r.Detail = fmt.Sprintf("%d plays", g.Plays)
		for _, p := range g.Result {
			if p.Place == 1 && p.Seat < len(g.Seats) {
				r.Detail = g.Seats[p.Seat].Name + " won in " + strconv.Itoa(g.Plays) + " plays"
				break
			}
		}
	}
	return r
}

func andList(s []string) string {
	switch len(s) {
	case 0:
		return ""
	case 1:
		return s[0]
	}
	return strings.Join(s[:len(s)-1], ", ") + " and " + s[len(s)-1]
}

// lobbyLists answers the lobby's poll with its lists as oob fragments.
func (h *Handler) lobbyLists(c echo.Context) error {
	b, err := h.RenderLobby(c.Request().Context())
	if err != nil {
		return err
	}
	return writeHTML(c, http.StatusOK, b)
}

// RenderLobby is the lobby's live lists as hx-swap-oob fragments: the data
// of one "lobby" event.
func (h *Handler) RenderLobby(ctx context.Context) ([]byte, error) {
	lists, err := h.lobbyLists_(ctx)
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	if err := views.LobbyListsView(lists, true).Render(ctx, &buf); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// create opens a table from the lobby's form: the host, the settings and
// the bots, and seats the browser as the host.
func (h *Handler) create(c echo.Context) error {
	req, err := createRequest(c)
	if err == nil {
		var j live.Joined
		j, err = h.games.Create(c.Request().Context(), req)
		if err == nil {
			setSeat(c, j.Game.ID, j.Token)
			setName(c, req.HostName)
			return redirect(c, "/games/"+j.Game.ID)
		}
	}
	if isRefusal(err) {
		_, _, msg := describe(err)
		return h.renderLobby(c, api.StatusOf(err), msg)
	}
	return err
}

// isRefusal reports whether err is a refusal a person can read and fix.
func isRefusal(err error) bool {
	var (
		pe *pageError
		ee *engine.Error
		le *live.Error
	)
	return errors.As(err, &pe) || errors.As(err, &ee) || (errors.As(err, &le) && le.Code != live.CodeUnavailable)
}

func badForm(msg string) error {
	return &pageError{status: http.StatusBadRequest, title: "Check the form", message: msg}
}

// createRequest reads the lobby's form. Its numbers are checked by the
// engine and the runtime; here they are only read.
func createRequest(c echo.Context) (live.CreateRequest, error) {
	atoi := func(field string, def int) (int, error) {
		v := strings.TrimSpace(c.FormValue(field))
		if v == "" {
			return def, nil
		}
		n, err := strconv.Atoi(v)
		if err != nil {
			return 0, badForm(fmt.Sprintf("%q is not a number.", v))
		}
		return n, nil
	}
	sneak, err := atoi("sneak", engine.StandardSneak)
	if err != nil {
		return live.CreateRequest{}, err
	}
	window, err := atoi("window", int(engine.StandardWindow.Seconds()))
	if err != nil {
		return live.CreateRequest{}, err
	}
	bots, err := atoi("bots", defaultBots)
	if err != nil {
		return live.CreateRequest{}, err
	}
	if bots < 0 || bots > engine.MaxSeats-1 {
		return live.CreateRequest{}, badForm(fmt.Sprintf("A table takes 0 to %d bots.", engine.MaxSeats-1))
	}
	pace := engine.Pace(c.FormValue("pace"))
	if pace == "" {
		pace = engine.Brisk
	}
	req := live.CreateRequest{
		HostName: c.FormValue("name"),
		Options:  engine.Options{Seats: engine.MaxSeats, Sneak: sneak, Window: time.Duration(window) * time.Second, Pace: pace},
	}
	levels := c.Request().Form["level"]
	one := c.FormValue("bot_level")
	styles := bot.SiteStyles()
	for i := range bots {
		level := one
		if i < len(levels) && levels[i] != "" {
			level = levels[i]
		}
		if level == "" {
			level = string(bot.Medium)
		}
		req.Bots = append(req.Bots, live.BotSpec{Level: level, Style: string(styles[i%len(styles)])})
	}
	return req, nil
}

// joinByCode seats the browser at the game whose code was typed.
func (h *Handler) joinByCode(c echo.Context) error {
	code := strings.ToLower(strings.TrimSpace(c.FormValue("code")))
	if i := strings.LastIndex(code, "/games/"); i >= 0 {
		code = strings.Trim(code[i+len("/games/"):], "/")
	}
	if code == "" {
		return h.renderLobby(c, http.StatusBadRequest, "Type the code of the table to join.")
	}
	if seat, _ := h.identifyAt(c, code); seat != engine.Spectator {
		return redirect(c, "/games/"+code)
	}
	j, err := h.games.Join(c.Request().Context(), code, c.FormValue("name"))
	if err != nil {
		if isRefusal(err) {
			_, _, msg := describe(err)
			return h.renderLobby(c, api.StatusOf(err), msg)
		}
		return err
	}
	setSeat(c, code, j.Token)
	setName(c, c.FormValue("name"))
	return redirect(c, "/games/"+code)
}

// identifyAt is identify for a game other than the request path's: the
// seat cookie is scoped to its game's path, so only a request under that
// path carries it.
func (h *Handler) identifyAt(c echo.Context, game string) (int, context.Context) {
	if !strings.HasPrefix(c.Request().URL.Path, "/games/"+game) {
		return engine.Spectator, c.Request().Context()
	}
	return h.identify(c, game)
}

// join takes a seat at an open table from its page.
func (h *Handler) join(c echo.Context) error {
	id := gameID(c)
	if seat, _ := h.identify(c, id); seat != engine.Spectator {
		return redirect(c, "/games/"+id)
	}
	name := c.FormValue("name")
	j, err := h.games.Join(c.Request().Context(), id, name)
	if err != nil {
		return err
	}
	setSeat(c, id, j.Token)
	setName(c, name)
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
func (h *Handler) frame(ctx context.Context, id string, seat int) (live.Frame, error) {
	g, err := h.games.Get(ctx, id)
	if err != nil {
		return live.Frame{}, err
	}
	f := live.Frame{Game: g, Seat: seat, Final: g.Status == live.StatusFinished || g.Status == live.StatusEnded}
	if g.Status == live.StatusOpen || (g.Status == live.StatusEnded && g.StartedAt.IsZero()) {
		return f, nil
	}
	v, err := h.games.View(ctx, id, seat)
	if err != nil {
		return live.Frame{}, err
	}
	f.View, f.Revision = &v, v.Version
	return f, nil
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
		title = "Table " + id + " · Bullshit"
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
	w, t := screen(f, h.now())
	if status != "" {
		if t != nil {
			t.Dock.Status = status
		} else {
			w.Status = status
		}
	}
	var buf bytes.Buffer
	if err := views.Screen(w, t, true).Render(ctx, &buf); err != nil {
		return err
	}
	return writeHTML(c, code, buf.Bytes())
}

// RenderFrame is one seat's screen as hx-swap-oob fragments, the data of
// one SSE "frame" event. now is the time of rendering: the reveal's beats
// and the clock are drawn relative to it. It does no I/O.
func (h *Handler) RenderFrame(f live.Frame, now time.Time) ([]byte, error) {
	w, t := screen(f, now)
	var buf bytes.Buffer
	if err := views.Screen(w, t, true).Render(context.Background(), &buf); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// events serves the seat's stream of frames, once the cookie says who it is.
func (h *Handler) events(c echo.Context) error {
	if h.stream == nil {
		return echo.ErrNotFound
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
	setSeat(c, j.Game.ID, j.Token)
	return redirect(c, "/games/"+j.Game.ID)
}

// move makes a move from the dock's post: the play number, the picked cards
// and the sneak switch, as the engine takes them. A refusal comes back in
// the status line in the engine's words.
func (h *Handler) move(kind engine.ActionKind) echo.HandlerFunc {
	return func(c echo.Context) error {
		id := gameID(c)
		seat, ctx, err := h.seated(c, id)
		if err != nil {
			return err
		}
		a, err := action(c, kind, seat)
		if err != nil {
			return err
		}
		if _, err := h.games.Act(ctx, id, a); err != nil {
			if !isRefusal(err) {
				return err
			}
			// The refusal's own status: the page swaps every answer (see
			// the htmx-config in the layout), so the message shows.
			code, _, msg := describe(err)
			return h.answerFrame(c, ctx, id, seat, code, msg)
		}
		return h.answerFrame(c, ctx, id, seat, http.StatusOK, "")
	}
}

// action reads a move's form fields.
func action(c echo.Context, kind engine.ActionKind, seat int) (engine.Action, error) {
	no, err := strconv.Atoi(c.FormValue("no"))
	if err != nil || no < 0 {
		return engine.Action{}, badForm("The move didn't say which play it answers: reload the page.")
	}
	a := engine.Action{Kind: kind, Seat: seat, No: no}
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
