package web

import (
	"encoding/json"
	"net/http"

	"github.com/labstack/echo/v4"
)

// themeColour is the browser's colour for the site's bar and splash: the
// felt's edge, as the pages' theme-color says.
const themeColour = "#0f3d2e"

// manifest is the web app manifest, so a phone can put the game on its home
// screen and open it full screen, its icons at their hashed URLs. It lists
// the PNGs only: the browser fetches the manifest's best icon as it loads a
// page, and were that the SVG the page's own icon link names, it would be
// asked for twice at once, neither request waiting for the other's answer.
func (a *Assets) manifest() ([]byte, error) {
	type icon struct {
		Src     string `json:"src"`
		Sizes   string `json:"sizes"`
		Type    string `json:"type"`
		Purpose string `json:"purpose"`
	}
	return json.Marshal(struct {
		Name            string `json:"name"`
		ShortName       string `json:"short_name"`
		Description     string `json:"description"`
		StartURL        string `json:"start_url"`
		Scope           string `json:"scope"`
		Display         string `json:"display"`
		Orientation     string `json:"orientation"`
		BackgroundColor string `json:"background_color"`
		ThemeColor      string `json:"theme_color"`
		Icons           []icon `json:"icons"`
	}{
		Name: "Bullshit", ShortName: "Bullshit", Description: "The bluffing card game, online with friends and bots.",
		StartURL: "/", Scope: "/", Display: "standalone", Orientation: "portrait",
		BackgroundColor: themeColour, ThemeColor: themeColour,
		Icons: []icon{
			// One purpose an entry: an icon listed as "any maskable" is shown
			// cropped where a plain one is wanted too (the manifest spec
			// advises against it), so the same PNGs are listed for each.
			{Src: a.URL("icon-192.png"), Sizes: "192x192", Type: "image/png", Purpose: "any"},
			{Src: a.URL("icon-512.png"), Sizes: "512x512", Type: "image/png", Purpose: "any"},
			{Src: a.URL("icon-192.png"), Sizes: "192x192", Type: "image/png", Purpose: "maskable"},
			{Src: a.URL("icon-512.png"), Sizes: "512x512", Type: "image/png", Purpose: "maskable"},
		},
	})
}

// serveManifest answers /manifest.webmanifest.
func (a *Assets) serveManifest(c echo.Context) error {
	c.Response().Header().Set("Cache-Control", "public, max-age=3600")
	return c.Blob(http.StatusOK, "application/manifest+json", a.webManifest)
}

// serveFavicon answers /favicon.ico, which browsers ask for at the site's
// root whatever the page links.
func (a *Assets) serveFavicon(c echo.Context) error {
	x := a.byName["favicon.ico"]
	c.Response().Header().Set("Cache-Control", "public, max-age=86400")
	return c.Blob(http.StatusOK, x.ctype, x.plain)
}
