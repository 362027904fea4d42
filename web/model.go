package web

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"bullshit/engine"
	"bullshit/game"
	"bullshit/views"
	"bullshit/views/words"
)

// screen is what a seat sees of a game: the waiting room before the start,
// else the table. It translates the frame into the views' models and decides
// nothing the engine has not.
func screen(f game.Frame, now time.Time) (*views.Waiting, *views.Table) {
	if f.View == nil {
		w := waitingModel(f)
		return &w, nil
	}
	t := tableModel(f, now)
	return nil, &t
}

// waitingModel is the waiting room as seat f.Seat sees it: the host gets
// the controls, a spectator of an open table the "Take a seat" form.
func waitingModel(f game.Frame) views.Waiting {
	g := f.Game
	isHost := f.Seat == g.Host && f.Seat != engine.Spectator
	w := views.Waiting{
		Game: g.ID, Code: g.ID, ShareURL: "/games/" + g.ID, Settings: settingsLine(g.Options),
		IsHost: isHost, Spectator: f.Seat == engine.Spectator && g.Status == game.StatusOpen,
		Levels: levelChoices(),
	}
	seated, empty := 0, 0
	nm := newNames(g.Seats, f.Seat)
	for _, s := range g.Seats {
		c := seatCell(s, nm, g.Host)
		c.Removable = isHost && s.Kind == game.SeatBot
		w.Seats = append(w.Seats, c)
		if s.Kind == game.SeatEmpty {
			empty++
		} else {
			seated++
		}
	}
	w.CanAddBot = isHost && empty > 0
	w.CanStart = isHost && seated >= engine.MinSeats
	w.StartLabel = "Start the game"
	if !w.CanStart {
		w.StartLabel = fmt.Sprintf("Start (%d players at least)", engine.MinSeats)
	}
	switch {
	case g.Status != game.StatusOpen:
		w.Status = "This game was ended before it started."
	case isHost && w.CanStart:
		w.Status = fmt.Sprintf("%d seated. Invite friends or add bots, then start.", seated)
	case isHost:
		w.Status = fmt.Sprintf("%d seated: a game needs %d. Invite friends or add bots.", seated, engine.MinSeats)
	case f.Seat == engine.Spectator:
		w.Status = "Take a seat to play, or watch once it starts."
	default:
		w.Status = "You're in. Waiting for " + g.Seats[g.Host].Name + " to start."
	}
	return w
}

// seatCell is a seat as the waiting room and the strip show it.
func seatCell(s game.SeatInfo, nm names, host int) views.SeatCell {
	c := views.SeatCell{Seat: s.Seat, Name: nm.of(s.Seat), Kind: string(s.Kind), You: s.Seat == nm.me, Host: s.Seat == host,
		Away: s.Away, Covered: s.Covered}
	if s.Bot != nil && s.Kind == game.SeatBot {
		// A bot is known by its style; its level is the line under it.
		c.Style = s.Bot.Level
	}
	return c
}

// settingsLine is a table's settings in a few words.
func settingsLine(o engine.Options) string {
	sneak := "no sneaking"
	if o.Sneak > 0 {
		sneak = "sneak up to " + strconv.Itoa(o.Sneak)
	}
	line := fmt.Sprintf("%s · %s to call · %s bots", words.Capital(sneak), words.Seconds(o.Window), o.Pace)
	if o.Grace > 0 {
		// Plain words for the grace: the engine's "compete" is jargon.
		line += " · calls up to " + words.Seconds(o.Grace) + " apart count as together"
	}
	if o.PlayOn {
		line += " · playing on for places"
	}
	if o.Practice {
		line += " · practice deal, not rated"
	}
	return line
}

// names are the seats' names at a table as the pages say them, "You" for
// me, each unique at the table: "Bold bot claims one 4" must say which.
type names struct {
	shown []string
	me    int
}

// newNames names every seat: a person by their name, a bot by its style
// ("Bold bot"). A name a seat before it already has takes a number ("Bold
// bot 2"); the seats a bot covers for a person are named last, so a seat
// handed to a bot mid-game gets a name no other seat has and nobody else's
// name changes.
func newNames(seats []game.SeatInfo, me int) names {
	n := names{shown: make([]string, len(seats)), me: me}
	taken := map[string]bool{}
	for _, covered := range []bool{false, true} {
		for i, s := range seats {
			if s.Covered != covered || s.Kind == game.SeatEmpty {
				continue
			}
			base := s.Name
			if s.Kind == game.SeatBot && s.Bot != nil {
				base = words.Capital(s.Bot.Style) + " bot"
			}
			name := base
			for k := 2; taken[strings.ToLower(name)]; k++ {
				name = base + " " + strconv.Itoa(k)
			}
			taken[strings.ToLower(name)] = true
			n.shown[i] = name
		}
	}
	return n
}

