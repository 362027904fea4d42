package api

import (
	"context"
	"net/http"

	"github.com/labstack/echo/v4"

	"bullshit/errcode"
	"bullshit/game"
	"bullshit/players"
)

// Players is what the API needs of the accounts (*players.Service).
type Players interface {
	TokenAccount(ctx context.Context, token string) (players.Account, error)
}

// accountKey is the context key a handler reads the request's account by.
const accountKey = "account"

var (
	errNoAccountToken = &game.Error{Code: errcode.Unauthorized,
		Message: "This needs an account's API token: send it as \"Authorization: Bearer " + players.TokenPrefix + "...\"."}
	errNoAccounts = &game.Error{Code: errcode.Unauthorized, Message: "This server doesn't take account tokens."}
)

// withAccount requires an account's API token and sets its account.
func (s *Server) withAccount(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		token, err := bearer(c, false)
		if err != nil {
			return err
		}
		if !players.IsToken(token) {
			return errNoAccountToken
		}
		return s.asAccount(c, token, next)
	}
}

// maybeAccount sets the account when the request carries an account's API
// token, and lets any other request through as a guest's, as before
// accounts: a seat's token sent along is not the creator's identity.
func (s *Server) maybeAccount(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		token, err := bearer(c, false)
		if err != nil || !players.IsToken(token) {
			return next(c)
		}
		return s.asAccount(c, token, next)
	}
}

func (s *Server) asAccount(c echo.Context, token string, next echo.HandlerFunc) error {
	if s.players == nil {
		return errNoAccounts
	}
	acc, err := s.players.TokenAccount(c.Request().Context(), token)
	if err != nil {
		return err
	}
	if ok, wait := s.byTok.Allow(token); !ok {
		return tooFast(wait)
	}
	c.Set(accountKey, acc)
	return next(c)
}

// accountOf is the request's account; the zero Account (ID 0) for a guest.
func accountOf(c echo.Context) players.Account {
	acc, _ := c.Get(accountKey).(players.Account)
	return acc
}

// me answers with the account of the request's API token.
func (s *Server) me(c echo.Context) error {
	return c.JSON(http.StatusOK, accountOf(c))
}
