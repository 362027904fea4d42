package web

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/labstack/echo/v4"

	"bullshit/internal/httpx"
	"bullshit/players"
	"bullshit/views"
)

// Accounts is what the pages need of the accounts (*players.Service).
type Accounts interface {
	SignUp(ctx context.Context, name, password, addr string) (players.NewSession, error)
	SignIn(ctx context.Context, name, password, addr string) (players.NewSession, error)
	Session(ctx context.Context, cookie string) (players.Session, error)
	SignOut(ctx context.Context, cookie string) error
	SignOutEverywhere(ctx context.Context, cookie string) error
	ChangePassword(ctx context.Context, cookie, current, next, addr string) error
	SetBot(ctx context.Context, accountID int64, bot bool) error
	CreateToken(ctx context.Context, accountID int64, name string) (string, players.Token, error)
	Tokens(ctx context.Context, accountID int64) ([]players.Token, error)
	RevokeToken(ctx context.Context, accountID, tokenID int64) error
	Leaderboard(ctx context.Context, show string, page, size int) (players.Leaderboard, error)
	Profile(ctx context.Context, name string) (players.Profile, error)
}

// sessionCookie holds a signed-in browser's session (see players): HttpOnly
// so no script can read it, SameSite=Lax so another site's form posts
// without it.
const sessionCookie = "session"

// The context keys of the request's account and its session cookie.
const (
	accountKey = "account"
	sessionKey = "session"
)

// registerAccounts adds the account pages, the leaderboard and the player
// pages, with the pages' checks (r's middleware).
func (h *Handler) registerAccounts(r routes) {
	r.GET("/signup", h.signUpPage)
	r.POST("/signup", h.signUp)
	r.GET("/signin", h.signInPage)
	r.POST("/signin", h.signIn)
	r.POST("/signout", h.signOut)
	r.GET("/account", h.accountPage)
	r.POST("/account/password", h.changePassword)
	r.POST("/account/everywhere", h.signOutEverywhere)
	r.POST("/account/bot", h.setBot)
	r.POST("/account/tokens", h.createToken)
	r.POST("/account/tokens/:token/revoke", h.revokeToken)
	r.GET("/leaderboard", h.leaderboardPage)
	r.GET("/players/:name", h.playerPage)
}

// signedIn reads the session cookie, if any, and puts its account on the
// request for the handlers and the site bar. A cookie whose session has
// ended is cleared; a live one is renewed on every page, so it lasts as
// long as the session it carries.
func (h *Handler) signedIn(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		k, err := c.Cookie(sessionCookie)
		if h.accounts == nil || err != nil || k.Value == "" {
			return next(c)
		}
		ses, err := h.accounts.Session(c.Request().Context(), k.Value)
		switch {
		case errors.Is(err, players.ErrNoSession):
			h.clearSession(c)
		case err != nil:
			// The page still works for a guest; the next page tries again.
			h.log.Warn("reading a session failed", "err", err)
		default:
			c.Set(accountKey, ses.Account)
			c.Set(sessionKey, k.Value)
			if c.Request().Method == http.MethodGet && c.Request().Header.Get("HX-Request") != "true" {
				h.setSession(c, k.Value, ses.Expires)
			}
		}
		return next(c)
	}
}

// account is the request's signed-in account; ok is false for a guest.
func account(c echo.Context) (players.Account, bool) {
	a, ok := c.Get(accountKey).(players.Account)
	return a, ok
}

func sessionValue(c echo.Context) string {
	s, _ := c.Get(sessionKey).(string)
	return s
}

func (h *Handler) setSession(c echo.Context, value string, expires time.Time) {
	h.setCookie(c, &http.Cookie{Name: sessionCookie, Value: value, Path: "/", Expires: expires})
}

func (h *Handler) clearSession(c echo.Context) {
	h.setCookie(c, &http.Cookie{Name: sessionCookie, Value: "", Path: "/", MaxAge: -1})
}

var errNoAccounts = &pageError{status: http.StatusNotFound, title: "No accounts here",
	message: "This server doesn't keep accounts: play as a guest."}

