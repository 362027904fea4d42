package api_test

import (
	"context"
	"net/http"
	"slices"
	"strings"
	"testing"

	"bullshit/api"
	"bullshit/api/client"
)

// TestListSearchesByPlayer: the list takes a player's name and an offset,
// answers a page at a time with "more", and refuses a bad offset or name.
func TestListSearchesByPlayer(t *testing.T) {
	w := newWorld(t, worldOptions{})
	ctx := context.Background()
	var ada []string
	for i, host := range []string{"Ada", "Ben", "Ada", "ada", "Cy"} {
		j, err := w.client("").Create(ctx, client.CreateBody{Seats: 3, Name: host})
		if err != nil {
			t.Fatalf("table %d: %v", i, err)
		}
		if strings.EqualFold(host, "ada") {
			ada = append(ada, j.Game.ID)
		}
	}
	// Tables made at the same moment are listed by their codes, last first.
	slices.Sort(ada)
	slices.Reverse(ada)
	tests := []struct {
		query string
		want  []string
		more  bool
	}{
		{"?status=open&player=Ada", ada, false},
		{"?status=open&player=ADA&limit=2", ada[:2], true},
		{"?status=open&player=%20ada%20&limit=2&offset=2", ada[2:], false},
		{"?status=finished&player=Ada", nil, false},
		{"?player=Nobody", nil, false},
	}
	for _, tt := range tests {
		a := w.do(http.MethodGet, "/api/v1/games"+tt.query, "", "")
		if a.status != http.StatusOK {
			t.Fatalf("GET %s: got %d %s, want 200", tt.query, a.status, a.body)
		}
		l := decodeInto[api.GameList](t, a)
		var got []string
		for _, g := range l.Games {
			got = append(got, g.ID)
		}
		if !slices.Equal(got, tt.want) || l.More != tt.more {
			t.Errorf("GET %s: got %v (more %v), want %v (more %v)", tt.query, got, l.More, tt.want, tt.more)
		}
	}
	for _, q := range []string{"?offset=-1", "?offset=x", "?offset=100001", "?player=" + strings.Repeat("a", 33)} {
		if a := w.do(http.MethodGet, "/api/v1/games"+q, "", ""); a.status != http.StatusBadRequest || a.problem().Code == "" {
			t.Errorf("GET %s: got %d %s, want 400 with a code", q, a.status, a.body)
		}
	}
}
