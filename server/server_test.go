package server_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"bullshit/api"
	"bullshit/internal/clocks/fakeclock"
	"bullshit/server"
	"bullshit/store"
	"bullshit/store/storetest"
)

// TestErrorsByPath: one router, two kinds of error answer. A browser's path
// gets an HTML page; the API's keep their JSON problem.
func TestErrorsByPath(t *testing.T) {
	ctx := context.Background()
	st, err := store.Open(ctx, storetest.URL(t))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	site, err := server.Assemble(ctx, st, fakeclock.New(time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC)), nil, server.Settings{})
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		if err := site.Close(ctx); err != nil {
			t.Error(err)
		}
	}()
	srv := httptest.NewServer(site.Handler)
	defer srv.Close()

	tests := []struct {
		method, path string
		status       int
		json         bool
		code         string // the API's error code, or text the page must hold
	}{
		{"GET", "/no-such-page", 404, false, "Nothing here"},
		{"GET", "/games/nosuchgame", 404, false, "no game"},
		{"GET", "/api/v1/nothing", 404, true, "not_found"},
		{"GET", "/api/v1/games/nosuchgame", 404, true, "not_found"},
		{"DELETE", "/api/v1/games", 405, true, "method_not_allowed"},
		{"GET", "/healthz", 200, true, ""},
	}
	for _, tt := range tests {
		req, _ := http.NewRequest(tt.method, srv.URL+tt.path, nil)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		ctype := resp.Header.Get("Content-Type")
		if resp.StatusCode != tt.status {
			t.Errorf("%s %s: got %d, want %d", tt.method, tt.path, resp.StatusCode, tt.status)
		}
		if tt.json {
			var p api.Problem
			if !strings.HasPrefix(ctype, "application/json") || json.Unmarshal(body, &p) != nil || p.Code != tt.code {
				t.Errorf("%s %s: got %s %s, want JSON with code %q", tt.method, tt.path, ctype, body, tt.code)
			}
			continue
		}
		if !strings.HasPrefix(ctype, "text/html") || !strings.Contains(string(body), "<!doctype html>") || !strings.Contains(string(body), tt.code) {
			t.Errorf("%s %s: got %s, want an HTML page saying %q:\n%s", tt.method, tt.path, ctype, tt.code, body)
		}
	}
}
