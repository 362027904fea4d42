package sim

import (
	"fmt"
	"html"
	"math"
	"strconv"
	"strings"
)

// Charts draws the report's charts as SVG files, by file name.
func (r *Report) Charts() map[string][]byte {
	charts := map[string][]byte{}

	var seats []string
	var plays []Estimate
	var leader []Estimate
	for _, l := range r.Length {
		seats = append(seats, strconv.Itoa(l.Seats))
		plays = append(plays, l.Plays)
		leader = append(leader, l.LeaderLoses.Scale(100))
	}
	charts["length.svg"] = barChart(chart{
		title: "Plays a game by table size (site bots, standard settings)", y: "plays a game; leader loses (%)", x: "seats",
		groups: seats, series: []series{{"plays a game", plays}, {"leader loses (%)", leader}},
	})
	if len(r.People) > 0 {
		charts["people.svg"] = barChart(r.peopleChart())
	}
	if r.Config.PeopleOnly {
		return charts
	}

	var styles []string
	var sneak []series
	for _, seats := range SneakSeats {
		for r2, name := range []string{"medium", "hard"} {
			s := series{name: fmt.Sprintf("vs %s, %d seats", name, seats)}
			for _, row := range r.Sneak {
				if row.Seats == seats {
					s.values = append(s.values, [2]Share{row.Medium, row.Hard}[r2])
				}
			}
			sneak = append(sneak, s)
		}
	}
	for _, row := range r.Sneak {
		if row.Seats == SneakSeats[0] {
			styles = append(styles, string(row.Style))
		}
	}
	charts["sneak.svg"] = barChart(chart{
		title: "One sneaker among honest players: share of a fair share", y: "share of fair share", x: "sneaker's style",
		groups: styles, series: sneak, ref: 1,
	})

	var knobs []string
	careful := []series{{name: "careful vs medium"}, {name: "careful vs hard"}}
	for _, k := range r.Knobs {
		knobs = append(knobs, fmt.Sprintf("%s / %d", PenaltyName(k.Penalty), k.Limit))
		for i := range careful {
			careful[i].values = append(careful[i].values, k.Careful[i])
		}
	}
	charts["knobs.svg"] = barChart(chart{
		title: fmt.Sprintf("A careful sneaker at %d seats, by penalty / sneak limit", KnobSeats), y: "share of fair share",
		x: "penalty / sneak limit", groups: knobs, series: careful, ref: 1, slant: true,
	})
	return charts
}

type series struct {
	name   string
	values []Estimate
}

type chart struct {
	title, y, x string
	groups      []string
	series      []series
	// ref draws a dashed line at that value when positive (1 is a fair share).
	ref float64
	// slant tilts the group labels, for long or many of them.
	slant bool
}

var palette = []string{"#3b6ea8", "#d08a2e", "#5a9e5a", "#a8483b"}

// barChart draws grouped bars with their 95% intervals as whiskers.
func barChart(c chart) []byte {
	const (
		width, height = 760, 380
		left, right   = 64, 16
		top           = 56
	)
	bottom := 56
	if c.slant {
		bottom = 120
	}
	plotW, plotH := float64(width-left-right), float64(height-top-bottom)
	hi := c.ref
	for _, s := range c.series {
		for _, v := range s.values {
			hi = max(hi, v.Hi, v.Value)
		}
	}
	step := niceStep(hi / 5)
	top5 := math.Ceil(hi/step) * step
	if top5 == 0 {
		top5 = 1
	}
	y := func(v float64) float64 { return float64(top) + plotH*(1-max(0, v)/top5) }

	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" font-family="sans-serif" font-size="12">`+"\n",
		width, height, width, height)
	fmt.Fprintf(&b, `<rect width="%d" height="%d" fill="#fff"/>`+"\n", width, height)
	fmt.Fprintf(&b, `<text x="%d" y="22" font-size="15" font-weight="bold">%s</text>`+"\n", left, html.EscapeString(c.title))
	for t := 0.0; t <= top5+step/2; t += step {
		fmt.Fprintf(&b, `<line x1="%d" x2="%d" y1="%.1f" y2="%.1f" stroke="#ddd"/>`+"\n", left, width-right, y(t), y(t))
		fmt.Fprintf(&b, `<text x="%d" y="%.1f" text-anchor="end">%s</text>`+"\n", left-6, y(t)+4, strconv.FormatFloat(t, 'f', -1, 64))
	}
	fmt.Fprintf(&b, `<text transform="translate(16 %.1f) rotate(-90)" text-anchor="middle">%s</text>`+"\n",
		float64(top)+plotH/2, html.EscapeString(c.y))
	fmt.Fprintf(&b, `<text x="%.1f" y="%d" text-anchor="middle">%s</text>`+"\n",
		float64(left)+plotW/2, height-8, html.EscapeString(c.x))

	groupW := plotW / float64(max(1, len(c.groups)))
	barW := groupW * 0.8 / float64(max(1, len(c.series)))
	for g, name := range c.groups {
		x0 := float64(left) + groupW*float64(g) + groupW*0.1
		for k, s := range c.series {
			if g >= len(s.values) {
				continue
			}
			v := s.values[g]
			x := x0 + barW*float64(k)
			fmt.Fprintf(&b, `<rect x="%.1f" y="%.1f" width="%.1f" height="%.1f" fill="%s"><title>%s: %s</title></rect>`+"\n",
				x, y(v.Value), barW-1, y(0)-y(v.Value), palette[k%len(palette)], html.EscapeString(s.name), v)
			mid := x + (barW-1)/2
			fmt.Fprintf(&b, `<path d="M%.1f %.1fV%.1fM%.1f %.1fH%.1fM%.1f %.1fH%.1f" stroke="#222" fill="none"/>`+"\n",
				mid, y(v.Lo), y(v.Hi), mid-3, y(v.Lo), mid+3, mid-3, y(v.Hi), mid+3)
		}
		cx := float64(left) + groupW*(float64(g)+0.5)
		if c.slant {
			fmt.Fprintf(&b, `<text transform="translate(%.1f %.1f) rotate(-40)" text-anchor="end">%s</text>`+"\n",
				cx, y(0)+14, html.EscapeString(name))
		} else {
			fmt.Fprintf(&b, `<text x="%.1f" y="%.1f" text-anchor="middle">%s</text>`+"\n", cx, y(0)+16, html.EscapeString(name))
		}
	}
	fmt.Fprintf(&b, `<line x1="%d" x2="%d" y1="%.1f" y2="%.1f" stroke="#222"/>`+"\n", left, width-right, y(0), y(0))
	if c.ref > 0 {
		fmt.Fprintf(&b, `<line x1="%d" x2="%d" y1="%.1f" y2="%.1f" stroke="#a00" stroke-dasharray="6 4"/>`+"\n",
			left, width-right, y(c.ref), y(c.ref))
	}
	for k, s := range c.series {
		x := left + 8 + k*170
		fmt.Fprintf(&b, `<rect x="%d" y="34" width="12" height="12" fill="%s"/><text x="%d" y="44">%s</text>`+"\n",
			x, palette[k%len(palette)], x+16, html.EscapeString(s.name))
	}
	b.WriteString("</svg>\n")
	return []byte(b.String())
}

// niceStep rounds a raw grid step up to 1, 2 or 5 times a power of ten.
func niceStep(raw float64) float64 {
	if raw <= 0 {
		return 1
	}
	p := math.Pow(10, math.Floor(math.Log10(raw)))
	for _, m := range []float64{1, 2, 5, 10} {
		if m*p >= raw {
			return m * p
		}
	}
	return 10 * p
}
