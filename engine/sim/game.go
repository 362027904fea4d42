package sim

import (
	"slices"
	"time"

	"bullshit/engine"
	"bullshit/engine/bot"
	"bullshit/engine/drive"
)

// Seat is who plays one seat of a simulated game: a bot of a level and
// style, or, when Person is set, a scripted person playing that strategy.
type Seat struct {
	Level  bot.Level
	Style  bot.Style
	Person Strategy
}

// decider is what plays a seat: a bot or a scripted person, each deciding
// from the seat's view alone.
type decider interface {
	Decide(v *engine.View) (engine.Action, bool)
}

// Game is one simulated game to play: its settings, its seats and its seed.
type Game struct {
	Options engine.Options
	Seats   []Seat
	Seed    uint64
}

// Outcome is how a game went.
type Outcome struct {
	// Plays is the number of plays made.
	Plays int
	// Capped: the game reached the play cap.
	Capped bool
	// Places are the seats' places, 1 first, ties sharing.
	Places []int
	// Winner is the seat that went out, or -1 at the cap.
	Winner int
	// Leader is the first seat down to LeaderCards cards or fewer, or -1.
	Leader int
	// Sneaks counts each seat's plays with a sneak, Caught its caught ones.
	Sneaks, Caught []int
	// Calls is how many plays were called.
	Calls int
	// Length is how long the game took on the driver's clock, which the
	// live tables keep too: every bot's think times and the table's
	// windows, reveals and hand-overs, and a person's own times (see
	// PersonTime).
	Length time.Duration
	// Seats is what the log says of each seat's plays, in games with a
	// scripted person (nil in bot-only games).
	Seats *seatTally
	// FirstOut is the number of plays made when the first seat went out
	// (the game's length unless it plays on for places), or 0.
	FirstOut int
	// Together counts the called plays that a second bot would have called
	// too, and Within those whose second call came within each of
	// ShoutGaps of the first (both as the table stood at the first call).
	Together int
	Within   [len(ShoutGaps)]int
}

// ShoutGaps are the gaps between the first and second calls on a play that
// the simulator counts.
var ShoutGaps = [...]time.Duration{50 * time.Millisecond, 150 * time.Millisecond, 300 * time.Millisecond}

// LeaderCards is the hand size that makes a seat "the leader": the first
// down to this many cards.
const LeaderCards = 3

// epoch is the fixed fake time a simulated game starts at: the engine reads
// no clock, and neither does the simulator.
var epoch = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

// Play plays a game to its end. Time is faked: each bot acts when its think
// time has passed since its decision became its own (a person when theirs
// has), by the rule of package drive that the live tables keep too,
// so after a play the others answer in think-time order and the quickest
// listener shouts first.
func Play(g Game) (Outcome, error) { return play(g, nil) }

// play is Play, calling each (when not nil) after every change of the state.
func play(g Game, each func(*engine.State)) (Outcome, error) {
	s, err := engine.New(g.Options, g.Seed, epoch)
	if err != nil {
		return Outcome{}, err
	}
	n := len(g.Seats)
	players := make([]decider, n)
	people := make([]bool, n)
	for i, seat := range g.Seats {
		if seat.Person != "" {
			if players[i], err = newPerson(seat.Person, mix(g.Seed, uint64(i)+1)); err != nil {
				return Outcome{}, err
			}
			people[i] = true
			continue
		}
		if players[i], err = bot.New(seat.Level, seat.Style, mix(g.Seed, uint64(i)+1)); err != nil {
			return Outcome{}, err
		}
	}
	think := func(d engine.Decider) time.Duration {
		if people[d.Seat] {
			return PersonTime(d.Think, g.Options.Pace)
		}
		return engine.ThinkTime(d.Think, g.Options.Pace)
	}
	out := Outcome{Leader: -1, Winner: -1, Sneaks: make([]int, n), Caught: make([]int, n)}
	end := epoch
	// Each seat's view is filled afresh before every decision, into arrays
	// kept for the whole game; who acts next, and when, is the driver's.
	views := make([]engine.View, n+1)
	watch := &views[n]
	t := drive.New(s, epoch, think)
	for !s.Over() {
		if out.FirstOut == 0 && g.Options.PlayOn {
			s.ViewInto(engine.Spectator, watch)
			if slices.ContainsFunc(watch.Seats, func(sv engine.SeatView) bool { return sv.Out > 0 }) {
				out.FirstOut = s.Plays()
			}
		}
		next := t.Next()
		if next.Deadline {
			t.Settle(next.At)
			end = next.At
			if each != nil {
				each(s)
			}
			continue
		}
		ds, at := next.Deciders, next.At
		d := ds[0]
		v := &views[d.Seat]
		s.ViewInto(d.Seat, v)
		a, ok := players[d.Seat].Decide(v)
		if !ok {
			return out, errNothing
		}
		if a.Kind == engine.ActCall && s.Phase() == engine.PhaseCall {
			secondCall(&out, s, ds[1:], next.Dues[1:], players, views, at)
		}
		if err := s.Apply(a, at); err != nil {
			return out, err
		}
		t.Moved(a, at)
		end = at
		if each != nil {
			each(s)
		}
		if a.Kind == engine.ActPlay {
			if out.Leader < 0 && s.HandSize(d.Seat) <= LeaderCards {
				out.Leader = d.Seat
			}
		}
	}
	out.Plays, out.Capped, out.Length = s.Plays(), s.Capped(), end.Sub(epoch)
	if slices.Contains(people, true) {
		t := tallySeats(s, n)
		out.Seats = &t
	}
	out.Places = make([]int, n)
	v := s.View(engine.Spectator)
	for _, r := range v.Result {
		out.Places[r.Seat] = r.Place.Place
		out.Caught[r.Seat] = r.Caught
		out.Sneaks[r.Seat] = r.Sneaked + r.Caught
		out.Calls += r.Calls
	}
	if !out.Capped {
		for _, r := range v.Result {
			if r.Place.Place == 1 {
				out.Winner = r.Seat
			}
		}
		if out.FirstOut == 0 && !s.Ended() {
			out.FirstOut = out.Plays
		}
	}
	return out, nil
}

// secondCall counts, for a play the first listener is about to call at
// first, whether another listener (the rest, soonest due first, each due
// at dues[i]) would call it too, and how soon after.
func secondCall(out *Outcome, s *engine.State, rest []engine.Decider, dues []time.Time, players []decider, views []engine.View, first time.Time) {
	for i, d := range rest {
		v := &views[d.Seat]
		s.ViewInto(d.Seat, v)
		a, ok := players[d.Seat].Decide(v)
		if !ok || a.Kind != engine.ActCall {
			continue
		}
		out.Together++
		gap := dues[i].Sub(first)
		for j, g := range ShoutGaps {
			if gap <= g {
				out.Within[j]++
			}
		}
		return
	}
}
