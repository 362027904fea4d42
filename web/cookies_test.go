package web_test

import (
	"net/http"
	"net/netip"
	"net/url"
	"strings"
	"testing"

	"bullshit/server"
)

// TestCookiesSecureBehindTLS: the session's and the seat's cookies are
// Secure when the browser reached the server over HTTPS, which behind a TLS
// proxy only the proxy can say: X-Forwarded-Proto is believed from a
// trusted proxy alone, and --secure-cookies makes every cookie Secure.
func TestCookiesSecureBehindTLS(t *testing.T) {
	loopback := []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8"), netip.MustParsePrefix("::1/128")}
	tests := []struct {
		name   string
		cfg    func(*server.Settings)
		proto  string
		secure bool
	}{
		{"plain HTTP", nil, "", false},
		{"a forged X-Forwarded-Proto", nil, "https", false},
		{"a trusted proxy over HTTPS", func(c *server.Settings) { c.TrustedProxies = loopback }, "https", true},
		{"a trusted proxy's https after the client's http", func(c *server.Settings) { c.TrustedProxies = loopback }, "http, https", true},
		{"a trusted proxy over HTTP", func(c *server.Settings) { c.TrustedProxies = loopback }, "http", false},
		{"the client's https before a trusted proxy's http", func(c *server.Settings) { c.TrustedProxies = loopback }, "https, http", false},
		{"secure cookies", func(c *server.Settings) { c.SecureCookies = true }, "", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newSiteWith(t, siteOptions{settings: tt.cfg})
			post := func(path string, v url.Values) *http.Response {
				req, _ := http.NewRequest(http.MethodPost, s.srv.URL+path, strings.NewReader(v.Encode()))
				req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
				if tt.proto != "" {
					req.Header.Set("X-Forwarded-Proto", tt.proto)
				}
				resp, err := http.DefaultTransport.RoundTrip(req)
				if err != nil {
					t.Fatal(err)
				}
				resp.Body.Close()
				return resp
			}
			cookies := map[string]*http.Cookie{}
			for _, resp := range []*http.Response{
				post("/signup", url.Values{"name": {"Ada"}, "password": {password}}),
				post("/games", url.Values{"name": {"Bo"}, "bots": {"3"}}),
			} {
				for _, k := range resp.Cookies() {
					cookies[k.Name] = k
				}
			}
			for _, name := range []string{"session", "seat", "name"} {
				k := cookies[name]
				if k == nil {
					t.Fatalf("no %s cookie was set", name)
				}
				if k.Secure != tt.secure || !k.HttpOnly || k.SameSite != http.SameSiteLaxMode {
					t.Errorf("the %s cookie: got Secure %v, HttpOnly %v, SameSite %v; want Secure %v, HttpOnly, Lax",
						name, k.Secure, k.HttpOnly, k.SameSite, tt.secure)
				}
			}
		})
	}
}
