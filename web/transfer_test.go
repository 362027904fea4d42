package web_test

import (
	"bytes"
	"compress/gzip"
	"io"
	"net/http"
	"strings"
	"testing"

	"golang.org/x/net/html"
)

// transferGoal is the most the table page may cost on first load,
// compressed, every asset included.
const transferGoal = 80 * 1024

// TestTableTransfer sums what a browser downloads on first opening a table:
// the page and every script and style it names, as sent gzipped. Assets
// must say they may be cached for a year.
func TestTableTransfer(t *testing.T) {
	s := newSite(t)
	b := s.browser()
	id := b.create("Ada", "9")
	b.htmx(http.MethodPost, "/games/"+id+"/start", nil)

	fetch := func(path string) (sent int, body []byte, h http.Header) {
		req, _ := http.NewRequest(http.MethodGet, s.srv.URL+path, nil)
		// Set by hand, so the transport hands over the bytes as sent.
		req.Header.Set("Accept-Encoding", "gzip")
		resp, err := b.c.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		raw, err := io.ReadAll(resp.Body)
		if err != nil {
			t.Fatal(err)
		}
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("%s: got %d, want 200", path, resp.StatusCode)
		}
		if resp.Header.Get("Content-Encoding") != "gzip" {
			if strings.HasPrefix(path, "/static/") && !strings.HasSuffix(path, ".png") {
				t.Errorf("%s: got encoding %q, want gzip", path, resp.Header.Get("Content-Encoding"))
			}
			return len(raw), raw, resp.Header
		}
		zr, err := gzip.NewReader(bytes.NewReader(raw))
		if err != nil {
			t.Fatal(err)
		}
		body, err = io.ReadAll(zr)
		if err != nil {
			t.Fatal(err)
		}
		return len(raw), body, resp.Header
	}
	total, page, _ := fetch("/games/" + id)
	doc, err := html.Parse(bytes.NewReader(page))
	if err != nil {
		t.Fatal(err)
	}
	if byID(doc, "hand") == nil {
		t.Fatal("the page is not the table")
	}
	t.Logf("transfer: page %d bytes", total)
	for _, n := range findAll(doc, func(n *html.Node) bool { return n.Data == "script" || n.Data == "link" }) {
		url := attr(n, "src") + attr(n, "href")
		switch {
		case attr(n, "rel") == "apple-touch-icon":
			continue // fetched only when the page is put on a home screen
		case url == "/favicon.ico" || url == "/manifest.webmanifest":
			// At the names browsers ask for, not hashed.
			sent, _, _ := fetch(url)
			t.Logf("transfer: %s %d bytes", url, sent)
			total += sent
			continue
		case !strings.HasPrefix(url, "/static/"):
			t.Errorf("%s is not served from the hashed static path", url)
			continue
		}
		sent, _, h := fetch(url)
		if cc := h.Get("Cache-Control"); cc != "public, max-age=31536000, immutable" {
			t.Errorf("%s: Cache-Control %q", url, cc)
		}
		t.Logf("transfer: %s %d bytes", url, sent)
		total += sent
	}
	t.Logf("transfer: total %d bytes (%.1f KB) of %d KB", total, float64(total)/1024, transferGoal/1024)
	if total > transferGoal {
		t.Errorf("the table's first load: got %d bytes, want at most %d", total, transferGoal)
	}
}
