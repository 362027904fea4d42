package views

import (
	"bytes"
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/a-h/templ"
	"golang.org/x/net/html"

	"bullshit/internal/htmltest"
)

// parse renders a component and parses it as a fragment of a page's body.
func parse(t *testing.T, c templ.Component) *html.Node {
	t.Helper()
	var buf bytes.Buffer
	if err := c.Render(context.Background(), &buf); err != nil {
		t.Fatalf("render: %v", err)
	}
	doc, err := html.Parse(&buf)
	if err != nil {
		t.Fatal(err)
	}
	return doc
}

func find(n *html.Node, sel string) *html.Node {
	all := findAll(n, sel)
	if len(all) == 0 {
		return nil
	}
	return all[0]
}

// findAll matches a small CSS subset: descendant chains of compound
// selectors made of a tag, "#id", ".class", "[attr]" and "[attr=value]".
func findAll(n *html.Node, sel string) []*html.Node {
	parts := strings.Fields(sel)
	return htmltest.FindAll(n, func(n *html.Node) bool {
		return matches(n, parts[len(parts)-1]) && ancestorsMatch(n.Parent, parts[:len(parts)-1])
	})
}

func ancestorsMatch(n *html.Node, parts []string) bool {
	if len(parts) == 0 {
		return true
	}
	for ; n != nil; n = n.Parent {
		if n.Type == html.ElementNode && matches(n, parts[len(parts)-1]) {
			return ancestorsMatch(n.Parent, parts[:len(parts)-1])
		}
	}
	return false
}

// matches checks one compound selector.
func matches(n *html.Node, sel string) bool {
	i := strings.IndexAny(sel, "#.[")
	if i < 0 {
		i = len(sel)
	}
	if tag := sel[:i]; tag != "" && n.Data != tag {
		return false
	}
	for rest := sel[i:]; rest != ""; {
		j := strings.IndexAny(rest[1:], "#.[")
		if j < 0 {
			j = len(rest)
		} else {
			j++
		}
		part := rest[:j]
		rest = rest[j:]
		switch part[0] {
		case '#':
			if attr(n, "id") != part[1:] {
				return false
			}
		case '.':
			if !slices.Contains(strings.Fields(attr(n, "class")), part[1:]) {
				return false
			}
		case '[':
			k, v, eq := strings.Cut(strings.Trim(part, "[]"), "=")
			if !has(n, k) || (eq && attr(n, k) != v) {
				return false
			}
		}
	}
	return true
}

// The HTML helpers the pages' tests share.
var (
	attr = htmltest.Attr
	has  = htmltest.Has
	text = htmltest.Text
)

// check is one expectation on a component's HTML.
type check func(t *testing.T, doc *html.Node)

func present(sel string) check {
	return func(t *testing.T, doc *html.Node) {
		t.Helper()
		if find(doc, sel) == nil {
			t.Errorf("%s: missing", sel)
		}
	}
}

func absent(sel string) check {
	return func(t *testing.T, doc *html.Node) {
		t.Helper()
		if find(doc, sel) != nil {
			t.Errorf("%s: got one, want none", sel)
		}
	}
}

func count(sel string, n int) check {
	return func(t *testing.T, doc *html.Node) {
		t.Helper()
		if got := len(findAll(doc, sel)); got != n {
			t.Errorf("%s: got %d, want %d", sel, got, n)
		}
	}
}

func says(sel, want string) check {
	return func(t *testing.T, doc *html.Node) {
		t.Helper()
		if got := text(find(doc, sel)); !strings.Contains(got, want) {
			t.Errorf("%s: got %q, want it to say %q", sel, got, want)
		}
	}
}

func attrIs(sel, key, want string) check {
	return func(t *testing.T, doc *html.Node) {
		t.Helper()
		n := find(doc, sel)
		if n == nil {
			t.Errorf("%s: missing", sel)
			return
		}
		if got := attr(n, key); got != want {
			t.Errorf("%s[%s]: got %q, want %q", sel, key, got, want)
		}
	}
}

func flag(sel, key string, want bool) check {
	return func(t *testing.T, doc *html.Node) {
		t.Helper()
		if got := has(find(doc, sel), key); got != want {
			t.Errorf("%s[%s]: got %v, want %v", sel, key, got, want)
		}
	}
}

type componentCase struct {
	name   string
	c      templ.Component
	checks []check
}

func runCases(t *testing.T, cases []componentCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			doc := parse(t, tc.c)
			for _, c := range tc.checks {
				c(t, doc)
			}
		})
	}
}
