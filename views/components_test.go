package views

import "testing"

func cards(codes ...string) []Card {
	out := make([]Card, len(codes))
	for i, c := range codes {
		out[i] = Card{Code: c, Rank: c[:1], Suit: "♠", Name: c}
	}
	return out
}

func TestSeats(t *testing.T) {
	three := []SeatCell{
		{Seat: 1, Name: "Ben", Kind: "person", Count: "9-10", Turn: true},
		{Seat: 2, Name: "Bold bot", Kind: "bot", Style: "medium", Count: "7", Bubble: "Bullshit!", BubbleKind: BubbleCall, Away: false},
		{Seat: 0, Name: "You", Kind: "person", You: true, Count: "5", Before: "3", Sweep: 1.5},
	}
	away := []SeatCell{{Seat: 1, Name: "Cy", Kind: "person", Count: "4", Away: true, Covered: true}, {Seat: 2, Name: "Di", Kind: "person", Count: "0", Bubble: "Out!", BubbleKind: BubbleOut}}
	runCases(t, []componentCase{
		{"counts, turn and bubble", Seats(three, false, false), []check{
			count(".seat", 3), attrIs(".seat", "data-seat", "1"), says(".seat", "9-10"), present(".seat[data-turn]"),
			says(".bubble-call", "Bullshit!"), says(".seat-style", "medium"),
			says(".count-before", "3"), says(".count-after", "5"), present(".seat[data-you]"), absent(".horseshoe"),
		}},
		{"away and out", Seats(away, true, false), []check{
			present(".horseshoe"), present(".seat[data-away]"), says(".mark", "away"), says(".bubble-out", "Out!"), absent(".count-before"),
		}},
	})
}

func TestMiddle(t *testing.T) {
	runCases(t, []componentCase{
		{"a claim with a clock", MiddleView(Middle{RankCode: "K", Rank: "kings", Pile: "Pile · 7-10 cards", Claim: "Ada claims 2 kings",
			Sizes: "Ada's hand 9-10 → 7 · pile 4-6 → 7-10", Doubt: "Can't be true: you hold 3 of the 4 kings.",
			Clock: Clock{Key: "3-call", Total: 6, Left: 4, Label: "Time to call", SayAt: 2}}, false), []check{
			says("#rank", "K"), says("#pile", "Pile · 7-10 cards"), says("#claim-line", "Ada claims 2 kings"),
			says("#sizes", "Ada's hand 9-10 → 7 · pile 4-6 → 7-10"), says("#doubt", "Can't be true"),
			present("#clock-3-call"), attrIs(".clock-bar", "data-say-at", "2.00"), attrIs("#claim-line", "aria-live", "polite"),
		}},
		{"no play yet", MiddleView(Middle{RankCode: "A", Rank: "aces", Pile: "Pile · empty"}, false), []check{
			present("#clock"), absent(".clock-bar"), says("#pile", "empty"),
		}},
		{"the pile held still until the sweep", MiddleView(Middle{RankCode: "2", Rank: "2s", Pile: "Pile · empty", PileBefore: "Pile · 4-6 cards", Sweep: 2}, false), []check{
			says(".count-before", "4-6"), says(".count-after", "empty"), flag(".count-swap", "data-keep-anim", true),
		}},
	})
}

func TestHand(t *testing.T) {
	picked := cards("KS", "KH", "2C")
	picked[0].Picked, picked[0].Lit = true, true
	runCases(t, []componentCase{
		{"my turn, picks checked on a page", HandView(Hand{Game: "g", Cards: picked, PickKey: "play-4", Selectable: true, CheckPicks: true}, false), []check{
			count("input[name=card]", 3), count(".card", 3), attrIs("form", "id", "hand"), attrIs("#hand", "data-pick-key", "play-4"),
			absent("input[name=no]"), flag("[data-pick]", "checked", true), count("[checked]", 1), count("[disabled]", 0),
			present("#hand .card[data-lit]"), attrIs("#hand", "hx-get", "/games/g/hint"),
		}},
		{"a push leaves checking to the browser", HandView(Hand{Game: "g", Cards: picked, PickKey: "play-4", Selectable: true}, false), []check{
			count("[data-pick]", 1), count("[checked]", 0),
		}},
		{"not my turn", HandView(Hand{Game: "g", Cards: cards("AS", "3D")}, false), []check{
			count("[disabled]", 2), absent(".selectable"),
		}},
		{"a spectator", HandView(Hand{Game: "g", Spectator: true, Empty: "You're watching: the hands stay hidden."}, false), []check{
			count(".card", 0), says(".empty", "watching"),
		}},
	})
}

