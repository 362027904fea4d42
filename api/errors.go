package api

import (
	"errors"
	"net/http"

	"github.com/labstack/echo/v4"

	"bullshit/errcode"
	"bullshit/internal/httpx"
)

// Problem is the body of every error the API answers with.
type Problem struct {
	Error string `json:"error"`
	Code  string `json:"code"`
}

func invalid(msg string) error { return &httpx.Error{Code: errcode.Invalid, Message: msg} }

// problem turns any error into its status and body. ok is false for an error
// nobody planned for, which is logged and answered without its details.
func problem(err error) (status int, p Problem, ok bool) {
	var he *echo.HTTPError
	if code, msg, refused := errcode.Of(err); refused {
		p = Problem{Error: msg, Code: string(code)}
	} else if errors.As(err, &he) {
		p = routeProblem(he.Code)
	} else {
		return http.StatusInternalServerError, internalProblem, false
	}
	if !errcode.Known(errcode.Code(p.Code)) {
		return http.StatusInternalServerError, internalProblem, false
	}
	return errcode.Status(errcode.Code(p.Code)), p, true
}

var internalProblem = coded(errcode.Internal)

// coded is the problem of a refusal with code in the table's plain words.
func coded(code errcode.Code) Problem {
	return Problem{Error: errcode.Message(code), Code: string(code)}
}

// routeProblem words the router's own refusals.
func routeProblem(status int) Problem {
	switch status {
	case http.StatusNotFound:
		return coded(errcode.NotFound)
	case http.StatusMethodNotAllowed:
		return coded(errcode.MethodNotAllowed)
	case http.StatusRequestEntityTooLarge:
		return coded(errcode.TooLarge)
	case http.StatusBadRequest:
		return coded(errcode.Invalid)
	}
	return internalProblem
}

// HandleError is echo's error handler for the API's paths: every error
// leaves as a Problem.
func (s *Server) HandleError(err error, c echo.Context) {
	if c.Response().Committed {
		return
	}
	status, p, ok := problem(err)
	if !ok {
		s.log.Error("request failed", "method", c.Request().Method, "path", c.Path(), "err", err)
	}
	httpx.SetRetryAfter(c.Response().Header(), err)
	if c.Request().Method == http.MethodHead {
		err = c.NoContent(status)
	} else {
		err = c.JSON(status, p)
	}
	if err != nil {
		s.log.Debug("writing an error failed", "err", err)
	}
}

// Codes lists every error code the API answers with, sorted.
func Codes() []string {
	var codes []string
	for _, c := range errcode.Codes() {
		codes = append(codes, string(c))
	}
	return codes
}
