// Package views renders the site's pages and the regions a push replaces, as
// templ components. Every component is a pure function of the plain models
// in this file: the web package builds them from the table's frame and the
// engine's view, and nothing here reads a clock, a store or a request.
package views

// Shell is what every page's frame needs.
type Shell struct {
	Title string
	// Assets are the hashed URLs of the static files.
	Assets Assets
	// Stream is the URL of the page's event stream, or "" for none; Poll, if
	// set and there is no stream, is fetched every second instead and its
	// answer swapped the same way.
	Stream string
	Poll   string
	// Main names the page for its styles ("lobby", "table", "rules").
	Main string
	// Account is the signed-in account's name, "" for a guest.
	Account string
}

// Assets are the static files' hashed URLs.
type Assets struct {
	CSS, HTMX, SSE, Morph, Table string
	// Icon is the site's icon as SVG, TouchIcon as a PNG for a phone's
	// home screen.
	Icon, TouchIcon string
}

// Choice is one option of a setting.
type Choice struct {
	Value, Label string
	Selected     bool
}

// Setting is one of a new table's settings, in the words of the lobby.
type Setting struct {
	Key, Label, Hint string
	Choices          []Choice
}

// Lobby is the front page.
type Lobby struct {
	Shell    Shell
	Title    string
	Kicker   string
	Blurb    string
	Settings []Setting
	// More are the table options past the three settings, behind "More
	// options": fair shouts and playing on for places.
	More []Setting
	// Bots is the default number of bots; MaxBots the most; Levels the
	// bots' levels with the default selected.
	Bots, MaxBots int
	Levels        []Choice
	// Name is the name this browser used last.
	Name  string
	Lists LobbyLists
	// Error is a refusal to show above the forms.
	Error string
}

// LobbyLists are the lobby's three live lists.
type LobbyLists struct {
	Open, Live, Finished []GameRow
}

// GameRow is one game in a lobby list.
type GameRow struct {
	ID, URL string
	Host    string
	// Players says who sits, in words ("Ada, Ben and 3 bots").
	Players string
	// Seats is "4 of 10"; Detail the settings or the winner.
	Seats, Detail string
}

// SeatCell is one seat as the waiting room and the table draw it.
type SeatCell struct {
	Seat int
	Name string
	// Kind is "person", "bot" or "empty".
	Kind string
	// Style is a bot's style and level in words ("Bold, medium").
	Style   string
	You     bool
	Host    bool
	Away    bool
	Covered bool
	// Count is the hand as the table sees it ("7", "9-10"); Before is the
	// count shown until the reveal's sweep lands, when it differs.
	Count, Before string
	// Turn: the seat is deciding now; Bubble is what it is saying, drawn as
	// BubbleKind says.
	Turn       bool
	Bubble     string
	BubbleKind BubbleKind
	// Removable: the host may take this bot off the table.
	Removable bool
	// Sweep is when, in seconds from the render, a reveal's sweep lands and
	// Count replaces Before.
	Sweep float64
	// Row, Col and Span place the seat in the horseshoe: a grid of twelve
	// columns with the pile in the middle of rows 2 and on.
	Row, Col, Span int
}

// BubbleKind is how a seat's bubble is drawn: a word or two said, a call,
// or going out.
type BubbleKind uint8

// The kinds of bubble.
const (
	BubbleSay BubbleKind = iota
	BubbleCall
	BubbleOut
)

// class is the bubble's CSS class.
func (k BubbleKind) class() string {
	switch k {
	case BubbleCall:
		return "bubble-call"
	case BubbleOut:
		return "bubble-out"
	}
	return "bubble-say"
}

// Waiting is the waiting room.
type Waiting struct {
	Game       string
	Code       string
	ShareURL   string
	Seats      []SeatCell
	Settings   string
	IsHost     bool
	Spectator  bool
	CanAddBot  bool
	CanStart   bool
	StartLabel string
	Levels     []Choice
	// Status is a line for the waiting player.
	Status string
}

// Card is one card of a hand or a reveal.
type Card struct {
	// Code is the engine's text form ("KS", "TD2"); Rank and Suit are what
	// is printed ("K", "♠"); Name is read aloud ("king of spades").
	Code, Rank, Suit, Name string
	Red                    bool
	// SuitPlace is the place of the card's suit in a hand sorted by suit:
	// spades, hearts, clubs, diamonds, the colours alternating.
	SuitPlace int
	// Lit: the card is of the rank called (the "light up" assist).
	Lit bool
	// Picked: preselected by "pick them for me" or the hand-over's choice.
	Picked bool
}

// Table is one seat's whole table screen.
type Table struct {
	Status string // game.Status
	Bar    Bar
	Seats  []SeatCell
	// Horseshoe lays five seats or more round the pile on a phone.
	Horseshoe bool
	Middle    Middle
	Hand      Hand
	Dock      Dock
	Reveal    *Reveal
	Result    *Result
	Teach     string
}

// Bar is the table's top bar.
type Bar struct {
	// Title is the page's title: the table and how its game stands.
	Title    string
	Code     string
	Plays    int
	Settings string
	Watching bool
}

