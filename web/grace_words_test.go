package web_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// TestGraceInPlainWords opens tables with each grace for calls made
// together and reads the waiting room and the lobby's open tables: the
// grace is said in plain words (in seconds, "count as together"), never as
// the engine's "compete" or in milliseconds, and a table without one says
// nothing of it.
func TestGraceInPlainWords(t *testing.T) {
	for _, tc := range []struct {
		grace, want string
	}{
		{"150", "calls up to 0.15 s apart count as together"},
		{"500", "calls up to 0.5 s apart count as together"},
		{"0", ""},
	} {
		t.Run(tc.grace, func(t *testing.T) {
			s := newSite(t)
			b := s.browser()
			p := b.form("/games", url.Values{"name": {"Ada"}, "bots": {"3"}, "grace": {tc.grace}})
			if p.status != http.StatusOK || !strings.HasPrefix(p.url, "/games/") {
				t.Fatalf("creating a table: got %d at %s, want its waiting room", p.status, p.url)
			}
			id := strings.TrimPrefix(p.url, "/games/")
			lobby := s.browser().get("/")
			row := text(byID(lobby.doc, "open-tables-"+id))
			for _, where := range []struct{ name, text string }{{"the waiting room", text(p.doc)}, {"the open tables' row", row}} {
				if tc.want != "" && !strings.Contains(where.text, tc.want) {
					t.Errorf("%s: got %q, want it to say %q", where.name, shortText(where.text), tc.want)
				}
				if tc.want == "" && strings.Contains(where.text, "apart") {
					t.Errorf("%s: got %q, want no grace said for a table without one", where.name, shortText(where.text))
				}
				for _, jargon := range []string{"compete", " ms"} {
					if strings.Contains(where.text, jargon) {
						t.Errorf("%s: got %q, want no %q", where.name, shortText(where.text), jargon)
					}
				}
			}
		})
	}
}

// shortText is a page's text with its runs of spaces made one.
func shortText(s string) string { return strings.Join(strings.Fields(s), " ") }
