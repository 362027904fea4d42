package engine

import (
	"slices"
	"testing"
	"time"
)

func TestPlayIsRecorded(t *testing.T) {
	tests := []struct {
		name        string
		play        Action
		wantClaim   int
		wantSneaked int
	}{
		{"claim 0 claims them all", Action{Kind: ActPlay, Seat: 0, Cards: cards(t, "AS AH")}, 2, 0},
		{"an exact claim", Action{Kind: ActPlay, Seat: 0, Cards: cards(t, "AS AH"), Claim: 2}, 2, 0},
		{"a sneak of one", Action{Kind: ActPlay, Seat: 0, Cards: cards(t, "AS AH 5D"), Claim: 2}, 2, 1},
		{"a sneak of two", Action{Kind: ActPlay, Seat: 0, Cards: cards(t, "9D AH 5D"), Claim: 1}, 1, 2},
		{"a bluff", Action{Kind: ActPlay, Seat: 0, Cards: cards(t, "KS")}, 1, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := rulesTable(t, Options{})
			before := slices.Clone(s.hands[0])
			mustApply(t, s, tt.play, at(1000))
			l := s.last
			if l.Claim != tt.wantClaim || l.Sneaked() != tt.wantSneaked {
				t.Errorf("got claim %d sneaked %d, want %d and %d", l.Claim, l.Sneaked(), tt.wantClaim, tt.wantSneaked)
			}
			if l.No != 1 || s.Plays() != 1 || l.Rank != Ace || l.Seat != 0 || l.Caller != -1 || l.Shown || l.Out {
				t.Errorf("got last play %+v, want play 1 of aces by seat 0, face down", l)
			}
			if got, want := len(s.hands[0]), len(before)-len(tt.play.Cards); got != want {
				t.Errorf("got %d cards left, want %d", got, want)
			}
			if !slices.Equal(s.pile, tt.play.Cards) {
				t.Errorf("got pile %v, want %v", s.pile, tt.play.Cards)
			}
			if s.Phase() != PhaseCall || !s.Deadline().Equal(at(1000).Add(StandardWindow)) {
				t.Errorf("got phase %v until %v, want the call window for %v", s.Phase(), s.Deadline(), StandardWindow)
			}
			want := Sizes{
				Hand: [2]Range{Seen(10, HandKind), Seen(10-len(tt.play.Cards), HandKind)},
				Pile: [2]Range{Seen(0, PileKind), Seen(len(tt.play.Cards), PileKind)},
			}
			if l.Sizes != want {
				t.Errorf("got sizes %+v, want %+v", l.Sizes, want)
			}
			// The cards are the player's secret until the play is called.
			if got := s.View(0).Last.Cards; !slices.Equal(got, tt.play.Cards) {
				t.Errorf("player's view: got cards %v, want %v", got, tt.play.Cards)
			}
			for _, seat := range []int{1, 2, 3, Spectator} {
				if got := s.View(seat).Last.Cards; got != nil {
					t.Errorf("seat %d's view: got cards %v, want none", seat, got)
				}
			}
		})
	}
}

func TestTwoDecksClaimEight(t *testing.T) {
	s := stage(t, table{opts: firstCome(7), hands: map[int]string{0: "AS AH AD AC AS2 AH2 AD2 AC2 KS"}})
	mustApply(t, s, Action{Kind: ActPlay, Seat: 0, Cards: cards(t, "AS AH AD AC AS2 AH2 AD2 AC2")}, at(1000))
	if got := s.last.Claim; got != 8 {
		t.Errorf("got claim %d, want 8", got)
	}
}

