package glicko

import (
	"math"
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

// TestAnchorsMatchTheMeasurement fails when the anchors at any measured
// table size and the report's measured Elo gaps there drift apart by more
// than the report's interval, or a size is measured but has no anchors.
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
		re := regexp.MustCompile(`\| ` + tt.pairing + ` \| (\d+) \| [^|]+\| ([+-]\d+) \(([+-]\d+) to ([+-]\d+)\)`)
		rows := re.FindAllStringSubmatch(doc, -1)
		if len(rows) != len(MeasuredAnchors) {
			t.Fatalf("%s: got %d rows with an Elo gap in the report, want one for each of the %d sizes with anchors",
				tt.pairing, len(rows), len(MeasuredAnchors))
		}
		for _, m := range rows {
			seats, _ := strconv.Atoi(m[1])
			lo, _ := strconv.Atoi(m[3])
			hi, _ := strconv.Atoi(m[4])
			anchors, ok := MeasuredAnchors[seats]
			if !ok {
				t.Errorf("%s: the report measures %d seats, which have no anchors", tt.pairing, seats)
				continue
			}
			gap := anchors[tt.strong] - anchors[tt.weak]
			if gap < float64(lo) || gap > float64(hi) {
				t.Errorf("%s at %d seats: the anchors are %.0f apart, want within the measured %s to %s", tt.pairing, seats, gap, m[3], m[4])
			}
		}
	}
}

// TestAnchorsBetweenSizes checks that a size between two measured ones is
// rated against anchors between theirs, and one outside them against the
// nearest's.
func TestAnchorsBetweenSizes(t *testing.T) {
	for seats := 3; seats <= 10; seats++ {
		at := AnchorsAt(seats)
		for _, level := range []string{"easy", "medium", "hard"} {
			lo, hi := math.Inf(1), math.Inf(-1)
			for n, a := range MeasuredAnchors {
				if n >= seats-2 && n <= seats+2 {
					lo, hi = min(lo, a[level]), max(hi, a[level])
				}
			}
			if r, ok := at[level]; !ok || r < lo || r > hi {
				t.Errorf("%s at %d seats: got %v (present %v), want within %v to %v", level, seats, r, ok, lo, hi)
			}
		}
	}
	if got, want := AnchorsAt(5)["hard"], (MeasuredAnchors[4]["hard"]+MeasuredAnchors[6]["hard"])/2; got != want {
		t.Errorf("hard at 5 seats: got %v, want %v, halfway between 4 and 6 seats", got, want)
	}
	if got, want := AnchorsAt(2)["easy"], MeasuredAnchors[3]["easy"]; got != want {
		t.Errorf("easy at 2 seats: got %v, want the 3-seat anchor %v", got, want)
	}
}

// TestDocsShowTheGains keeps the report's tables of gains by place equal to
// what Rate gives.
func TestDocsShowTheGains(t *testing.T) {
	doc := report(t)
	for _, tt := range []struct {
		marker  string
		anchors map[string]float64
	}{{"gains-spec", SpecAnchors}, {"gains", AnchorsAt(5)}} {
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
