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
// the table, a reveal, a hand-over and the result sheet, at 390x844,
// 1280x800 and 320x640, to the folder named by BULLSHIT_SCREENSHOTS (make screenshots
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
	// The same person in other windows, at the other sizes.
	others := []struct {
		size string
		b    *browser
	}{
		{"1280x800", newBrowser(ctx, t, s.base, laptopWidth, laptopHeight)},
		{"320x640", newBrowser(ctx, t, s.base, 320, 640)},
	}
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
		for _, o := range others {
			other := o.b
			if game == "" {
				other.open("/")
				other.wait("the lobby", visible("#create"))
			} else if other.path() != "/games/"+game {
				// The same person in another window: it has the seat's
				// cookie.
				copyCookies(t, phone, other, game)
				other.open("/games/" + game)
			}
			switch moment {
			case atWaiting:
				other.wait("the waiting room", visible("#waiting"))
			case atTable:
				other.wait("the table", visible("#hand"))
				// The same cards picked as on the phone.
				eval[bool](other, `(() => { for (const v of `+eval[string](phone,
					`JSON.stringify([...document.querySelectorAll('#hand input[name=card]:checked')].map(el => el.value))`)+
					`) { const el = document.querySelector('#hand input[name=card][value="' + v + '"]'); if (el && !el.checked) el.click(); } return true; })()`)
			case atReveal:
				other.wait("the reveal", visible("#reveal .beat-verdict"))
			case atHandOver:
				other.wait("the hand-over", visible("#give"))
			case atResult:
				other.wait("the result sheet", visible("#result"))
			}
			shoot(other, moment, o.size)
		}
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
