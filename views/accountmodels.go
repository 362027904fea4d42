package views

// SignForm is the sign-in or the sign-up page.
type SignForm struct {
	Shell Shell
	// Up: the sign-up form; otherwise sign-in.
	Up   bool
	Name string
	// Next is where to go once signed in.
	Next string
	// Error is a refusal to show above the form.
	Error string
}

// AccountPage is a signed-in person's own page.
type AccountPage struct {
	Shell Shell
	Name  string
	Bot   bool
	// Notice is what the last change did ("Password changed."); Error a
	// refusal of it.
	Notice, Error string
	// NewToken is a token just made, shown this once; NewTokenName its name.
	NewToken, NewTokenName string
	Tokens                 []TokenRow
}

// TokenRow is one API token as its account lists it.
type TokenRow struct {
	ID       string
	Name     string
	Created  string
	LastUsed string
}

// RatingText is a rating in words: "1502 ± 180", with Provisional marked.
type RatingText struct {
	Rating, Deviation string
	Provisional       bool
}

// LeaderboardPage is the leaderboard.
type LeaderboardPage struct {
	Shell Shell
	// Show is the filter: "all", "people" or "programs".
	Show  string
	Lines []LeaderLine
	// Prev and Next are the neighbouring pages' URLs, "" for none.
	Prev, Next string
	Page       int
}

// LeaderLine is one line of the leaderboard.
type LeaderLine struct {
	Rank   int
	Name   string
	URL    string
	Bot    bool
	Rating RatingText
	Games  int
}

// PlayerPage is a player's page.
type PlayerPage struct {
	Shell  Shell
	Name   string
	Bot    bool
	Since  string
	Rating RatingText
	// RatedGames counts the rated games; the rest count every game over.
	RatedGames                 int
	Games, Wins                int
	Places                     []PlaceCell
	Calls, RightCalls          int
	Lies, Sneaks, SneaksCaught int
	Chart                      Chart
	Recent                     []RecentGame
	IsYou                      bool
}

// PlaceCell is how often a player came in one place ("2nd", 4).
type PlaceCell struct {
	Place string
	Games int
}

// RecentGame is one line of a player's recent games.
type RecentGame struct {
	When, Review string
	Seats        int
	Place        string
	// Change is the rating change ("1500 → 1502 (+2.4)"), "" when unrated.
	Change string
}

// Chart is a rating history drawn as an SVG line: the points already
// placed in the chart's own units (Width × Height, y downwards).
type Chart struct {
	Width, Height int
	// Left, Right, Top and Bottom bound the plotting area.
	Left, Right, Top, Bottom int
	Points                   []ChartPoint
	// YTicks and XTicks label the axes.
	YTicks, XTicks []ChartTick
	// Title and Desc are read aloud: what the chart shows, in words.
	Title, Desc string
}

// ChartPoint is one rated game on the chart.
type ChartPoint struct {
	X, Y float64
	// Label is the point's tooltip ("12 Mar: 1502").
	Label string
}

// ChartTick is one labelled mark on an axis, at Pos along it.
type ChartTick struct {
	Pos   float64
	Label string
}

// RatingLine is one rated seat's change on the result sheet.
type RatingLine struct {
	Name string
	// URL is the player's page.
	URL string
	// Change is "1500 → 1502 (+2.4)".
	Change      string
	Provisional bool
	You         bool
}