func TestWindow(t *testing.T) {
	tests := []struct {
		name  string
		steps []step
		// wantTurn is the seat on turn once the play stood, at wantAt.
		wantAt int
	}{
		{"closes itself at the deadline", []step{playTrue, {ms: windowEnd - 1, tick: true}, toClose}, windowEnd},
		{"closes when everyone lets it go", []step{playTrue, pass1, pass2, pass3}, 2200},
		{"a late tick settles it at the deadline", []step{playTrue, {ms: 60_000, tick: true}}, windowEnd},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := rulesTable(t, Options{})
			run(t, s, tt.steps)
			if s.Phase() != PhasePlay || s.Turn() != 1 || s.View(1).Rank != Two {
				t.Fatalf("got phase %v turn %d rank %v, want seat 1 to play 2s", s.Phase(), s.Turn(), s.View(1).Rank)
			}
			stood := s.event(&s.log[len(s.log)-1])
			if stood.Kind != EventStood || !stood.At.Equal(at(tt.wantAt)) {
				t.Errorf("got last line %v at %v, want stood at %v", stood.Kind, stood.At, at(tt.wantAt))
			}
			if len(s.pile) != 2 || len(s.hands[0]) != 8 {
				t.Errorf("got pile %d, hand %d: want the play left on the pile", len(s.pile), len(s.hands[0]))
			}
		})
	}
}

func TestTickBeforeTheDeadlineDoesNothing(t *testing.T) {
	s := rulesTable(t, Options{})
	if s.Tick(at(100_000)) {
		t.Errorf("Tick with no deadline: got a change, want none")
	}
	mustApply(t, s, playTrue.a, at(1000))
	want := s.Clone()
	for _, ms := range []int{0, 1000, windowEnd - 1} {
		if s.Tick(at(ms)) {
			t.Errorf("Tick(%d ms): got a change, want none", ms)
		}
	}
	if s.Version() != want.Version() || s.Phase() != PhaseCall {
		t.Errorf("got version %d phase %v, want %d and call", s.Version(), s.Phase(), want.Version())
	}
}

func TestShowdown(t *testing.T) {
	tests := []struct {
		name    string
		play    Action
		truth   bool
		sneaked int
		loser   int
		verdict string
		owed    int
	}{
		{"the truth", Action{Kind: ActPlay, Seat: 0, Cards: cards(t, "AS AH")}, true, 0, 1, "It was the truth.", 0},
		{"a lie", Action{Kind: ActPlay, Seat: 0, Cards: cards(t, "AS KS")}, false, 0, 0, "It was a lie.", 0},
		{"a sneak", Action{Kind: ActPlay, Seat: 0, Cards: cards(t, "AS AH 5D"), Claim: 2}, false, 1, 0, "Caught sneaking!", 1},
		{"a sneak of aces is still a lie", Action{Kind: ActPlay, Seat: 0, Cards: cards(t, "AS AH AD"), Claim: 2}, false, 1, 0, "Caught sneaking!", 1},
		{"a sneak under a bluff", Action{Kind: ActPlay, Seat: 0, Cards: cards(t, "KS 9D 5D"), Claim: 1}, false, 2, 0, "Caught sneaking!", 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := rulesTable(t, Options{})
			s.pile = nil
			mustApply(t, s, tt.play, at(1000))
			hands := [][]Card{slices.Clone(s.hands[0]), slices.Clone(s.hands[1])}
			mustApply(t, s, call1.a, at(2000))
			sd := s.View(2).Reveal
			if sd == nil {
				t.Fatalf("got phase %v, want a reveal", s.Phase())
			}
			if sd.Truth != tt.truth || sd.Sneaked != tt.sneaked || sd.Loser != tt.loser || sd.Caller != 1 || sd.Given != tt.owed {
				t.Errorf("got showdown %+v, want truth %v sneaked %d loser %d given %d", sd.Showdown, tt.truth, tt.sneaked, tt.loser, tt.owed)
			}
			if !slices.Equal(sd.Cards, tt.play.Cards) {
				t.Errorf("got cards turned up %v, want %v", sd.Cards, tt.play.Cards)
			}
			var cues []Cue
			var says []string
			for _, b := range sd.Beats {
				cues, says = append(cues, b.Cue), append(says, b.Say)
			}
			if want := []Cue{CueShout, CueFlip, CueVerdict, CueTake}; !slices.Equal(cues, want) {
				t.Errorf("got beats %v, want %v", cues, want)
			}
			if says[2] != tt.verdict {
				t.Errorf("got verdict %q, want %q", says[2], tt.verdict)
			}
			// Everyone sees the cards now.
			if got := s.View(3).Last.Cards; !slices.Equal(got, tt.play.Cards) {
				t.Errorf("seat 3 sees %v, want %v", got, tt.play.Cards)
			}
			// The loser took the pile, sorted into their hand.
			lost := hands[tt.loser]
			if got, want := len(s.hands[tt.loser]), len(lost)+len(tt.play.Cards); got != want {
				t.Errorf("loser holds %d, want %d", got, want)
			}
			if len(s.pile) != 0 {
				t.Errorf("got pile %v, want it taken", s.pile)
			}
			wantTally := Tally{Calls: []int{0, 1, 0, 0}, Right: []int{0, 0, 0, 0}, Lies: []int{0, 0, 0, 0},
				Caught: []int{0, 0, 0, 0}, Pickups: []int{0, 0, 0, 0}}
			wantTally.Pickups[tt.loser] = 1
			if !tt.truth {
				wantTally.Right[1], wantTally.Lies[0] = 1, 1
			}
			if tt.sneaked > 0 {
				wantTally.Caught[0] = 1
			}
			if !equalTally(s.tally, wantTally) {
				t.Errorf("got tally %+v, want %+v", s.tally, wantTally)
			}
			// The reveal takes its four beats, then the hand-over or the next play.
			if !s.Deadline().Equal(at(revealEnd)) {
				t.Errorf("got the reveal ending at %v, want %v", s.Deadline(), at(revealEnd))
			}
			s.Tick(at(revealEnd))
			wantPhase := PhasePlay
			if tt.owed > 0 {
				wantPhase = PhaseGive
			}
			if s.Phase() != wantPhase {
				t.Errorf("got phase %v after the reveal, want %v", s.Phase(), wantPhase)
			}
		})
	}
}

