package review

import (
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"testing"
	"time"

	"bullshit/engine"
	"bullshit/engine/bot"
	"bullshit/engine/drive"
)

var epoch = time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)

// played is a bot game played to its end, as its record holds it, and the
// state it ended in.
func played(t testing.TB, seats int, seed uint64) (Game, *engine.State) {
	t.Helper()
	opts := engine.Standard(seats)
	s, err := engine.New(opts, seed, epoch)
	if err != nil {
		t.Fatal(err)
	}
	bots := make([]drive.Seat, seats)
	for i := range bots {
		level, style := bot.Levels()[(i+int(seed))%3], bot.SiteStyles()[i%3]
		if bots[i], err = bot.New(level, style, seed*31+uint64(i)); err != nil {
			t.Fatal(err)
		}
	}
	g := Game{Options: opts, Seed: seed, Start: epoch}
	if g.Actions, err = drive.Play(s, epoch, bots); err != nil {
		t.Fatal(err)
	}
	log := s.Log(engine.Spectator)
	g.Over = log[len(log)-1].At
	return g, s
}

func TestReviewAgreesWithTheGame(t *testing.T) {
	for seed := range uint64(120) {
		seats := 3 + int(seed%8)
		g, s := played(t, seats, seed)
		r, err := Of(g)
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		final := s.View(engine.Spectator)
		if got, want := jsonOf(t, r.Final), jsonOf(t, final); got != want {
			t.Fatalf("seed %d: got final view\n%s\nwant\n%s", seed, got, want)
		}
		if !reflect.DeepEqual(r.Log, s.Log(engine.Spectator)) {
			t.Fatalf("seed %d: the review's log differs from the game's", seed)
		}
		if got, want := len(r.Plays), final.Plays; got != want {
			t.Errorf("seed %d: got %d plays, want %d", seed, got, want)
		}
		dealt := 0
		for _, h := range r.Dealt {
			dealt += len(h)
		}
		if want := seats * len(r.Dealt[0]); dealt < want-seats || dealt > want+seats {
			t.Errorf("seed %d: got %d cards dealt to %d seats, want them dealt evenly", seed, dealt, seats)
		}
		for _, row := range final.Result {
			st := r.Seats[row.Seat]
			if st.Calls != row.Calls || st.Right != row.Right || st.Caught != row.Caught || st.Sneaks-st.Caught != row.Sneaked {
				t.Errorf("seed %d seat %d: got stats %+v, want the result sheet's %+v", seed, row.Seat, st, row)
			}
		}
		last := r.Plays[len(r.Plays)-1].Left
		for _, row := range final.Result {
			if last[row.Seat] != row.Left {
				t.Errorf("seed %d seat %d: got %d cards left after the last play, want the result's %d", seed, row.Seat, last[row.Seat], row.Left)
			}
		}
		given := make(map[int]int)
		together := make(map[int][]int)
		for _, e := range r.Log {
			if e.Kind == engine.EventCalled {
				given[e.No] = e.Showdown.Given
				together[e.No] = e.Showdown.Together
			}
		}
		for _, p := range r.Plays {
			if len(p.Readings) != seats-1 || slices.ContainsFunc(p.Readings, func(rd Reading) bool { return rd.Seat == p.Seat }) {
				t.Errorf("seed %d play %d: got readings %+v, want one from each other seat", seed, p.No, p.Readings)
			}
			if len(p.Cards) != p.Claim+p.Sneaked || p.Claim < 1 {
				t.Errorf("seed %d play %d: got %d cards for a claim of %d and %d sneaked", seed, p.No, len(p.Cards), p.Claim, p.Sneaked)
			}
			if p.Call != nil && p.Took < len(p.Cards) {
				t.Errorf("seed %d play %d: got %d cards taken, want the pile with the play's %d at least", seed, p.No, p.Took, len(p.Cards))
			}
			if p.Call != nil && (p.Lie != (p.Loser == p.Seat)) {
				t.Errorf("seed %d play %d: a call on a lie %v lost by seat %d, the player being %d", seed, p.No, p.Lie, p.Loser, p.Seat)
			}
			if (p.HandOver != nil) != (given[p.No] > 0) || p.HandOver != nil && len(p.HandOver.Cards) != given[p.No] {
				t.Errorf("seed %d play %d: got hand-over %+v, want %d cards handed", seed, p.No, p.HandOver, given[p.No])
			}
			var also []int
			for _, a := range p.Also {
				also = append(also, a.Seat)
				if a.After < p.Call.After {
					t.Errorf("seed %d play %d: seat %d called together %v after the play, before the first call's %v", seed, p.No, a.Seat, a.After, p.Call.After)
				}
			}
			if !slices.Equal(also, together[p.No]) {
				t.Errorf("seed %d play %d: got %v calling together, want the showdown's %v", seed, p.No, also, together[p.No])
			}
			if len(p.Left) != seats || !p.Sizes.Hand[1].Contains(p.Left[p.Seat]+p.handedTo()) {
				t.Errorf("seed %d play %d: got cards left %v, want seat %d's within the %v the table saw", seed, p.No, p.Left, p.Seat, p.Sizes.Hand[1])
			}
			if p.GoodBet && p.Call == nil || p.Missed && (p.Call != nil || !p.Lie) {
				t.Errorf("seed %d play %d: got good bet %v and missed %v for call %v on a lie %v", seed, p.No, p.GoodBet, p.Missed, p.Call, p.Lie)
			}
		}
	}
}

