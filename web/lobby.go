package web

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"bullshit/engine"
	"bullshit/engine/bot"
	"bullshit/errcode"
	"bullshit/game"
	"bullshit/internal/httpx"
	"bullshit/naming"
	"bullshit/views"
	"bullshit/views/words"
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
	lists, err := h.readLobbyLists(c.Request().Context())
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
		Shell: s, Title: siteTitle, Kicker: siteKicker, Blurb: siteBlurb, Settings: settings(), More: moreSettings(),
		Bots: defaultBots, MaxBots: engine.MaxSeats - 1, Levels: levelChoices(), Name: defaultName(c), Lists: lists,
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

// moreSettings are the table options behind "More options", their choices
// and defaults from the engine.
func moreSettings() []views.Setting {
	grace := views.Setting{Key: "grace", Label: "Calls made together",
		Hint: "Calls this close to the first count as together, and the caller nearest the player's left gets it, as at a real table."}
	for _, g := range []time.Duration{0, engine.StandardGrace, 300 * time.Millisecond, engine.MaxGrace} {
		label := words.Seconds(g)
		if g == 0 {
			label = "First come"
		}
		grace.Choices = append(grace.Choices, views.Choice{Value: strconv.Itoa(int(g.Milliseconds())), Label: label, Selected: g == engine.StandardGrace})
	}
	playOn := views.Setting{Key: "play_on", Label: "When someone goes out",
		Hint: "Play on for second place, third and so on, until two are left.", Choices: []views.Choice{
			{Value: "0", Label: "The game ends", Selected: true}, {Value: "1", Label: "Play on for places"},
		}}
	return []views.Setting{grace, playOn}
}

// readLobbyLists reads the three lists.
func (h *Handler) readLobbyLists(ctx context.Context) (views.LobbyLists, error) {
	var l views.LobbyLists
	for _, q := range []struct {
		status game.Status
		limit  int
		into   *[]views.GameRow
	}{{game.StatusOpen, openListed, &l.Open}, {game.StatusLive, liveListed, &l.Live}, {game.StatusFinished, finishedListed, &l.Finished}} {
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

// gameRow is a game as the lobby lists it: who sits, and its settings,
// progress or winner.
func gameRow(g game.Summary) views.GameRow {
	r := views.GameRow{ID: g.ID, URL: "/games/" + g.ID}
	var people []string
	bots, taken := 0, 0
	for _, s := range g.Seats {
		switch s.Kind {
		case game.SeatPerson:
			people = append(people, s.Name)
		case game.SeatBot:
			bots++
		}
		if s.Kind != game.SeatEmpty {
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
	if bots > 0 {
		who = append(who, words.Count(bots, "bot"))
	}
	if len(who) > 0 {
		r.Players = "with " + words.And(who)
	}
	switch g.Status {
	case game.StatusOpen:
		r.Seats = fmt.Sprintf("%d of %d seated", taken, len(g.Seats))
		r.Detail = settingsLine(g.Options)
	case game.StatusLive:
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
	lists, err := h.readLobbyLists(ctx)
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
		var j game.Joined
		j, err = h.games.Create(c.Request().Context(), req)
		if err == nil {
			h.setSeat(c, j.Game.ID, j.Token)
			h.setName(c, req.HostName)
			return redirect(c, "/games/"+j.Game.ID)
		}
	}
	if isRefusal(err) {
		return h.lobbyRefusal(c, err)
	}
	return err
}

// lobbyRefusal shows a refused new table or seat over the lobby, with the
// wait it asks for (a full server's) in Retry-After.
func (h *Handler) lobbyRefusal(c echo.Context, err error) error {
	httpx.SetRetryAfter(c.Response().Header(), err)
	status, _, msg := describe(err)
	return h.renderLobby(c, status, msg)
}

// isRefusal reports whether err is a refusal a person can read and fix.
func isRefusal(err error) bool {
	var (
		pe *pageError
		ee *engine.Error
		le *game.Error
		ne *naming.Error
	)
	return errors.As(err, &pe) || errors.As(err, &ee) || errors.As(err, &ne) || (errors.As(err, &le) && le.Code != errcode.Unavailable)
}

func badForm(msg string) error {
	return &pageError{status: http.StatusBadRequest, title: "Check the form", message: msg}
}

// createRequest reads the lobby's form. Its numbers are checked by the
// engine and the runtime; here they are only read.
func createRequest(c echo.Context) (game.CreateRequest, error) {
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
		return game.CreateRequest{}, err
	}
	window, err := atoi("window", int(engine.StandardWindow.Seconds()))
	if err != nil {
		return game.CreateRequest{}, err
	}
	bots, err := atoi("bots", defaultBots)
	if err != nil {
		return game.CreateRequest{}, err
	}
	if bots < 0 || bots > engine.MaxSeats-1 {
		return game.CreateRequest{}, badForm(fmt.Sprintf("A table takes 0 to %d bots.", engine.MaxSeats-1))
	}
	grace, err := atoi("grace", int(engine.StandardGrace.Milliseconds()))
	if err != nil {
		return game.CreateRequest{}, err
	}
	opts := engine.Standard(engine.MaxSeats)
	opts.Sneak, opts.Window, opts.Grace = sneak, time.Duration(window)*time.Second, time.Duration(grace)*time.Millisecond
	opts.PlayOn = c.FormValue("play_on") == "1"
	if pace := engine.Pace(c.FormValue("pace")); pace != "" {
		opts.Pace = pace
	}
	req := game.CreateRequest{Options: opts}
	req.HostName, req.HostPlayer = accountName(c, c.FormValue("name"))
	if v := strings.TrimSpace(c.FormValue("seed")); v != "" {
		seed, err := strconv.ParseUint(v, 10, 64)
		if err != nil {
			return game.CreateRequest{}, badForm("A practice deal is a whole number, up to 18446744073709551615.")
		}
		req.Seed = &seed
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
		req.Bots = append(req.Bots, game.BotSpec{Level: level, Style: string(styles[i%len(styles)])})
	}
	return req, nil
}

// joinByCode sends the lobby's join form on to the game's own join. A 307
// keeps the post and its fields, and the browser sends it with the cookie of
// that game's path, so a browser already seated there keeps its seat rather
// than taking a second.
func (h *Handler) joinByCode(c echo.Context) error {
	code := strings.ToLower(strings.TrimSpace(c.FormValue("code")))
	if i := strings.LastIndex(code, "/games/"); i >= 0 {
		code = strings.Trim(code[i+len("/games/"):], "/")
	}
	if code == "" {
		return h.renderLobby(c, http.StatusBadRequest, "Type the code of the table to join.")
	}
	if !naming.ValidGameID(code) {
		status, _, msg := describe(httpx.ErrNoGame)
		return h.renderLobby(c, status, msg)
	}
	return c.Redirect(http.StatusTemporaryRedirect, "/games/"+url.PathEscape(code)+"/join")
}
