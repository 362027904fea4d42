// Package htmltest reads parsed HTML for the tests of the views and the
// pages: the text a person sees, an element's attributes, and the elements
// that match.
package htmltest

import (
	"strings"

	"golang.org/x/net/html"
)

// Find is the first element under n, n included, that ok accepts, or nil.
func Find(n *html.Node, ok func(*html.Node) bool) *html.Node {
	if n == nil {
		return nil
	}
	if n.Type == html.ElementNode && ok(n) {
		return n
	}
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if f := Find(c, ok); f != nil {
			return f
		}
	}
	return nil
}

// FindAll is every element under n, n included, that ok accepts, in
// document order.
func FindAll(n *html.Node, ok func(*html.Node) bool) []*html.Node {
	var out []*html.Node
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.ElementNode && ok(n) {
			out = append(out, n)
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	if n != nil {
		walk(n)
	}
	return out
}

// ByID is the element under n with the id, or nil.
func ByID(n *html.Node, id string) *html.Node {
	return Find(n, func(n *html.Node) bool { return Attr(n, "id") == id })
}

// Attr is n's attribute key, "" when n is nil or hasn't it.
func Attr(n *html.Node, key string) string {
	if n == nil {
		return ""
	}
	for _, a := range n.Attr {
		if a.Key == key {
			return a.Val
		}
	}
	return ""
}

// Has reports whether n has the attribute key, even empty.
func Has(n *html.Node, key string) bool {
	if n == nil {
		return false
	}
	for _, a := range n.Attr {
		if a.Key == key {
			return true
		}
	}
	return false
}

// Text is the text under n as a person reads it: every run of white space
// one space, none at the ends.
func Text(n *html.Node) string {
	if n == nil {
		return ""
	}
	var b strings.Builder
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.TextNode {
			b.WriteString(n.Data)
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(n)
	return strings.Join(strings.Fields(b.String()), " ")
}