// refusal turns an account's refusal, or any other a person can fix, into
// the status and words to show; ok is false for any other error, which is
// the server's fault.
func refusal(c echo.Context, err error) (status int, msg string, ok bool) {
	if _, isAccounts := errors.AsType[*players.Error](err); !isAccounts && !isRefusal(err) {
		return 0, "", false
	}
	status, _, msg = describe(err)
	httpx.SetRetryAfter(c.Response().Header(), err)
	return status, msg, true
}

// localPath is next if it is plainly a path on this site, else "/account":
// a sign-in must not send anyone to another site. A browser reads a
// Location by the WHATWG URL rules, which drop tabs and newlines anywhere,
// trim spaces and control characters at the ends and read a backslash as a
// slash, so "/\t/evil.example" would take it to //evil.example. Rather than
// follow those rules, anything they could change is refused: every control
// character, space and backslash, and anything that reads with a scheme or
// a host.
func localPath(next string) string {
	const fallback = "/account"
	if !strings.HasPrefix(next, "/") || strings.HasPrefix(next, "//") ||
		strings.ContainsFunc(next, func(r rune) bool { return r == '\\' || unicode.IsControl(r) || unicode.IsSpace(r) }) {
		return fallback
	}
	u, err := url.Parse(next)
	if err != nil || u.Scheme != "" || u.Host != "" || u.User != nil || !strings.HasPrefix(u.Path, "/") {
		return fallback
	}
	return next
}

func (h *Handler) signForm(c echo.Context, up bool, status int, name, problem string) error {
	if h.accounts == nil {
		return errNoAccounts
	}
	title := "Sign in · Bullshit"
	if up {
		title = "Make an account · Bullshit"
	}
	next := c.FormValue("next")
	if next == "" {
		next = c.QueryParam("next")
	}
	f := views.SignForm{Shell: h.shell(c, title, "account"), Up: up, Name: name, Next: localPath(next), Error: problem}
	return render(c, status, views.SignView(f))
}

func (h *Handler) signUpPage(c echo.Context) error {
	if _, ok := account(c); ok {
		return c.Redirect(http.StatusSeeOther, "/account")
	}
	return h.signForm(c, true, http.StatusOK, "", "")
}

func (h *Handler) signInPage(c echo.Context) error {
	if _, ok := account(c); ok {
		return c.Redirect(http.StatusSeeOther, localPath(c.QueryParam("next")))
	}
	return h.signForm(c, false, http.StatusOK, "", "")
}

func (h *Handler) signUp(c echo.Context) error {
	return h.sign(c, true)
}

func (h *Handler) signIn(c echo.Context) error {
	return h.sign(c, false)
}

// sign signs up or in from the form, sets the session cookie and goes on to
// the page asked for. An unknown name and a wrong password get the same
// words, the players service's.
func (h *Handler) sign(c echo.Context, up bool) error {
	if h.accounts == nil {
		return errNoAccounts
	}
	name, password := c.FormValue("name"), c.FormValue("password")
	ctx, addr := c.Request().Context(), c.RealIP()
	var (
		ns  players.NewSession
		err error
	)
	if up {
		ns, err = h.accounts.SignUp(ctx, name, password, addr)
	} else {
		ns, err = h.accounts.SignIn(ctx, name, password, addr)
	}
	if err != nil {
		status, msg, ok := refusal(c, err)
		if !ok {
			return err
		}
		return h.signForm(c, up, status, name, msg)
	}
	h.setSession(c, ns.Cookie, ns.Expires)
	h.setName(c, ns.Account.Name)
	return c.Redirect(http.StatusSeeOther, localPath(c.FormValue("next")))
}

func (h *Handler) signOut(c echo.Context) error {
	if h.accounts != nil {
		if k, err := c.Cookie(sessionCookie); err == nil {
			if err := h.accounts.SignOut(c.Request().Context(), k.Value); err != nil {
				return err
			}
		}
	}
	h.clearSession(c)
	return c.Redirect(http.StatusSeeOther, "/")
}

// mustSignIn is the request's account, or a redirect to sign in first.
func (h *Handler) mustSignIn(c echo.Context) (players.Account, error) {
	if h.accounts == nil {
		return players.Account{}, errNoAccounts
	}
	a, ok := account(c)
	if !ok {
		return a, c.Redirect(http.StatusSeeOther, "/signin?next=%2Faccount")
	}
	return a, nil
}

