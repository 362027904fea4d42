package web_test

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"image/png"
	"net/http"
	"strings"
	"testing"
)

// TestInstallable: every page links the favicon, the icons and the web app
// manifest; the manifest parses, names the site, opens it full screen at
// the lobby in the theme colour, lists icons for any use and maskable ones
// in entries of their own, and each icon it lists (and the favicon)
// loads as the image it says, at its size.
func TestInstallable(t *testing.T) {
	s := newSite(t)
	b := s.browser()
	lobby := b.get("/")
	links := map[string]string{}
	for _, n := range findAll(lobby.doc, func(n *htmlNode) bool { return n.Data == "link" || n.Data == "meta" }) {
		if rel := attr(n, "rel"); rel != "" {
			links[rel] = attr(n, "href")
		}
		if attr(n, "name") == "theme-color" {
			links["theme-color"] = attr(n, "content")
		}
	}
	if links["manifest"] != "/manifest.webmanifest" || links["icon"] == "" || links["apple-touch-icon"] == "" {
		t.Fatalf("the lobby's links: got %v, want the manifest, an icon and a touch icon", links)
	}
	m := b.get("/manifest.webmanifest")
	if ct := m.header.Get("Content-Type"); m.status != http.StatusOK || ct != "application/manifest+json" {
		t.Fatalf("the manifest: got %d %q, want 200 application/manifest+json", m.status, ct)
	}
	var man struct {
		Name, ShortName, StartURL, Display, ThemeColor string
		Icons                                          []struct{ Src, Sizes, Type, Purpose string }
	}
	dec := json.NewDecoder(strings.NewReader(m.body))
	if err := dec.Decode(&struct {
		Name       *string `json:"name"`
		ShortName  *string `json:"short_name"`
		StartURL   *string `json:"start_url"`
		Display    *string `json:"display"`
		ThemeColor *string `json:"theme_color"`
		Icons      any     `json:"icons"`
	}{&man.Name, &man.ShortName, &man.StartURL, &man.Display, &man.ThemeColor, &man.Icons}); err != nil {
		t.Fatalf("the manifest doesn't parse: %v\n%s", err, m.body)
	}
	if man.Name != "Bullshit" || man.StartURL != "/" || man.Display != "standalone" || man.ThemeColor != links["theme-color"] {
		t.Errorf("the manifest: got %+v, want the name, start_url /, display standalone and the pages' theme colour %s", man, links["theme-color"])
	}
	sizes := map[string]bool{}
	purposes := map[string]int{}
	for _, ic := range man.Icons {
		// One purpose an entry: "any maskable" would crop the icon where a
		// plain one is wanted.
		if ic.Purpose != "any" && ic.Purpose != "maskable" {
			t.Errorf("icon %s: got the purpose %q, want \"any\" or \"maskable\", one an entry", ic.Src, ic.Purpose)
		}
		purposes[ic.Purpose]++
		p := b.get(ic.Src)
		if p.status != http.StatusOK || p.header.Get("Content-Type") != ic.Type {
			t.Errorf("icon %s: got %d %q, want 200 %s", ic.Src, p.status, p.header.Get("Content-Type"), ic.Type)
			continue
		}
		if ic.Type != "image/png" {
			continue
		}
		img, err := png.Decode(strings.NewReader(p.body))
		if err != nil {
			t.Errorf("icon %s is no PNG: %v", ic.Src, err)
			continue
		}
		if got := fmt.Sprintf("%dx%d", img.Bounds().Dx(), img.Bounds().Dy()); got != ic.Sizes {
			t.Errorf("icon %s: got %s px, the manifest says %s", ic.Src, got, ic.Sizes)
		}
		sizes[ic.Sizes] = true
	}
	if !sizes["192x192"] || !sizes["512x512"] {
		t.Errorf("the manifest's PNG icons: got %v, want 192 and 512", sizes)
	}
	if purposes["any"] == 0 || purposes["maskable"] == 0 {
		t.Errorf("the manifest's icons' purposes: got %v, want entries for any and for maskable", purposes)
	}
	for _, path := range []string{links["icon"], links["apple-touch-icon"], "/favicon.ico"} {
		p := b.get(path)
		if p.status != http.StatusOK || !strings.HasPrefix(p.header.Get("Content-Type"), "image/") {
			t.Errorf("%s: got %d %q, want 200 and an image", path, p.status, p.header.Get("Content-Type"))
		}
	}
	// An ICO file: reserved 0, type 1, at least one image.
	ico := []byte(b.get("/favicon.ico").body)
	var head [3]uint16
	if err := binary.Read(bytes.NewReader(ico), binary.LittleEndian, &head); err != nil || head[0] != 0 || head[1] != 1 || head[2] < 1 {
		t.Errorf("/favicon.ico: got the header %v (%v), want an ICO file", head, err)
	}
}