func equalTally(a, b Tally) bool {
	return slices.Equal(a.Calls, b.Calls) && slices.Equal(a.Right, b.Right) && slices.Equal(a.Lies, b.Lies) &&
		slices.Equal(a.Caught, b.Caught) && slices.Equal(a.Pickups, b.Pickups)
}

func TestFirstCallWins(t *testing.T) {
	s := rulesTable(t, Options{})
	run(t, s, []step{playSneak, pass3, {a: Action{Kind: ActCall, Seat: 2, No: 1}, ms: 2500}})
	if got := s.last.Caller; got != 2 {
		t.Errorf("got caller %d, want 2", got)
	}
	err := refusedUnchanged(t, s, call1.a, at(2501))
	if got, want := err.Error(), "Seat 2 beat you to it."; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

func TestHandOver(t *testing.T) {
	tests := []struct {
		name string
		// give is the caller's move, or nil to let the clock pick.
		give []Card
		want []Card
		at   int
	}{
		{"the caller's choice", cards(t, "QC"), cards(t, "QC"), inGive},
		// Seat 1 plays 2s next, then 6s, 10s, aces, 5s, 9s, kings, 4s,
		// 8s, queens, 3s, 7s and jacks last: the jack is least useful.
		{"the least useful on timeout", nil, cards(t, "JD"), giveEnd},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := rulesTable(t, Options{})
			run(t, s, []step{playSneak, call1, revealOver})
			if got := s.View(1).Give; got == nil || got.Count != 1 || !slices.Equal(got.Suggested, cards(t, "JD")) {
				t.Fatalf("caller's view: got give %+v, want one card, the jack suggested", got)
			}
			if got := s.View(0).Give; got == nil || got.Suggested != nil {
				t.Errorf("sneaker's view: got give %+v, want no suggestion", got)
			}
			if got, want := s.Deciding(), []Decider{{1, ThinkGive}}; !slices.Equal(got, want) {
				t.Errorf("got deciding %v, want %v", got, want)
			}
			if !s.Deadline().Equal(at(revealEnd).Add(GiveTime)) {
				t.Errorf("got deadline %v, want %v", s.Deadline(), at(revealEnd).Add(GiveTime))
			}
			caller, sneaker := len(s.hands[1]), len(s.hands[0])
			if tt.give != nil {
				mustApply(t, s, Action{Kind: ActGive, Seat: 1, No: 1, Cards: tt.give}, at(tt.at))
			} else {
				s.Tick(at(tt.at - 1))
				if s.Phase() != PhaseGive {
					t.Fatalf("the hand-over ended early")
				}
				s.Tick(at(tt.at))
			}
			if len(s.hands[1]) != caller-1 || len(s.hands[0]) != sneaker+1 {
				t.Errorf("got hands %d and %d, want %d and %d", len(s.hands[1]), len(s.hands[0]), caller-1, sneaker+1)
			}
			if !slices.Contains(s.hands[0], tt.want[0]) || slices.Contains(s.hands[1], tt.want[0]) {
				t.Errorf("got %v not handed over", tt.want[0])
			}
			// Only the two of them are told which card.
			for seat := range 4 {
				told := false
				for _, e := range s.Log(seat) {
					if e.Kind == EventHanded {
						told = slices.Equal(e.Cards, tt.want)
					}
				}
				if want := seat <= 1; told != want {
					t.Errorf("seat %d told which card: got %v, want %v", seat, told, want)
				}
			}
			// Seat 1, after the player, plays the next rank.
			if s.Phase() != PhasePlay || s.Turn() != 1 || s.View(1).Rank != Two {
				t.Errorf("got phase %v turn %d rank %v, want seat 1 to play 2s", s.Phase(), s.Turn(), s.View(1).Rank)
			}
		})
	}
}