// notices are what the account page says after a change, by the key its
// redirect carries: never words from the address itself.
var notices = map[string]string{
	"password": "Your password is changed, and every other session is signed out.",
	"bot":      "Saved.",
	"revoked":  "The token is revoked: it no longer works.",
}

func (h *Handler) accountPage(c echo.Context) error {
	a, err := h.mustSignIn(c)
	if err != nil || c.Response().Committed {
		return err
	}
	return h.renderAccount(c, a, http.StatusOK, views.AccountPage{Notice: notices[c.QueryParam("done")]})
}

// renderAccount writes the account page with p's notices, its tokens read
// afresh.
func (h *Handler) renderAccount(c echo.Context, a players.Account, status int, p views.AccountPage) error {
	tokens, err := h.accounts.Tokens(c.Request().Context(), a.ID)
	if err != nil {
		return err
	}
	p.Shell, p.Name, p.Bot = h.shell(c, a.Name+" · Bullshit", "account"), a.Name, a.Bot
	for _, t := range tokens {
		row := views.TokenRow{ID: strconv.FormatInt(t.ID, 10), Name: t.Name, Created: day(t.CreatedAt), LastUsed: "never"}
		if !t.LastUsed.IsZero() {
			row.LastUsed = t.LastUsed.UTC().Format("2 Jan 2006 15:04 UTC")
		}
		p.Tokens = append(p.Tokens, row)
	}
	return render(c, status, views.AccountView(p))
}

// accountChange runs a change the account page posts: on success back to
// the page with done's notice, on a refusal the page with its words.
func (h *Handler) accountChange(c echo.Context, done string, change func(players.Account) error) error {
	a, err := h.mustSignIn(c)
	if err != nil || c.Response().Committed {
		return err
	}
	if err := change(a); err != nil {
		status, msg, ok := refusal(c, err)
		if !ok {
			return err
		}
		return h.renderAccount(c, a, status, views.AccountPage{Error: msg})
	}
	return c.Redirect(http.StatusSeeOther, "/account?done="+done)
}

func (h *Handler) changePassword(c echo.Context) error {
	return h.accountChange(c, "password", func(players.Account) error {
		return h.accounts.ChangePassword(c.Request().Context(), sessionValue(c), c.FormValue("current"), c.FormValue("password"), c.RealIP())
	})
}

func (h *Handler) setBot(c echo.Context) error {
	return h.accountChange(c, "bot", func(a players.Account) error {
		return h.accounts.SetBot(c.Request().Context(), a.ID, c.FormValue("bot") == "1")
	})
}

func (h *Handler) revokeToken(c echo.Context) error {
	return h.accountChange(c, "revoked", func(a players.Account) error {
		id, err := strconv.ParseInt(c.Param("token"), 10, 64)
		if err != nil {
			return echo.ErrNotFound
		}
		return h.accounts.RevokeToken(c.Request().Context(), a.ID, id)
	})
}

func (h *Handler) signOutEverywhere(c echo.Context) error {
	if _, err := h.mustSignIn(c); err != nil || c.Response().Committed {
		return err
	}
	if err := h.accounts.SignOutEverywhere(c.Request().Context(), sessionValue(c)); err != nil && !errors.Is(err, players.ErrNoSession) {
		return err
	}
	h.clearSession(c)
	return c.Redirect(http.StatusSeeOther, "/signin")
}

// createToken makes an API token and shows it in this answer only: it is
// never in an address, a log or a later page.
func (h *Handler) createToken(c echo.Context) error {
	a, err := h.mustSignIn(c)
	if err != nil || c.Response().Committed {
		return err
	}
	secret, t, err := h.accounts.CreateToken(c.Request().Context(), a.ID, c.FormValue("name"))
	if err != nil {
		status, msg, ok := refusal(c, err)
		if !ok {
			return err
		}
		return h.renderAccount(c, a, status, views.AccountPage{Error: msg})
	}
	return h.renderAccount(c, a, http.StatusOK, views.AccountPage{NewToken: secret, NewTokenName: t.Name})
}

// day is a date as the pages print it.
func day(t time.Time) string { return t.UTC().Format("2 Jan 2006") }