// of is a seat's name at the table, even the viewer's own.
func (n names) of(seat int) string {
	if seat >= 0 && seat < len(n.shown) && n.shown[seat] != "" {
		return n.shown[seat]
	}
	return "Someone"
}

func (n names) name(seat int) string {
	if seat == n.me {
		return "You"
	}
	return n.of(seat)
}

// object is a name as the object of a sentence: "you" for me.
func (n names) object(seat int) string {
	if seat == n.me {
		return "you"
	}
	return n.name(seat)
}

func (n names) possessive(seat int) string {
	if seat == n.me {
		return "Your"
	}
	return n.name(seat) + "'s"
}

// tableTitle is a table page's title, from the game's first frame of play
// on: the page takes it from each push, so a tab started in the waiting
// room says it is a game, and then that the game is over.
func tableTitle(g game.Summary) string {
	if g.Status == game.StatusFinished || g.Status == game.StatusEnded {
		return "Table " + g.ID + " · game over · Bullshit"
	}
	return "Table " + g.ID + " · Bullshit"
}

// tableModel is the seat's whole table, region by region.
func tableModel(f game.Frame, now time.Time) views.Table {
	v := f.View
	g := f.Game
	me := f.Seat
	nm := newNames(g.Seats, me)
	t := views.Table{
		Status: string(g.Status),
		Bar:    views.Bar{Title: tableTitle(g), Code: g.ID, Plays: v.Plays, Settings: settingsLine(g.Options), Watching: me == engine.Spectator},
	}
	t.Seats = seatStrip(f, nm, now)
	t.Horseshoe = len(t.Seats) >= 5
	t.Middle = middleModel(v, nm, now)
	t.Hand = handModel(g.ID, v, now)
	t.Dock, t.Teach = dockModel(g, v, nm)
	t.Reveal = revealModel(v, nm, now)
	if v.Phase == engine.PhaseOver {
		r := resultModel(g, v, nm)
		r.Ratings = ratingLines(f, nm)
		t.Result = &r
	}
	return t
}

// seatStrip is the seats from the player's left round to their right, the
// player last; a spectator sees them from seat 0.
func seatStrip(f game.Frame, nm names, now time.Time) []views.SeatCell {
	v := f.View
	n := len(v.Seats)
	first := 0
	if f.Seat != engine.Spectator {
		first = f.Seat + 1
	}
	deciding := map[int]engine.Think{}
	for _, d := range v.Deciding {
		deciding[d.Seat] = d.Think
	}
	cells := make([]views.SeatCell, 0, n)
	for k := range n {
		seat := (first + k) % n
		sv := v.Seats[seat]
		var info game.SeatInfo
		if seat < len(f.Game.Seats) {
			info = f.Game.Seats[seat]
		}
		c := seatCell(info, nm, f.Game.Host)
		c.Seat = seat
		if c.You {
			c.Name = "You"
		}
		// The table's count, or your own exactly; held still in a reveal
		// until the sweep lands.
		c.Count = sv.Count().String()
		if c.You {
			c.Count = strconv.Itoa(len(v.Hand))
		}
		if r := v.Reveal; r != nil && seat < len(r.Counts) {
			c.Before = r.Counts[seat].String()
			if c.You {
				c.Before = strconv.Itoa(len(handBeforeSweep(v)))
			}
			c.Sweep = r.Lands.Sub(now).Seconds()
		}
		_, c.Turn = deciding[seat]
		c.Turn = c.Turn && v.Phase != engine.PhaseCall
		c.Bubble, c.BubbleKind = bubble(v, seat)
		cells = append(cells, c)
	}
	placeHorseshoe(cells)
	return cells
}

// horseshoeSides is how many seats go down each side of the horseshoe, by
// the number of other seats; the rest go across the top.
var horseshoeSides = map[int]int{4: 1, 5: 1, 6: 2, 7: 2, 8: 2, 9: 3, 10: 3}