// Middle is the centre of the table.
type Middle struct {
	// RankCode and Rank are the rank called ("K", "kings").
	RankCode, Rank string
	// Pile is "Pile · 7-10 cards"; PileBefore the same before a sweep.
	Pile, PileBefore string
	// Grew: a play has just gone onto the pile, which lights up.
	Grew bool
	// Claim is "Ada claims 2 kings"; Sizes "Ada's hand 9-10 → 7 · pile 4-6 → 7-10".
	Claim, Sizes string
	Doubt        string
	Clock        Clock
	// Sweep is when, in seconds from the render, the pile's sweep lands.
	Sweep float64
}

// Clock is a deadline drawn as a bar emptying in a fixed space.
type Clock struct {
	// Key changes with every new deadline, so its bar starts afresh.
	Key string
	// Total and Left are the whole span and what is left, in seconds.
	Total, Left float64
	Label       string
	// SayAt is how long from now the two-second warning is said; <0 none.
	SayAt float64
}

// Hand is the seat's own hand.
type Hand struct {
	Game  string
	Cards []Card
	// PickKey changes whenever the server's picks should replace the
	// player's own selection (a new turn, a new hand-over).
	PickKey string
	// Selectable: the seat may pick cards now (its turn or a hand-over).
	Selectable bool
	// CheckPicks renders the picks checked: a whole page, with the "pick
	// them for me" assist on. A push leaves the checking to the browser.
	CheckPicks bool
	Empty      string
	Spectator  bool
	// Say is said to the player at a moment of the reveal: the pile they
	// take, once the sweep lands.
	Say Say
}

// Say is a line the page announces At seconds from the render, once per
// Key.
type Say struct {
	Key, Text string
	At        float64
}

// Move is one button of the dock.
type Move struct {
	ID, Label, Key, Action string
	Disabled               bool
	Big                    bool
	// OOB marks the button for an out-of-band swap, in a hint's answer.
	OOB bool
}

// Dock is the bar of moves at the bottom.
type Dock struct {
	Game   string
	No     int
	Status string
	// Left and Right are the two fixed move slots; Right is the main one.
	Left, Right *Move
	// Sneak is the sneak switch, when sneaking is allowed on this move.
	Sneak *Sneak
	// Sort is the sort key's button.
	Sort bool
	// TakeSeat: a spectator of an open table sees a "Take a seat" button.
	TakeSeat  bool
	Spectator bool
	// Alert is the move waiting for the player (their turn, a hand-over
	// they owe), for the page to tell a player whose tab is hidden: its
	// Key changes with every new one.
	Alert Alert
}

// Alert is a move waiting for the player, in a few words (the tab's title,
// a notification's heading) and a sentence.
type Alert struct {
	Key, Title, Body string
}

// Sneak is the sneak switch: how many picked cards go under the claim.
type Sneak struct {
	Max int
}

// Reveal is a called play turned up, beat by beat, timed from the render.
type Reveal struct {
	// Key is the play's number, so a new reveal starts its animations afresh.
	Key   string
	Shout string
	Cards []Card
	// Verdict is "Truth!", "Lie!" or "Caught sneaking!"; Tone names its colour.
	Verdict, Tone string
	Take          string
	// Delays are when each beat starts, in seconds from the render (negative
	// for a beat already under way); Flip is the gap between cards.
	Shout0, Flip0, Verdict0, Take0, End float64
	FlipEach                            float64
}

// ResultRow is one line of the result sheet.
type ResultRow struct {
	Place, Left, Sneaked, Caught, Calls, Right int
	Name                                       string
	You                                        bool
}

// Result is the result sheet.
type Result struct {
	Game      string
	Headline  string
	Rows      []ResultRow
	ShareText string
	// PlayAgain: the host may open the next table; Next is its URL once open.
	CanPlayAgain bool
	Next         string
	// Ratings are the rated seats' changes, for a rated game.
	Ratings []RatingLine
}

// Page is a whole table page: the shell and, by the game's status, the
// waiting room or the table.
type Page struct {
	Shell   Shell
	Waiting *Waiting
	Table   *Table
	Options Assists
}

// Assists are the three helpers, each on unless turned off.
type Assists struct {
	Light, Pick, Count bool
	// Title, Sound, Vibrate and Notify tell a player whose tab is hidden
	// that a move waits for them: in the tab's title, with a short sound,
	// a vibration, a system notification (if the browser allows it).
	Title, Sound, Vibrate, Notify bool
}

// OptionsPage is the options page.
type OptionsPage struct {
	Shell   Shell
	Assists Assists
	Saved   bool
}

// Rules is How to play, its numbers from the engine.
type Rules struct {
	Shell Shell
	// The numbers and lists the text quotes.
	MinSeats, MaxSeats, TwoDecksFrom, MaxSneak, StandardSneak int
	Windows                                                   string
	StandardWindow, GiveTime                                  string
	Penalty                                                   string
	HandExact, PileExact, MaxClaim                            int
	HandBuckets, PileBuckets                                  string
	PlayCap                                                   int
	Keys                                                      []KeyHelp
}

// KeyHelp is one keyboard shortcut.
type KeyHelp struct{ Key, Does string }

// ErrorPage is a browser's error page.
type ErrorPage struct {
	Shell   Shell
	Status  int
	Title   string
	Message string
}
