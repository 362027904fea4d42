package web_test

import (
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"
)

// TestBadBytesAreRefusedNotFailed sends a NUL, a NUL inside a name and a
// byte that isn't UTF-8 in every parameter a request can carry, to the API
// and to the pages: each is the client's mistake, answered below 500
// without an error line, never a database's failure (bun writes a string
// with a NUL into the SQL text as a marker the database can't parse).
func TestBadBytesAreRefusedNotFailed(t *testing.T) {
	s := newAccountSite(t)
	b := s.browser()
	id := b.create("Ada", "3")
	for _, bad := range []string{"%00", "a%00b", "x%00", "%FF", "Al%FFce"} {
		for _, r := range []struct {
			method, path, form string
			want               int // 0 for any refusal below 500
		}{
			{"GET", "/api/v1/games?player=" + bad, "", http.StatusBadRequest},
			{"GET", "/api/v1/games?status=finished&player=" + bad, "", http.StatusBadRequest},
			{"GET", "/api/v1/games?status=" + bad, "", 0},
			{"GET", "/api/v1/games?offset=" + bad + "&limit=" + bad, "", 0},
			{"GET", "/api/v1/games/" + bad, "", 0},
			{"GET", "/api/v1/games/" + bad + "/events?token=" + bad, "", 0},
			{"GET", "/api/v1/games/" + id + "/view", "", 0},
			{"GET", "/api/v1/players/" + bad, "", 0},
			{"GET", "/api/v1/leaderboard?show=" + bad + "&page=" + bad, "", 0},
			{"POST", "/api/v1/games/" + id + "/join", `{"name":"` + strings.ReplaceAll(bad, "%", `\u00`) + `"}`, 0},
			{"GET", "/games?player=" + bad, "", http.StatusBadRequest},
			{"GET", "/games?page=" + bad, "", 0},
			{"GET", "/games/" + bad, "", http.StatusNotFound},
			{"GET", "/games/" + bad + "/frame", "", http.StatusNotFound},
			{"GET", "/games/" + bad + "/hint?sneak=" + bad, "", http.StatusNotFound},
			{"GET", "/games/" + bad + "/events", "", http.StatusNotFound},
			{"GET", "/games/" + bad + "/review", "", http.StatusNotFound},
			{"GET", "/games/" + id + "/review/step?step=" + bad, "", 0},
			{"GET", "/players/" + bad, "", 0},
			{"GET", "/leaderboard?show=" + bad + "&page=" + bad, "", 0},
			{"GET", "/signin?next=" + bad, "", 0},
			{"POST", "/join", "code=" + bad + "&name=" + bad, 0},
			{"POST", "/games", "name=" + bad + "&bots=" + bad + "&seed=" + bad, 0},
			{"POST", "/games/" + id + "/join", "name=" + bad, 0},
			{"POST", "/games/" + bad + "/play", "no=" + bad + "&card=" + bad, http.StatusNotFound},
			{"POST", "/signin", "name=" + bad + "&password=" + bad + "&next=" + bad, http.StatusUnauthorized},
			{"POST", "/signup", "name=" + bad + "&password=" + bad + "password", 0},
			{"POST", "/options", "light=" + bad, 0},
		} {
			var req *http.Request
			if r.method == http.MethodGet {
				req, _ = http.NewRequest(r.method, s.srv.URL+r.path, nil)
			} else {
				req, _ = http.NewRequest(r.method, s.srv.URL+r.path, strings.NewReader(r.form))
				req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
				if strings.HasPrefix(r.path, "/api/") {
					req.Header.Set("Content-Type", "application/json")
				}
			}
			if req.URL.RawQuery != "" {
				if _, err := url.ParseQuery(req.URL.RawQuery); err != nil {
					t.Fatal(err)
				}
			}
			p := b.do(req)
			if p.status >= 500 || (r.want != 0 && p.status != r.want) {
				t.Errorf("%s %s %s: got %d, want %s", r.method, r.path, r.form, p.status, wantStatus(r.want))
			}
		}
	}
	if logs := s.logs.String(); strings.Contains(logs, "level=ERROR") {
		t.Errorf("bad bytes logged errors:\n%s", logs)
	}
}

func wantStatus(s int) string {
	if s == 0 {
		return "a refusal below 500"
	}
	return strconv.Itoa(s)
}
