package api

import (
	"errors"
	"net/http"
	"slices"
	"strconv"
	"time"

	"github.com/labstack/echo/v4"

	"bullshit/engine"
	"bullshit/live"
	"bullshit/players"
)

// The codes the API itself adds to the engine's and the runtime's.
const (
	codeRateLimited      = "rate_limited"
	codeTooLarge         = "too_large"
	codeMethodNotAllowed = "method_not_allowed"
	codeInternal         = "internal"
)

// statuses is the one table from an error's code to its HTTP status. Every
// code a client can see is here; a code missing from it answers 500.
var statuses = map[string]int{
	string(engine.CodeNotYourTurn): http.StatusUnprocessableEntity,
	string(engine.CodeIllegal):     http.StatusUnprocessableEntity,
	string(engine.CodeStale):       http.StatusConflict,
	string(engine.CodeOver):        http.StatusConflict,
	string(engine.CodeBadOptions):  http.StatusUnprocessableEntity,
	string(live.CodeNotFound):      http.StatusNotFound,
	string(live.CodeUnauthorized):  http.StatusUnauthorized,
	string(live.CodeForbidden):     http.StatusForbidden,
	string(live.CodeConflict):      http.StatusConflict,
	string(live.CodeInvalid):       http.StatusBadRequest,
	string(live.CodeUnavailable):   http.StatusServiceUnavailable,
	string(live.CodeBroken):        http.StatusConflict,
	string(live.CodeTooManyTables): http.StatusTooManyRequests,
	string(live.CodeLobbyFull):     http.StatusConflict,
	codeRateLimited:                http.StatusTooManyRequests,
	codeTooLarge:                   http.StatusRequestEntityTooLarge,
	codeMethodNotAllowed:           http.StatusMethodNotAllowed,
	codeInternal:                   http.StatusInternalServerError,
}

// Problem is the body of every error the API answers with.
type Problem struct {
	Error string `json:"error"`
	Code  string `json:"code"`
}

// apiError is a refusal the API makes before the game is asked, such as a
// body that isn't JSON or a client sending too fast.
type apiError struct {
	code       string
	message    string
	retryAfter int // seconds, for rate_limited
}

func (e *apiError) Error() string { return e.message }

func invalid(msg string) error { return &apiError{code: string(live.CodeInvalid), message: msg} }

// problem turns any error into its status and body. ok is false for an error
// nobody planned for, which is logged and answered without its details.
func problem(err error) (status int, p Problem, ok bool) {
	var (
		ee *engine.Error
		le *live.Error
		ae *apiError
		pe *players.Error
		he *echo.HTTPError
	)
	switch {
	case errors.As(err, &pe):
		p = Problem{Error: pe.Message, Code: string(pe.Code)}
	case errors.As(err, &ee):
		p = Problem{Error: ee.Message, Code: string(ee.Code)}
	case errors.As(err, &le):
		p = Problem{Error: le.Message, Code: string(le.Code)}
	case errors.As(err, &ae):
		p = Problem{Error: ae.message, Code: ae.code}
	case errors.As(err, &he):
		p = routeProblem(he.Code)
	default:
		return http.StatusInternalServerError, internalProblem, false
	}
	status, known := statuses[p.Code]
	if !known {
		return http.StatusInternalServerError, internalProblem, false
	}
	return status, p, true
}

var internalProblem = Problem{Error: "Something went wrong on our side. Try again in a moment.", Code: codeInternal}

// routeProblem words the router's own refusals.
func routeProblem(status int) Problem {
	switch status {
	case http.StatusNotFound:
		return Problem{Error: "There's nothing at that address.", Code: string(live.CodeNotFound)}
	case http.StatusMethodNotAllowed:
		return Problem{Error: "That address doesn't take that method.", Code: codeMethodNotAllowed}
	case http.StatusRequestEntityTooLarge:
		return Problem{Error: "The request is too large.", Code: codeTooLarge}
	case http.StatusBadRequest:
		return Problem{Error: "The request couldn't be read.", Code: string(live.CodeInvalid)}
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
	if wait := RetryAfter(err); wait > 0 {
		c.Response().Header().Set("Retry-After", strconv.Itoa(wait))
	}
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
	codes := make([]string, 0, len(statuses))
	for c := range statuses {
		codes = append(codes, c)
	}
	slices.Sort(codes)
	return codes
}

// RetryAfter is the seconds a refusal asks the client to wait, rounded up;
// 0 for none.
func RetryAfter(err error) int {
	var (
		ae *apiError
		pe *players.Error
	)
	switch {
	case errors.As(err, &ae):
		return ae.retryAfter
	case errors.As(err, &pe) && pe.RetryAfter > 0:
		return int((pe.RetryAfter + time.Second - 1) / time.Second)
	}
	return 0
}

// StatusOf is the HTTP status the API answers err with, from the same table,
// so the browser pages map a refusal as the API does.
func StatusOf(err error) int {
	status, _, _ := problem(err)
	return status
}
