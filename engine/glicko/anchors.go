package glicko

// Anchors are the bot levels' fixed ratings. Medium is the scale's middle;
// easy and hard sit at the gaps `bullshit anchors` measured between the
// levels (docs/bullshit.md, "Measured strength: the anchors"): medium beats
// easy by 288 and hard beats medium by 104. A test fails when the measured
// report and these drift apart by more than the report's interval.
var Anchors = map[string]float64{
	"easy":   1212,
	"medium": 1500,
	"hard":   1604,
}

// SpecAnchors are the anchors the game's specification gives, measured from
// its own bots; kept to check its worked example.
var SpecAnchors = map[string]float64{
	"easy":   1210,
	"medium": 1500,
	"hard":   1540,
}
