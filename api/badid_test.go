package api_test

import (
	"bytes"
	"log/slog"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"bullshit/api"
	"bullshit/game"
)

// syncBuffer is a log the server and the test share.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// badIDs are game codes no game can have, as they appear in a path.
var badIDs = []string{
	"%00",        // a NUL byte
	"abcdefg%00", // eight characters, one of them NUL
	"abcdefgh%00",
	"abc",           // too short
	"abcdefghi",     // too long
	"abcdefg1",      // 1 isn't in the alphabet
	"abcdefg%C3%A9", // é
	"%20bcdefgh",    // a space
	"abcd%27efg",    // a quote
	strings.Repeat("a", 300),
}

// TestBadGameIDs sends every route that takes a game code each code that
// can't be one: each is "no such game", logged as nothing worse, and never
// reaches the runtime or the store.
func TestBadGameIDs(t *testing.T) {
	var logs syncBuffer
	w := newWorld(t, worldOptions{logger: slog.New(slog.NewTextHandler(&logs, nil))})
	// A server whose runtime panics on any call: a 404 from it was answered
	// before any look-up.
	unlimited := api.Rate{PerSecond: 1e6, Burst: 1e6}
	bare := httptest.NewServer(api.New(api.Config{Games: struct{ game.Service }{}, PerAddress: unlimited, PerToken: unlimited}))
	defer bare.Close()

	var routes int
	for _, r := range api.New(api.Config{}).Routes() {
		method, path := r[0], r[1]
		if !strings.Contains(path, ":id") {
			continue
		}
		routes++
		for _, id := range badIDs {
			p := strings.NewReplacer(":id", id, ":seat", "1").Replace(path)
			body := ""
			if method == "POST" {
				body = `{"no":0,"name":"Al","cards":["AS"]}`
			}
			for name, base := range map[string]string{"the server": w.srv.URL, "a server with no runtime": bare.URL} {
				for _, token := range []string{"", "0123456789abcdef0123456789abcdef"} {
					a := w.doURL(method, base+p, token, body)
					if a.status != 404 || a.problem().Code != "not_found" {
						t.Errorf("%s: %s %s (token %q) answered %d %.200s, want 404 not_found", name, method, p, token, a.status, a.body)
					}
				}
			}
		}
	}
	if routes < 10 {
		t.Fatalf("got %d routes with a game code, want every one of them (more than 10)", routes)
	}
	if strings.Contains(logs.String(), "level=ERROR") {
		t.Errorf("got error lines in the log:\n%s", logs.String())
	}
}
