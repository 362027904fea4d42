package views

// GamesPage is the list of finished games, searchable by a player's name.
type GamesPage struct {
	Shell Shell
	// Player is the name searched for, "" for every game.
	Player string
	Rows   []GameRow
	// Page counts from 1; Prev and Next are the neighbouring pages' URLs,
	// "" when there is none.
	Page       int
	Prev, Next string
}

// ReviewPage is a finished game's review: the step shown and, beside it,
// the result and each seat's game in numbers.
type ReviewPage struct {
	Shell Shell
	Game  string
	// Headline is "Ada won in 42 plays"; Settings the table's settings.
	Headline, Settings string
	// Script and Style are the review's own static files' URLs.
	Script, Style string
	// Record is the URL of the record's JSON.
	Record string
	Step   ReviewStep
	Result []ReviewResult
	Stats  []ReviewStats
	// Rated: some seat's rating changed, so the result shows a column for it.
	Rated bool
}

// ReviewStep is one step of a review: the deal (step 0) or a play.
type ReviewStep struct {
	Game string
	// No is the step, Last the last one (the number of plays).
	No, Last int
	// Title is "The deal" or "Play 12 of 54".
	Title string
	Deal  []ReviewHand
	Play  *ReviewPlay
}

// ReviewHand is one seat's cards: as dealt, at step 0.
type ReviewHand struct {
	Name  string
	Cards []Card
}

// ReviewPlay is one play read back.
type ReviewPlay struct {
	// Who played; RankCode and Claim say what they claimed ("K", "Ada
	// claims 2 kings").
	Who, RankCode, Claim string
	// Cards are the cards truly put down, each marked.
	Cards []ReviewCard
	// Verdict is "The truth", "A lie" or "A sneak of 1 card"; Tone colours
	// it ("truth", "lie", "sneak").
	Verdict, Tone string
	// Sizes are the counts the table saw ("Ada's hand 9-10 → 7 · pile 4-6 → 7-10").
	Sizes string
	// Shows says whether a careful watcher could see a sneak in them.
	Shows     string
	ShowsSeen bool
	// Answers are who let it go or called, and how fast.
	Answers []ReviewAnswer
	// Outcome is what came of it: the call's verdict and who took the pile.
	Outcome string
	// HandOver is the hand-over after a caught sneak and its cards.
	HandOver      string
	HandOverCards []Card
	// Readings are what the counts showed each listener.
	Readings []ReviewReading
	// GoodBet and Missed are the review's marks on the play, in words.
	GoodBet, Missed string
	// Left is every seat's true count once the play was settled.
	Left []ReviewCount
}

// ReviewCard is a card truly played: Off if not of the rank claimed,
// Sneaked if it went under the claim.
type ReviewCard struct {
	Card
	Off, Sneaked bool
}

// ReviewAnswer is one seat's answer to a play.
type ReviewAnswer struct {
	Name, Did, After string
	Called           bool
}

// ReviewReading is one listener's reading of a play: Lie and Sneak are
// percentages in words ("62%"); Call says the reading said to call.
type ReviewReading struct {
	Name, Lie, Sneak string
	Call, Impossible bool
}

// ReviewCount is a seat's true number of cards.
type ReviewCount struct {
	Name  string
	Cards int
}

// ReviewResult is one line of the result: the place, cards left and, for a
// rated seat, the rating change ("1500 → 1512 (+12)").
type ReviewResult struct {
	Place, Left  int
	Name, Rating string
}

// ReviewStats is one seat's game in numbers.
type ReviewStats struct {
	Name                                                        string
	Plays, Lies, Sneaks, Caught, Calls, Right, GoodBets, Missed int
}