func TestDock(t *testing.T) {
	claim := &Move{ID: "claim", Label: "Claim 2 kings", Key: "C", Action: "play"}
	runCases(t, []componentCase{
		{"my turn", DockView(Dock{Game: "g", No: 3, Status: "Your turn: claim kings.", Left: &Move{ID: "sort", Label: "Sort", Key: "O"}, Right: claim,
			Sneak: &Sneak{Max: 2}}, "claim", false), []check{
			says("#status", "Your turn"), attrIs("#dock", "data-no", "3"), attrIs("#status", "aria-live", "polite"), says("#claim", "Claim 2 kings"), says("#claim kbd", "C"),
			attrIs("#claim", "hx-post", "/games/g/play"), attrIs("#claim", "hx-include", "#hand"), attrIs("#claim", "aria-keyshortcuts", "C"),
			attrIs("#sneak", "data-max", "2"), says("#sneak", "+0"), present("#sort"), attrIs(".teach", "data-teach", "claim"),
			flag(".teach", "hidden", true), flag("#claim", "disabled", false),
		}},
		{"a call window", DockView(Dock{Game: "g", No: 3, Status: "Ada claims 2 kings.", Left: &Move{ID: "let-go", Label: "Let it go", Key: "G", Action: "pass"},
			Right: &Move{ID: "call", Label: "Bullshit!", Key: "B", Action: "call", Big: true}}, "", false), []check{
			says("#call", "Bullshit!"), present(".big"), attrIs("#call", "hx-post", "/games/g/call"), says("#let-go", "Let it go"),
			attrIs("#let-go", "data-key", "G"), absent("#sneak"), absent(".teach"),
		}},
		{"the hand-over", DockView(Dock{Game: "g", Right: &Move{ID: "give", Label: "Hand over", Key: "C", Action: "give"}}, "give", false), []check{
			attrIs("#give", "hx-post", "/games/g/give"), attrIs(".teach", "data-teach", "give"),
		}},
		{"waiting, disabled", DockView(Dock{Game: "g", Right: &Move{ID: "claim", Label: "Claim", Key: "C", Action: "play", Disabled: true}}, "", false), []check{
			flag("#claim", "disabled", true),
		}},
		{"a spectator of an open table", DockView(Dock{Game: "g", TakeSeat: true, Status: "You're watching."}, "", false), []check{
			present("#take-seat"), absent("#claim"), absent("#call"),
		}},
	})
}

func TestReveal(t *testing.T) {
	r := &Reveal{Key: "12", Shout: "Ada called it on you", Cards: cards("KS", "4H"), Verdict: "Caught sneaking!", Tone: "lie",
		Take: "You take the pile: 7-10 cards come to your hand.", Shout0: -0.2, Flip0: 0.5, Verdict0: 2, Take0: 3, End: 4, FlipEach: 0.75}
	runCases(t, []componentCase{
		{"none", RevealView(nil, false), []check{present("#reveal"), absent(".reveal")}},
		{"the four beats", RevealView(r, false), []check{
			present("#reveal-12"), says(".beat-shout", "Ada called it on you"), count(".beat-flip .card", 2), count(".flip", 2),
			says(".beat-verdict", "Caught sneaking!"), present(".tone-lie"), says(".beat-take", "You take the pile"),
			attrIs("#reveal-12", "style", "--shout:-0.200s;--flip:0.500s;--verdict:2.000s;--take:3.000s;--end:4.000s;--each:0.750s;"),
			flag("#reveal-12", "data-keep-anim", true),
		}},
	})
}

func TestResultSheet(t *testing.T) {
	rows := []ResultRow{{Place: 1, Name: "Ada", Left: 0, Sneaked: 2, Caught: 0, Calls: 5, Right: 3}, {Place: 2, Name: "You", You: true, Left: 4, Calls: 1, Right: 1}}
	runCases(t, []componentCase{
		{"a player", ResultSheet(Result{Game: "g", Headline: "Ada wins!", Rows: rows, ShareText: "Bullshit, 2 players.", CanPlayAgain: true}, false), []check{
			says("h1", "Ada wins!"), count("tbody tr", 2), says("tbody tr", "3 of 5"), present("tr.you"), says("#share-text", "Bullshit, 2 players."),
			says("#play-again", "Play again"), attrIs("#play-again", "hx-post", "/games/g/again"),
		}},
		{"after someone opened the next", ResultSheet(Result{Game: "g", Rows: rows, CanPlayAgain: true, Next: "/games/h"}, false), []check{
			says("#play-again", "Join the next game"),
		}},
		{"a spectator", ResultSheet(Result{Game: "g", Rows: rows}, false), []check{absent("#play-again"), attrIs("#review-link", "href", "/games/g/review")}},
	})
}

