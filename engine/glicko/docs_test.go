package glicko

import (
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// report is docs/bullshit.md, where `make report` writes the measured
// anchors and the gains tables are kept by hand.
func report(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile("../../docs/bullshit.md")
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestAnchorsMatchTheMeasurement fails when the anchors and the measured Elo
// gaps in the report drift apart by more than the report's interval.
func TestAnchorsMatchTheMeasurement(t *testing.T) {
	doc := report(t)
	tests := []struct {
		pairing      string
		strong, weak string
	}{
		{"medium vs easy", "medium", "easy"},
		{"hard vs medium", "hard", "medium"},
	}
	for _, tt := range tests {
		re := regexp.MustCompile(`\| ` + tt.pairing + ` \| [^|]+\| ([+-]\d+) \(([+-]\d+) to ([+-]\d+)\)`)
		m := re.FindStringSubmatch(doc)
		if m == nil {
			t.Fatalf("no %q row with an Elo gap in the report", tt.pairing)
		}
		lo, _ := strconv.Atoi(m[2])
		hi, _ := strconv.Atoi(m[3])
		gap := Anchors[tt.strong] - Anchors[tt.weak]
		if gap < float64(lo) || gap > float64(hi) {
			t.Errorf("%s: the anchors are %.0f apart, want within the measured %s to %s", tt.pairing, gap, m[2], m[3])
		}
	}
}

// TestDocsShowTheGains keeps the report's tables of gains by place equal to
// what Rate gives.
func TestDocsShowTheGains(t *testing.T) {
	doc := report(t)
	for _, tt := range []struct {
		marker  string
		anchors map[string]float64
	}{{"gains-spec", SpecAnchors}, {"gains", Anchors}} {
		begin, end := "<!-- "+tt.marker+":begin -->\n", "<!-- "+tt.marker+":end -->"
		i, j := strings.Index(doc, begin), strings.Index(doc, end)
		if i < 0 || j < i {
			t.Fatalf("the report has no %s block", tt.marker)
		}
		if got, want := doc[i+len(begin):j], gainsTable(tt.anchors); got != want {
			t.Errorf("the report's %s table:\n%s\nwant:\n%s", tt.marker, got, want)
		}
	}
}