func TestPenalty(t *testing.T) {
	perCard := firstCome(4)
	perCard.Penalty = Penalty{Cards: 1, PerCard: true}
	flatTwo := firstCome(4)
	flatTwo.Penalty = Penalty{Cards: 2}
	none := firstCome(4)
	none.Penalty = Penalty{}
	tests := []struct {
		name   string
		opts   Options
		caller string // seat 1's hand
		play   string
		claim  int
		want   int
	}{
		{"standard: one card for one", firstCome(4), "2S 6H JD", "AS AH 5D", 2, 1},
		{"standard: one card for two", firstCome(4), "2S 6H JD", "AS 5D 7C", 1, 1},
		{"per card: two for two", perCard, "2S 6H JD", "AS 5D 7C", 1, 2},
		{"per card: one for one", perCard, "2S 6H JD", "AS 5D", 1, 1},
		{"flat two", flatTwo, "2S 6H JD", "AS 5D", 1, 2},
		{"no penalty", none, "2S 6H JD", "AS 5D", 1, 0},
		{"the caller keeps one of two", perCard, "2S 6H", "AS 5D 7C", 1, 1},
		{"the caller keeps its only card", firstCome(4), "2S", "AS 5D", 1, 0},
		{"the caller keeps its only card, per card", perCard, "2S", "AS 5D 7C", 1, 0},
		{"no sneak, nothing owed", perCard, "2S 6H JD", "AS KS", 2, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := stage(t, table{opts: tt.opts, hands: map[int]string{0: "AS AH AD 5D 7C KS", 1: tt.caller}})
			run(t, s, []step{{a: Action{Kind: ActPlay, Seat: 0, Cards: cards(t, tt.play), Claim: tt.claim}, ms: 1000}, call1})
			if got := s.View(1).Reveal.Given; got != tt.want {
				t.Errorf("got %d handed over, want %d", got, tt.want)
			}
			s.Tick(at(revealEnd))
			if tt.want == 0 {
				if s.Phase() != PhasePlay {
					t.Errorf("got phase %v, want play (nothing to hand over)", s.Phase())
				}
				return
			}
			if s.Phase() != PhaseGive || s.View(1).Give.Count != tt.want {
				t.Fatalf("got phase %v, want a hand-over of %d", s.Phase(), tt.want)
			}
			before := len(s.hands[1])
			s.Tick(at(revealEnd).Add(GiveTime))
			if got := len(s.hands[1]); got != before-tt.want || got < 1 {
				t.Errorf("caller holds %d, want %d (and at least one)", got, before-tt.want)
			}
		})
	}
}

