package web

import (
	"net/url"
	"strings"
	"testing"
)

// browserResolves is where a browser goes for a Location of loc on a page
// of this site, by the WHATWG URL rules that differ from Go's parser: ASCII
// tabs and newlines are dropped wherever they are, C0 controls and spaces
// are trimmed from both ends, and in an http(s) address a backslash is a
// slash.
func browserResolves(t *testing.T, loc string) *url.URL {
	t.Helper()
	loc = strings.Map(func(r rune) rune {
		if r == '\t' || r == '\n' || r == '\r' {
			return -1
		}
		return r
	}, loc)
	loc = strings.TrimFunc(loc, func(r rune) bool { return r <= ' ' })
	loc = strings.ReplaceAll(loc, `\`, "/")
	base, _ := url.Parse("https://game.example/signin")
	ref, err := url.Parse(loc)
	if err != nil {
		// Go refuses what a browser may still follow, so nothing Go
		// can't parse may be let through.
		t.Fatalf("localPath let through %q, which Go's parser refuses: %v", loc, err)
	}
	return base.ResolveReference(ref)
}

func TestLocalPath(t *testing.T) {
	tests := []struct {
		next, want string
	}{
		{"/leaderboard", "/leaderboard"},
		{"/games/abcd2345?step=3#play", "/games/abcd2345?step=3#play"},
		{"/players/Zoë", "/players/Zoë"},
		{"/%2F/evil.example/", "/%2F/evil.example/"},
		{"", "/account"},
		{"leaderboard", "/account"},
		{"//evil.example/", "/account"},
		{`/\evil.example/`, "/account"},
		// The issue's: a tab, which a browser drops, between the slashes.
		{"/\t/evil.example/", "/account"},
		{"/\n/evil.example/", "/account"},
		{"/\r\n/evil.example/", "/account"},
		{"/ /evil.example/", "/account"},
		{"/\x00/evil.example/", "/account"},
		{"/\x0b/evil.example/", "/account"},
		{"/\u0085/evil.example/", "/account"},
		{"/\u00a0/evil.example/", "/account"},
		{"/\u3000/evil.example/", "/account"},
		{`/x\y`, "/account"},
		{"https://evil.example/", "/account"},
		{"/\t\\evil.example", "/account"},
		{" //evil.example", "/account"},
		{"/leaderboard ", "/account"},
	}
	for _, tt := range tests {
		got := localPath(tt.next)
		if got != tt.want {
			t.Errorf("localPath(%q): got %q, want %q", tt.next, got, tt.want)
		}
		if u := browserResolves(t, got); u.Host != "game.example" {
			t.Errorf("localPath(%q) = %q: a browser goes to host %q, want game.example", tt.next, got, u.Host)
		}
	}
}

// FuzzLocalPath checks that whatever next holds, a browser following the
// path localPath gives stays on this site.
func FuzzLocalPath(f *testing.F) {
	for _, s := range []string{"/leaderboard", "/\t/evil.example/", `/\evil`, "//x", "/ok?next=//x", "/\u3000/x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, next string) {
		got := localPath(next)
		if got != next && got != "/account" {
			t.Fatalf("localPath(%q) = %q: want it or /account", next, got)
		}
		if u := browserResolves(t, got); u.Host != "game.example" || u.Scheme != "https" {
			t.Fatalf("localPath(%q) = %q: a browser goes to %s", next, got, u)
		}
	})
}
