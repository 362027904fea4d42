package web

import (
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"bullshit/engine"
	"bullshit/views"
	"bullshit/views/words"
)

// keys are the table's keyboard shortcuts, as the buttons show them.
var keys = []views.KeyHelp{
	{Key: "C", Does: "Claim the cards picked (or hand over, when you caught a sneak)"},
	{Key: "S", Does: "Sneak: how many of the picked cards go under the claim"},
	{Key: "B", Does: "Bullshit! Call the last play"},
	{Key: "G", Does: "Let the last play go"},
	{Key: "O", Does: "Sort the hand by rank or by suit"},
}

// rulesPage is How to play, every number from the engine.
func (h *Handler) rulesPage(c echo.Context) error {
	var windows []string
	for _, w := range engine.Windows {
		windows = append(windows, words.Seconds(w))
	}
	one := engine.Standard(engine.MinSeats)
	two := engine.MinSeats
	for two <= engine.MaxSeats && engine.Standard(two).Decks() == 1 {
		two++
	}
	r := views.Rules{
		Shell:    h.shell(c, "How to play · Bullshit", "rules"),
		MinSeats: engine.MinSeats, MaxSeats: engine.MaxSeats, TwoDecksFrom: two, MaxClaim: one.MaxClaim(),
		MaxSneak: engine.MaxSneakLimit, StandardSneak: engine.StandardSneak,
		Windows: words.And(windows), StandardWindow: words.Seconds(engine.StandardWindow), GiveTime: words.Seconds(engine.GiveTime),
		Penalty:   penaltyWords(engine.StandardPenalty),
		HandExact: engine.HandExact, PileExact: engine.PileExact,
		HandBuckets: bucketWords(engine.HandKind), PileBuckets: bucketWords(engine.PileKind),
		PlayCap: engine.PlayCap, Keys: keys,
	}
	return render(c, http.StatusOK, views.RulesView(r))
}

func penaltyWords(p engine.Penalty) string {
	s := words.Count(p.Cards, "card")
	if p.PerCard {
		s += " for every card sneaked"
	}
	return s
}

func bucketWords(k engine.Kind) string {
	var parts []string
	for _, b := range engine.Buckets(k) {
		parts = append(parts, "“"+b.String()+"”")
	}
	return strings.Join(parts, ", ")
}

// alertSwitches are the ways a hidden tab says a move waits, by their
// names in the form and the alerts cookie.
var alertSwitches = []struct {
	name string
	on   func(a *views.Assists) *bool
}{
	{"title", func(a *views.Assists) *bool { return &a.Title }},
	{"sound", func(a *views.Assists) *bool { return &a.Sound }},
	{"vibrate", func(a *views.Assists) *bool { return &a.Vibrate }},
	{"notify", func(a *views.Assists) *bool { return &a.Notify }},
}

// readAssists reads the assists this browser turned off (all are on by
// default) and the alerts it has on (all but the sound by default).
func readAssists(c echo.Context) views.Assists {
	a := views.Assists{Light: true, Pick: true, Count: true, Title: true, Vibrate: true, Notify: true}
	if k, err := c.Cookie(alertsCookie); err == nil {
		on := strings.Split(k.Value, ".")
		for _, x := range alertSwitches {
			*x.on(&a) = slices.Contains(on, x.name)
		}
	}
	k, err := c.Cookie(assistsCookie)
	if err != nil {
		return a
	}
	for off := range strings.SplitSeq(k.Value, ".") {
		switch off {
		case "light":
			a.Light = false
		case "pick":
			a.Pick = false
		case "count":
			a.Count = false
		}
	}
	return a
}

func (h *Handler) optionsPage(c echo.Context) error {
	o := views.OptionsPage{Shell: h.shell(c, "Options · Bullshit", "options"), Assists: readAssists(c)}
	return render(c, http.StatusOK, views.OptionsView(o))
}

// saveOptions keeps the assists turned off in a cookie, so every page the
// server renders for this browser follows them.
func (h *Handler) saveOptions(c echo.Context) error {
	a := views.Assists{Light: c.FormValue("light") != "", Pick: c.FormValue("pick") != "", Count: c.FormValue("count") != ""}
	var on []string
	for _, x := range alertSwitches {
		if *x.on(&a) = c.FormValue(x.name) != ""; *x.on(&a) {
			on = append(on, x.name)
		}
	}
	var off []string
	for _, x := range []struct {
		name string
		on   bool
	}{{"light", a.Light}, {"pick", a.Pick}, {"count", a.Count}} {
		if !x.on {
			off = append(off, x.name)
		}
	}
	for name, value := range map[string]string{assistsCookie: strings.Join(off, "."), alertsCookie: strings.Join(on, ".")} {
		h.setCookie(c, &http.Cookie{Name: name, Value: value, Path: "/", MaxAge: int((365 * 24 * time.Hour).Seconds())})
	}
	o := views.OptionsPage{Shell: h.shell(c, "Options · Bullshit", "options"), Assists: a, Saved: true}
	return render(c, http.StatusOK, views.OptionsView(o))
}
