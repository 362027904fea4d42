package api

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/labstack/echo/v4"

	"bullshit/engine"
	"bullshit/errcode"
	"bullshit/game"
)

func TestProblem(t *testing.T) {
	tests := []struct {
		name   string
		err    error
		status int
		code   string
		ok     bool
	}{
		{"not your turn", &engine.Error{Code: engine.CodeNotYourTurn, Message: "It isn't your turn."}, 422, "not_your_turn", true},
		{"illegal", &engine.Error{Code: engine.CodeIllegal, Message: "That card isn't in your hand."}, 422, "illegal", true},
		{"stale", &engine.Error{Code: engine.CodeStale, Message: "Too late."}, 409, "stale", true},
		{"over", &engine.Error{Code: engine.CodeOver, Message: "The game is over."}, 409, "over", true},
		{"bad options", &engine.Error{Code: engine.CodeBadOptions, Message: "A table seats 3 to 10 players."}, 422, "bad_options", true},
		{"not found", &game.Error{Code: errcode.NotFound, Message: "No such game."}, 404, "not_found", true},
		{"no token", &game.Error{Code: errcode.Unauthorized, Message: "No token."}, 401, "unauthorized", true},
		{"not host", &game.Error{Code: errcode.Forbidden, Message: "Only the host."}, 403, "forbidden", true},
		{"full", &game.Error{Code: errcode.Conflict, Message: "The table is full."}, 409, "conflict", true},
		{"invalid", &game.Error{Code: errcode.Invalid, Message: "Too long."}, 400, "invalid", true},
		{"unavailable", &game.Error{Code: errcode.Unavailable, Message: "Shutting down."}, 503, "unavailable", true},
		{"rate limited", tooFast(3), 429, "rate_limited", true},
		{"too large", errTooLarge, 413, "too_large", true},
		{"wrapped", fmt.Errorf("acting: %w", &engine.Error{Code: engine.CodeStale, Message: "Too late."}), 409, "stale", true},
		{"no route", echo.ErrNotFound, 404, "not_found", true},
		{"wrong method", echo.ErrMethodNotAllowed, 405, "method_not_allowed", true},
		{"unknown code", &game.Error{Code: "mystery", Message: "?"}, 500, "internal", false},
		{"plain error", errors.New("disk on fire"), 500, "internal", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			status, p, ok := problem(tt.err)
			if status != tt.status || p.Code != tt.code || ok != tt.ok {
				t.Errorf("problem(%v) = %d %q %v, want %d %q %v", tt.err, status, p.Code, ok, tt.status, tt.code, tt.ok)
			}
			if p.Error == "" {
				t.Errorf("problem(%v) has no message", tt.err)
			}
			if !ok && p.Error == tt.err.Error() {
				t.Errorf("problem(%v) shows an internal error's text to the client", tt.err)
			}
		})
	}
}

// broken is a game.Service whose every method panics (its embedded interface is
// nil), standing in for a bug.
type broken struct{ game.Service }

func TestPanicAnswers500(t *testing.T) {
	srv := New(Config{Games: broken{}})
	rec := httptest.NewRecorder()
	srv.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/api/v1/games", nil))
	var p Problem
	if err := json.Unmarshal(rec.Body.Bytes(), &p); err != nil {
		t.Fatalf("the answer isn't a Problem: %v: %s", err, rec.Body)
	}
	if rec.Code != http.StatusInternalServerError || p.Code != "internal" || strings.Contains(p.Error, "nil pointer") {
		t.Errorf("a panicking handler answered %d %+v, want 500 internal without the panic's text", rec.Code, p)
	}
}
