package glicko

// MeasuredAnchors are the bot levels' fixed ratings at each table size
// `bullshit anchors` measures. Medium is the scale's middle at every size;
// easy and hard sit at the Elo gaps measured between the levels at that
// size (docs/bullshit.md, "Measured strength: the anchors"). The gaps differ
// by size (medium is further ahead of easy at four and six seats than at
// eight and ten), so a game is rated against its own size's anchors. A
// test fails when the measured report and these drift apart by more than
// the report's interval.
var MeasuredAnchors = map[int]map[string]float64{
	3:  {"easy": 1177, "medium": 1500, "hard": 1542},
	4:  {"easy": 1132, "medium": 1500, "hard": 1544},
	6:  {"easy": 1146, "medium": 1500, "hard": 1492},
	8:  {"easy": 1204, "medium": 1500, "hard": 1539},
	10: {"easy": 1196, "medium": 1500, "hard": 1528},
}

// AnchorsAt are the bot levels' fixed ratings at a table of seats: the
// measured size's, or between two measured sizes the straight line between
// them (and the nearest measured size's outside them).
func AnchorsAt(seats int) map[string]float64 {
	if a, ok := MeasuredAnchors[seats]; ok {
		return a
	}
	lo, hi := 0, 0
	for n := range MeasuredAnchors {
		if n < seats && n > lo {
			lo = n
		}
		if n > seats && (hi == 0 || n < hi) {
			hi = n
		}
	}
	switch {
	case lo == 0:
		return MeasuredAnchors[hi]
	case hi == 0:
		return MeasuredAnchors[lo]
	}
	at := make(map[string]float64, len(MeasuredAnchors[lo]))
	f := float64(seats-lo) / float64(hi-lo)
	for level, r := range MeasuredAnchors[lo] {
		at[level] = r + f*(MeasuredAnchors[hi][level]-r)
	}
	return at
}

// SpecAnchors are the anchors the game's specification gives, measured from
// its own bots; kept to check its worked example.
var SpecAnchors = map[string]float64{
	"easy":   1210,
	"medium": 1500,
	"hard":   1540,
}
