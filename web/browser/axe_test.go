package browser

import (
	"os"
	"strings"
	"sync"
	"testing"
	"time"
)

// axeSource is the vendored axe-core, read once.
var axeSource = sync.OnceValues(func() (string, error) {
	b, err := os.ReadFile("testdata/axe/axe.min.js")
	return string(b), err
})

// violation is one axe-core rule a page breaks, with where.
type violation struct {
	ID     string   `json:"id"`
	Impact string   `json:"impact"`
	Help   string   `json:"help"`
	Nodes  []string `json:"nodes"`
}

// axe runs axe-core in the page as it stands and returns its serious and
// critical violations.
func (b *browser) axe() []violation {
	b.t.Helper()
	src, err := axeSource()
	if err != nil {
		b.t.Fatal(err)
	}
	if !eval[bool](b, `typeof window.axe !== 'undefined'`) {
		eval[bool](b, src+"\n;true")
	}
	return eval[[]violation](b, `axe.run(document, {resultTypes: ['violations']}).then(r => r.violations
		.filter(v => v.impact === 'serious' || v.impact === 'critical')
		.map(v => ({id: v.id, impact: v.impact, help: v.help,
			nodes: v.nodes.slice(0, 5).map(n => n.target.join(' ') + ': ' + (n.failureSummary || '').split('\n').join(' '))}))) `)
}

// TestBrowserAccessibility runs axe-core on the lobby, the waiting room, the
// table, a reveal, a hand-over and the result sheet, at a phone's size: no
// serious or critical violation is allowed.
func TestBrowserAccessibility(t *testing.T) {
	ctx := testContext(t, 8*time.Minute)
	s := newSite(t, fastSpeed)
	b := newBrowser(ctx, t, s.base, phoneWidth, phoneHeight)
	tour(t, s, b, func(moment, _ string) {
		vs := b.axe()
		for _, v := range vs {
			t.Errorf("%s: %s (%s): %s\n  %s", moment, v.ID, v.Impact, v.Help, strings.Join(v.Nodes, "\n  "))
		}
		t.Logf("%s: %d serious or critical violations", moment, len(vs))
	})
}
