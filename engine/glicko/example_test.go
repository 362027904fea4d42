package glicko_test

import (
	"fmt"

	"bullshit/engine/glicko"
)

// A rating period is one finished game: two new players and a bot anchored
// at 1600, placed first, second and third. The winner gains, the last loses,
// and both grow more certain; the anchor never moves.
func ExampleRate() {
	field := []glicko.Side{
		{Rating: glicko.New(), Place: 1},
		{Rating: glicko.New(), Place: 3},
		{Rating: glicko.Anchor(1600), Place: 2, Fixed: true},
	}
	after, err := glicko.Rate(field)
	if err != nil {
		fmt.Println(err)
		return
	}
	for i, r := range after {
		fmt.Printf("seat %d: %.0f ± %.0f, provisional %v\n", i, r.R, r.Deviation, r.Provisional())
	}
	// Output:
	// seat 0: 1738 ± 252, provisional true
	// seat 1: 1330 ± 252, provisional true
	// seat 2: 1600 ± 0, provisional false
}

// A rating ages while its player is away: its deviation grows, so the next
// game moves it more.
func ExampleRating_Aged() {
	r := glicko.Rating{R: 1700, Deviation: 60, Volatility: glicko.InitialVolatility}
	fmt.Printf("%.0f ± %.1f, a year on %.0f ± %.1f\n", r.R, r.Deviation, r.Aged(365).R, r.Aged(365).Deviation)
	// Output:
	// 1700 ± 60.0, a year on 1700 ± 208.0
}