// placeHorseshoe gives each seat its cell in the horseshoe: up the left from
// the player's left, across the top, down the right to their right. The
// player's own seat, last, stays out of it.
func placeHorseshoe(cells []views.SeatCell) {
	others := cells
	if n := len(cells); n > 0 && cells[n-1].You {
		others = cells[:n-1]
	}
	side, ok := horseshoeSides[len(others)]
	if !ok {
		return
	}
	top := len(others) - 2*side
	span := 12 / top
	for i := range others {
		c := &others[i]
		switch {
		case i < side: // up the left
			c.Row, c.Col, c.Span = 1+side-i, 1, 3
		case i < side+top: // across the top
			c.Row, c.Col, c.Span = 1, 1+(i-side)*span, span
		default: // down the right
			c.Row, c.Col, c.Span = 2+(i-side-top), 10, 3
		}
	}
}

// bubble is what a seat is doing, in a word or two, and how it is drawn.
func bubble(v *engine.View, seat int) (string, views.BubbleKind) {
	l := v.Last
	switch v.Phase {
	case engine.PhasePlay:
		if seat == v.Turn {
			return "Playing…", views.BubbleSay
		}
	case engine.PhaseCall:
		if l != nil && seat == l.Seat {
			return "Claims " + strconv.Itoa(l.Claim), views.BubbleSay
		}
		if v.Seats[seat].Passed {
			return "Let it go", views.BubbleSay
		}
	case engine.PhaseReveal:
		if v.Reveal != nil && seat == v.Reveal.Caller {
			return "Bullshit!", views.BubbleCall
		}
	case engine.PhaseGive:
		if v.Give != nil && seat == v.Give.Caller {
			return "Picking…", views.BubbleSay
		}
	case engine.PhaseOver:
		// The winner who went out says so; with PlayOn the places after
		// went out too, but the bubble is the winner's.
		for _, r := range v.Result {
			if r.Seat == seat && r.Out && r.Place.Place == 1 {
				return "Out!", views.BubbleOut
			}
		}
	}
	return "", views.BubbleSay
}

// handBeforeSweep is the seat's own hand as the page shows it: in a reveal
// the loser's is still without the pile until the sweep lands.
func handBeforeSweep(v *engine.View) []engine.Card {
	if v.Reveal != nil && v.Reveal.Hand != nil {
		return v.Reveal.Hand
	}
	return v.Hand
}

// went says how a count changed as the table saw it: "9-10 → 7", from the
// exact count when it was known (a hand as dealt), or "still 11-13" where
// the change fell inside one range.
func went(r [2]engine.Range, exactBefore int) string {
	before := r[0].String()
	if exactBefore > 0 {
		before = strconv.Itoa(exactBefore)
	}
	if before == r[1].String() {
		return "still " + before
	}
	return before + " → " + r[1].String()
}

// middleModel is the middle of the table: the rank on the table, the pile,
// the last claim and its sizes line, the doubt hint and the clock.
func middleModel(v *engine.View, nm names, now time.Time) views.Middle {
	me := nm.me
	rank := v.Rank
	if v.Last != nil && v.Phase != engine.PhasePlay && v.Phase != engine.PhaseOver {
		rank = v.Last.Rank
	}
	m := views.Middle{RankCode: rankCode(rank), Rank: rank.Name(true), Pile: pileWords(v.Pile)}
	if l := v.Last; l != nil {
		m.Claim = nm.name(l.Seat) + " " + claimVerb(l.Seat == nm.me) + " " + count(l.Rank, l.Claim)
		if l.Out && !l.Shown {
			m.Claim += " to go out"
		}
		m.Sizes = nm.possessive(l.Seat) + " hand " + went(l.Sizes.Hand, l.Dealt) + " · pile " + went(l.Sizes.Pile, 0)
		if settled := v.Phase == engine.PhasePlay || v.Phase == engine.PhaseGive || v.Phase == engine.PhaseOver; settled && l.Caller >= 0 {
			// The reveal is over and the pile has gone to its loser (a
			// hand-over comes after that): the sizes it changed are
			// history, and the claim is said as called.
			whose := nm.possessive(l.Seat)
			if l.Seat == me {
				whose = "your"
			}
			m.Claim = nm.name(l.Caller) + " called " + whose + " " + count(l.Rank, l.Claim)
			m.Sizes = ""
		}
		if v.Reveal != nil {
			m.PileBefore = pileWords(l.Sizes.Pile[1])
			m.Sweep = v.Reveal.Lands.Sub(now).Seconds()
		}
	}
	m.Doubt = v.Doubt
	m.Grew = v.Phase == engine.PhaseCall
	m.Clock = clockModel(v, now)
	return m
}