func TestPenaltyOwed(t *testing.T) {
	tests := []struct {
		p       Penalty
		sneaked int
		want    int
	}{
		{StandardPenalty, 0, 0}, {StandardPenalty, 1, 1}, {StandardPenalty, 3, 1},
		{Penalty{Cards: 1, PerCard: true}, 3, 3}, {Penalty{Cards: 2, PerCard: true}, 2, 4},
		{Penalty{Cards: 2}, 1, 2}, {Penalty{Cards: 2}, -1, 0},
	}
	for _, tt := range tests {
		if got := tt.p.Owed(tt.sneaked); got != tt.want {
			t.Errorf("%+v.Owed(%d): got %d, want %d", tt.p, tt.sneaked, got, tt.want)
		}
	}
}

func TestDecidingInTheWindow(t *testing.T) {
	s := rulesTable(t, Options{})
	run(t, s, []step{playTrue, pass2})
	want := []Decider{{1, listenKind(1, 1)}, {3, listenKind(3, 1)}}
	if got := s.Deciding(); !slices.Equal(got, want) {
		t.Errorf("got deciding %v, want %v", got, want)
	}
	for seat, can := range map[int][]ActionKind{0: {}, 1: {ActCall, ActPass}, 2: {}, 3: {ActCall, ActPass}, Spectator: {}} {
		if got := s.View(seat).Can; !slices.Equal(got, can) {
			t.Errorf("seat %d: got can %v, want %v", seat, got, can)
		}
	}
	// A listener's speed moves round every play, so nobody is always first.
	kinds := map[Think]bool{}
	for play := range 4 {
		kinds[listenKind(1, play)] = true
	}
	if len(kinds) != 4 {
		t.Errorf("seat 1 over four plays listens at %d speeds, want 4", len(kinds))
	}
}

func TestThinkTime(t *testing.T) {
	for _, k := range []Think{ThinkTurn, ThinkGive, Listen0, Listen1, Listen2, Listen3} {
		brisk, relaxed := ThinkTime(k, Brisk), ThinkTime(k, Relaxed)
		if brisk <= 0 || relaxed <= brisk {
			t.Errorf("%v: got brisk %v relaxed %v, want relaxed slower", k, brisk, relaxed)
		}
		if k != ThinkTurn && k != ThinkGive && relaxed >= Windows[0] {
			t.Errorf("%v: relaxed listen %v, want inside the shortest window %v", k, relaxed, Windows[0])
		}
		if k == ThinkGive && relaxed >= GiveTime {
			t.Errorf("relaxed give %v, want inside GiveTime %v", relaxed, GiveTime)
		}
	}
	if ThinkTime(Listen0, Brisk) >= ThinkTime(Listen3, Brisk) {
		t.Errorf("Listen0 is not quicker than Listen3")
	}
	// The reveal is four beats, short beside the seven seconds a play takes.
	var total time.Duration
	for _, c := range []Cue{CueShout, CueFlip, CueVerdict, CueTake} {
		if RevealBeats[c] <= 0 {
			t.Errorf("beat %v lasts %v, want some time", c, RevealBeats[c])
		}
		total += RevealBeats[c]
	}
	if len(RevealBeats) != 4 || total >= 7*time.Second {
		t.Errorf("got %d beats lasting %v, want 4 in well under 7s", len(RevealBeats), total)
	}
}
