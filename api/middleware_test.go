package api

import (
	"bytes"
	"context"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/labstack/echo/v4"

	"bullshit/engine"
	"bullshit/game"
)

// seatRecorder is a game.Service that records the seat of every call that acts for
// one, and answers each with nothing.
type seatRecorder struct {
	game.Service // nil: any other call panics

	mu    sync.Mutex
	calls []string
}

func (g *seatRecorder) record(what string, seat int) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.calls = append(g.calls, what+" as seat "+strconv.Itoa(seat))
}

func (g *seatRecorder) Get(ctx context.Context, id string) (game.Summary, error) {
	return game.Summary{ID: id, Status: game.StatusLive}, nil
}
func (g *seatRecorder) Start(_ context.Context, _ string, by int) error {
	g.record("start", by)
	return nil
}
func (g *seatRecorder) Leave(_ context.Context, _ string, seat int) error {
	g.record("leave", seat)
	return nil
}
func (g *seatRecorder) End(_ context.Context, _ string, by int) error {
	g.record("end", by)
	return nil
}
func (g *seatRecorder) HandToBot(_ context.Context, _ string, by, _ int) error {
	g.record("hand to a bot", by)
	return nil
}
func (g *seatRecorder) View(_ context.Context, _ string, seat int) (engine.View, error) {
	g.record("view", seat)
	return engine.View{Seat: seat, Phase: engine.PhaseOver}, nil
}
func (g *seatRecorder) Log(_ context.Context, _ string, seat int) ([]engine.Event, error) {
	g.record("log", seat)
	return nil, nil
}
func (g *seatRecorder) Move(_ context.Context, _, _ string, a engine.Action) (game.Frame, error) {
	g.record("move", a.Seat)
	return game.Frame{Seat: a.Seat}, nil
}

// TestRouteWithoutSeatFailsClosed mounts every handler that acts for a seat
// without the middleware that sets it: each must refuse with a 500 and a log
// line rather than act as seat 0, the host.
func TestRouteWithoutSeatFailsClosed(t *testing.T) {
	games := &seatRecorder{}
	var logs bytes.Buffer
	s := New(Config{Games: games, Logger: slog.New(slog.NewTextHandler(&logs, nil))})
	tests := []struct {
		name, method string
		handler      echo.HandlerFunc
		body         string
	}{
		{"start", http.MethodPost, s.start, ""},
		{"leave", http.MethodPost, s.leave, ""},
		{"end", http.MethodPost, s.end, ""},
		{"hand to a bot", http.MethodPost, s.handToBot, ""},
		{"view", http.MethodGet, s.view, ""},
		{"log", http.MethodGet, s.gameLog, ""},
		{"play", http.MethodPost, s.act(engine.ActPlay), `{"no":0,"cards":["AS"]}`},
		{"call", http.MethodPost, s.act(engine.ActCall), `{"no":0}`},
		{"events", http.MethodGet, s.events, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := "/bare/" + strings.ReplaceAll(tt.name, " ", "-") + "/games/:id/seats/:seat"
			s.echo.Add(tt.method, path, tt.handler)
			logs.Reset()
			req := httptest.NewRequest(tt.method, strings.NewReplacer(":id", "abcdefgh", ":seat", "1").Replace(path), strings.NewReader(tt.body))
			rec := httptest.NewRecorder()
			s.ServeHTTP(rec, req)
			if rec.Code != http.StatusInternalServerError {
				t.Errorf("got %d %s, want 500", rec.Code, rec.Body)
			}
			if !strings.Contains(logs.String(), "level=ERROR") || !strings.Contains(logs.String(), "has no seat") {
				t.Errorf("got the log %q, want an error line saying the route has no seat", logs.String())
			}
		})
	}
	if len(games.calls) != 0 {
		t.Errorf("got the calls %q, want none", games.calls)
	}
}