// count says n cards of a rank: "one king", "one 7", "2 kings".
func count(r engine.Rank, n int) string {
	if n == 1 {
		return "one " + r.Name(false)
	}
	return r.Count(n)
}

func claimVerb(you bool) string {
	if you {
		return "claim"
	}
	return "claims"
}

// does is a name with its verb agreeing: "You hand", "Ada hands".
func (n names) does(seat int, verb string) string {
	if seat == n.me {
		return "You " + verb
	}
	return n.of(seat) + " " + verb + "s"
}

// rankCode is the rank as a card prints it.
func rankCode(r engine.Rank) string {
	if r == engine.Ten {
		return "10"
	}
	return r.String()
}

func pileWords(r engine.Range) string {
	switch {
	case r.Hi == 0:
		return "Pile · empty"
	case r.Exact() && r.Lo == 1:
		return "Pile · 1 card"
	}
	return "Pile · " + r.String() + " cards"
}

// clockModel draws the call window and the hand-over as a bar emptying.
func clockModel(v *engine.View, now time.Time) views.Clock {
	var total time.Duration
	label := ""
	switch v.Phase {
	case engine.PhaseCall:
		total, label = v.Options.Window, "Time to call"
	case engine.PhaseGive:
		total, label = engine.GiveTime, "Time to hand over"
	default:
		return views.Clock{}
	}
	if v.Closes.IsZero() {
		return views.Clock{}
	}
	left := max(0, min(v.Closes.Sub(now), total))
	c := views.Clock{Key: fmt.Sprintf("%d-%s", v.Plays, v.Phase), Total: total.Seconds(), Left: left.Seconds(), Label: label, SayAt: -1}
	if left > 2*time.Second {
		c.SayAt = (left - 2*time.Second).Seconds()
	}
	return c
}

var suitSigns = map[engine.Suit]string{engine.Spades: "♠", engine.Hearts: "♥", engine.Diamonds: "♦", engine.Clubs: "♣"}

// suitPlaces are the suits' places in a hand sorted by suit, the colours
// alternating.
var suitPlaces = map[engine.Suit]int{engine.Spades: 0, engine.Hearts: 1, engine.Clubs: 2, engine.Diamonds: 3}

func cardModel(c engine.Card) views.Card {
	s := c.Suit()
	return views.Card{Code: c.String(), Rank: rankCode(c.Rank()), Suit: suitSigns[s], Name: c.Name(),
		Red: s == engine.Hearts || s == engine.Diamonds, SuitPlace: suitPlaces[s]}
}

// handModel is the seat's hand with the cards the server would pick: those
// of the rank on its turn, the suggestion in a hand-over.
func handModel(game string, v *engine.View, now time.Time) views.Hand {
	h := views.Hand{Game: game, Spectator: v.Seat == engine.Spectator}
	var picks []engine.Card
	switch {
	case slices.Contains(v.Can, engine.ActPlay):
		h.Selectable, h.PickKey = true, "play-"+strconv.Itoa(v.Plays)
		picks = v.Picks()
	case slices.Contains(v.Can, engine.ActGive) && v.Give != nil:
		h.Selectable, h.PickKey = true, "give-"+strconv.Itoa(v.Plays)
		picks = v.Give.Suggested
	}
	hand := handBeforeSweep(v)
	h.Cards = make([]views.Card, len(hand))
	for i, c := range hand {
		h.Cards[i] = cardModel(c)
		h.Cards[i].Lit = c.Rank() == v.Rank
		h.Cards[i].Picked = slices.Contains(picks, c)
	}
	switch {
	case h.Spectator:
		h.Empty = "You're watching: the hands stay hidden."
	case len(hand) == 0:
		h.Empty = "No cards left."
	}
	if r := v.Reveal; r != nil && r.Hand != nil {
		// Taking the pile is done to you: said once the sweep lands.
		took := len(v.Hand) - len(r.Hand)
		h.Say = views.Say{Key: "took-" + strconv.Itoa(v.Last.No), At: r.Lands.Sub(now).Seconds(),
			Text: "You take the pile: " + words.Count(took, "card") + " " + words.Plural(took, "comes", "come") + " to your hand."}
	}
	return h
}