func TestWaitingRoom(t *testing.T) {
	seats := []SeatCell{{Seat: 0, Name: "Ada", Kind: "person", Host: true, You: true}, {Seat: 1, Name: "Bold bot", Kind: "bot", Style: "medium", Removable: true}, {Seat: 2, Kind: "empty"}}
	host := Waiting{Game: "g", Code: "g", ShareURL: "/games/g", Seats: seats, IsHost: true, CanAddBot: true, CanStart: false, StartLabel: "Start (3 players at least)", Levels: []Choice{{Value: "easy", Label: "Easy"}}}
	guest := host
	guest.IsHost, guest.Seats = false, []SeatCell{{Seat: 0, Name: "Ada", Kind: "person", Host: true}, {Seat: 1, Name: "Ben", Kind: "person", You: true}}
	spectator := guest
	spectator.Spectator = true
	runCases(t, []componentCase{
		{"the host", WaitingScreen(host), []check{
			count("#waiting .seat", 3), present(".remove-bot"), attrIs(".remove-bot", "hx-post", "/games/g/bots/1/remove"), present("#add-bot"),
			flag("#start", "disabled", true), says("#start", "3 players"), attrIs("#share-link", "value", "/games/g"), says("#share", "g"), absent("#take-seat"),
		}},
		{"a guest", WaitingScreen(guest), []check{absent("#start"), absent("#add-bot"), absent(".remove-bot"), present(".you")}},
		{"a spectator", WaitingScreen(spectator), []check{present("#take-seat"), attrIs("#take-seat", "hx-post", "/games/g/join")}},
	})
}

func TestScreenSwitchesOnStatus(t *testing.T) {
	w := &Waiting{Game: "g"}
	tb := &Table{Status: "live", Hand: Hand{Game: "g"}, Dock: Dock{Game: "g"}}
	runCases(t, []componentCase{
		{"open", Screen(w, nil, false, nil), []check{attrIs("#screen", "data-status", "open"), present("#waiting"), absent("#hand"), flag("#screen", "hx-swap-oob", false)}},
		{"live, pushed", Screen(nil, tb, true, nil), []check{
			attrIs("#screen", "data-status", "live"), attrIs("#screen", "hx-swap-oob", "morph"),
			present("#bar"), present("#seats"), present("#middle"), present("#hand"), present("#dock"), present("#reveal"), absent("#result"),
		}},
	})
}

func TestLobbyLists(t *testing.T) {
	lists := LobbyLists{Open: []GameRow{{ID: "abc", URL: "/games/abc", Host: "Ada", Players: "with 3 bots", Seats: "4 of 10 seated", Detail: "Sneak up to 2"}}}
	runCases(t, []componentCase{
		{"rows and empties, pushed", LobbyListsView(lists, true), []check{
			attrIs("#open-tables", "hx-swap-oob", "morph"), says("#open-tables", "Ada"), attrIs("#open-tables a", "href", "/games/abc"),
			says("#live-tables", "No game is being played"), says("#finished-games", "No game has finished"),
		}},
		{"on the page", LobbyListsView(lists, false), []check{flag("#open-tables", "hx-swap-oob", false)}},
	})
}

func TestPages(t *testing.T) {
	shell := Shell{Title: "T", Stream: "/games/g/events", Main: "game", Assets: Assets{CSS: "/static/x/site.css", HTMX: "/h.js", SSE: "/s.js", Morph: "/m.js", Table: "/t.js"}}
	lobby := Lobby{Shell: shell, Title: "Bullshit", Kicker: "Card game · 3 to 10 players", Settings: []Setting{{Key: "sneak", Label: "Sneaking", Hint: "The most extra cards you may slip under a play.",
		Choices: []Choice{{Value: "0", Label: "Off"}, {Value: "2", Label: "2", Selected: true}}}}, Bots: 3, MaxBots: 9}
	runCases(t, []componentCase{
		{"the shell", GamePage(Page{Shell: shell, Waiting: &Waiting{Game: "g"}, Options: Assists{Light: true, Count: true}}), []check{
			attrIs("body", "hx-ext", "sse,morph"), count("[sse-connect]", 1), attrIs("#live", "sse-connect", "/games/g/events"),
			count("[hx-headers]", 0), attrIs("html", "class", "assist assist-light assist-count"),
		}},
		{"the lobby", LobbyView(lobby), []check{
			present("form#create"), present("form#join"), attrIs("input[name=bots]", "value", "3"), says(".kicker", "3 to 10 players"),
			says(".setting .hint", "The most extra cards"), count("input[name=_csrf]", 0), present("#open-tables"),
		}},
		{"options", OptionsView(OptionsPage{Shell: shell, Assists: Assists{Pick: true, Sound: true}}), []check{count("[role=switch]", 7), count("[checked]", 2)}},
		{"an error", ErrorView(ErrorPage{Shell: shell, Status: 404, Title: "Nothing here", Message: "There's no page at that address."}), []check{says("h1", "Nothing here")}},
	})
}
