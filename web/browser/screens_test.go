package browser

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"
)

// TestBrowserScreenshots writes screenshots of the lobby, the waiting room,
// the table, a reveal, a hand-over and the result sheet, at 390x844 and
// 1280x800, to the folder named by BULLSHIT_SCREENSHOTS (make screenshots
// names docs/screens). Without it the test skips, so make test never
// rewrites the docs.
func TestBrowserScreenshots(t *testing.T) {
	dir := os.Getenv("BULLSHIT_SCREENSHOTS")
	if dir == "" {
		t.Skip("screenshots are written only when BULLSHIT_SCREENSHOTS names a folder (make screenshots)")
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	ctx := testContext(t, 8*time.Minute)
	s := newSite(t, fastSpeed)
	phone := newBrowser(ctx, t, s.base, phoneWidth, phoneHeight)
	laptop := newBrowser(ctx, t, s.base, laptopWidth, laptopHeight)
	shoot := func(b *browser, moment, size string) {
		// Let the page finish laying out after the last push.
		time.Sleep(150 * time.Millisecond)
		name := filepath.Join(dir, fmt.Sprintf("%s-%s.png", moment, size))
		if err := os.WriteFile(name, b.screenshot(), 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("wrote %s", name)
	}
	tour(t, s, phone, func(moment, game string) {
		shoot(phone, moment, "390x844")
		if game == "" {
			laptop.open("/")
			laptop.wait("the lobby", visible("#create"))
		} else if laptop.path() != "/games/"+game {
			// The laptop is the same person in another window: it has the
			// seat's cookie.
			copyCookies(t, phone, laptop, game)
			laptop.open("/games/" + game)
		}
		switch moment {
		case atWaiting:
			laptop.wait("the waiting room", visible("#waiting"))
		case atTable:
			laptop.wait("the table", visible("#hand"))
			// The same cards picked as on the phone.
			eval[bool](laptop, `(() => { for (const v of `+eval[string](phone,
				`JSON.stringify([...document.querySelectorAll('#hand input[name=card]:checked')].map(el => el.value))`)+
				`) { const el = document.querySelector('#hand input[name=card][value="' + v + '"]'); if (el && !el.checked) el.click(); } return true; })()`)
		case atReveal:
			laptop.wait("the reveal", visible("#reveal .beat-verdict"))
		case atHandOver:
			laptop.wait("the hand-over", visible("#give"))
		case atResult:
			laptop.wait("the result sheet", visible("#result"))
		}
		shoot(laptop, moment, "1280x800")
	})
}

// copyCookies gives to the cookies from's browser holds for the site and
// the game.
func copyCookies(t *testing.T, from, to *browser, game string) {
	t.Helper()
	res, err := chromedp.Call(from.ctx, network.GetCookies, network.GetCookiesParams{URLs: []string{from.base + "/", from.base + "/games/" + game}})
	if err != nil {
		t.Fatalf("reading cookies: %v", err)
	}
	var params []*network.CookieParam
	for _, c := range res.Cookies {
		params = append(params, &network.CookieParam{Name: c.Name, Value: c.Value, Domain: c.Domain, Path: c.Path,
			Secure: c.Secure, HTTPOnly: c.HTTPOnly, SameSite: c.SameSite})
	}
	if _, err := chromedp.Call(to.ctx, network.SetCookies, network.SetCookiesParams{Cookies: params}); err != nil {
		t.Fatalf("setting cookies: %v", err)
	}
}