// TestReviewReadsTheCounts: a sneak the counts give away is marked as
// showing, and every listener reads it as likely a lie and worth a call.
func TestReviewReadsTheCounts(t *testing.T) {
	for seed := range uint64(400) {
		g, _ := played(t, 4+int(seed%4), seed)
		r, err := Of(g)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range r.Plays {
			if !p.Shows || p.Sneaked == 0 {
				continue
			}
			for _, rd := range p.Readings {
				if rd.Sneak < 0.5 || !rd.Call {
					t.Errorf("seed %d play %d: a sneak that shows read by seat %d as %+v, want a likely sneak worth a call", seed, p.No, rd.Seat, rd.Reading)
				}
			}
			return
		}
	}
	t.Fatal("no showing sneak in 400 games")
}

func TestReviewRefusesAGameNotOver(t *testing.T) {
	g, _ := played(t, 4, 7)
	g.Actions = g.Actions[:len(g.Actions)/2]
	g.Over = g.Actions[len(g.Actions)-1].At
	if _, err := Of(g); err != ErrNotOver {
		t.Errorf("got %v for half a game, want ErrNotOver", err)
	}
	// The host may end it there: then it is over, with nobody winning.
	g.HostEnded = true
	r, err := Of(g)
	if err != nil || !r.Final.Ended {
		t.Errorf("got %v and ended %v for a game the host ended, want a review of an ended game", err, r != nil && r.Final.Ended)
	}
}

// handedTo is what the play's settling took back from the player: the pile
// taken on a call lost, the cards handed over to it.
func (p Play) handedTo() int {
	n := 0
	if p.Call != nil && p.Loser == p.Seat {
		n -= p.Took
	}
	if p.HandOver != nil && p.HandOver.To == p.Seat {
		n -= len(p.HandOver.Cards)
	}
	return n
}

func jsonOf(t testing.TB, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func BenchmarkReview(b *testing.B) {
	for _, seats := range []int{4, 10} {
		g, _ := played(b, seats, 3)
		b.Run(fmt.Sprintf("%d seats", seats), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := Of(g); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// TestCallTimedFromItsShout: at a table with a grace a play is turned up
// when the grace ends, but the review times the call from its own shout.
func TestCallTimedFromItsShout(t *testing.T) {
	g, _ := played(t, 5, 3)
	if g.Options.Grace == 0 {
		t.Fatal("the standard table has no grace")
	}
	r, err := Of(g)
	if err != nil {
		t.Fatal(err)
	}
	calls := 0
	for _, p := range r.Plays {
		if p.Call == nil {
			continue
		}
		calls++
		if !slices.ContainsFunc(r.Log, func(e engine.Event) bool {
			return e.Kind == engine.EventShouted && e.No == p.No && e.Seat == p.Call.Seat && e.At.Equal(p.At.Add(p.Call.After))
		}) {
			t.Errorf("play %d: got the call %+v, want it timed at seat %d's shout", p.No, p.Call, p.Call.Seat)
		}
	}
	if calls == 0 {
		t.Error("no play was called")
	}
}

// TestCallsTogether: two calls within the grace are both in the review, the
// shout's winner as the call and the other as calling too, each timed from
// its own shout.
func TestCallsTogether(t *testing.T) {
	opts := engine.Standard(4)
	if opts.Grace < 100*time.Millisecond {
		t.Fatalf("the standard grace is %v, too short for the test", opts.Grace)
	}
	s, err := engine.New(opts, 11, epoch)
	if err != nil {
		t.Fatal(err)
	}
	v := s.View(engine.Spectator)
	player := v.Turn
	a, b := (player+1)%4, (player+2)%4
	at := epoch.Add(2 * time.Second)
	g := Game{Options: opts, Seed: 11, Start: epoch, HostEnded: true}
	for _, act := range []engine.Timed{
		{Action: engine.Action{Kind: engine.ActPlay, Seat: player, No: 0, Cards: s.View(player).Hand[:1]}, At: at},
		{Action: engine.Action{Kind: engine.ActCall, Seat: b, No: 1}, At: at.Add(time.Second)},
		{Action: engine.Action{Kind: engine.ActCall, Seat: a, No: 1}, At: at.Add(time.Second + 50*time.Millisecond)},
	} {
		if err := s.Apply(act.Action, act.At); err != nil {
			t.Fatal(err)
		}
		g.Actions = append(g.Actions, act)
	}
	g.Over = at.Add(time.Minute)
	r, err := Of(g)
	if err != nil {
		t.Fatal(err)
	}
	p := r.Plays[0]
	if p.Call == nil || len(p.Also) != 1 {
		t.Fatalf("got the call %+v and also %+v, want one call and one calling too", p.Call, p.Also)
	}
	after := map[int]time.Duration{p.Call.Seat: p.Call.After, p.Also[0].Seat: p.Also[0].After}
	if after[b] != time.Second || after[a] != time.Second+50*time.Millisecond {
		t.Errorf("got the calls timed %v, want seat %d at 1s and seat %d at 1.05s", after, b, a)
	}
}
