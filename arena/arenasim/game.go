package arenasim

import (
	"time"

	"bullshit/engine"
	"bullshit/engine/bot"
	"bullshit/engine/drive"
)

// played is how one simulated game went.
type played struct {
	// End is when it ended on the table's clock.
	End time.Time
	// Places and Shared are each seat's place and how many share it.
	Places, Shared []int
	// Left is when each seat left (zero: it played to the end).
	Left []time.Time
}

// seat is who plays one seat of a simulated game: a level and style, and
// whether it leaves the game once it is losing.
type seat struct {
	Level  bot.Level
	Style  bot.Style
	Leaver bool
}

// losing says a leaver is losing: at least leaveFrom cards more than the
// mean of the others' hands and the biggest hand at the table, once every
// seat has played twice. It is what a person would see as a lost game:
// such a hand almost never wins, and mostly places last.
const leaveFrom = 6

// playGame plays a game of the seats dealt at start with the table options
// opts, by the tables' one rule of who acts when (package drive). A leaver
// leaves the first time it is losing; the game goes on with its seat played
// as before, as the house plays an abandoned seat, and only its result no
// longer counts.
func playGame(opts engine.Options, seats []seat, seed uint64, start time.Time) (played, error) {
	n := len(seats)
	opts.Seats = n
	s, err := engine.New(opts, seed, start)
	if err != nil {
		return played{}, err
	}
	bots := make([]*bot.Bot, n)
	for i, st := range seats {
		if bots[i], err = bot.New(st.Level, st.Style, mix(seed, uint64(i)+1)); err != nil {
			return played{}, err
		}
	}
	out := played{End: start, Left: make([]time.Time, n)}
	t := drive.New(s, start, func(d engine.Decider) time.Duration { return engine.ThinkTime(d.Think, opts.Pace) })
	var v engine.View
	for {
		next := t.Next()
		if next.Over {
			break
		}
		if next.Deadline {
			t.Settle(next.At)
			out.End = next.At
			continue
		}
		d := next.Deciders[0].Seat
		s.ViewInto(d, &v)
		a, ok := bots[d].Decide(&v)
		if !ok {
			return played{}, errNothing
		}
		if err := s.Apply(a, next.At); err != nil {
			return played{}, err
		}
		t.Moved(a, next.At)
		out.End = next.At
		if a.Kind == engine.ActPlay && s.Plays() >= 2*n {
			leave(s, seats, out.Left, next.At)
		}
	}
	out.Places, out.Shared = make([]int, n), make([]int, n)
	res := s.View(engine.Spectator).Result
	for _, r := range res {
		out.Places[r.Seat] = r.Place.Place
	}
	for _, r := range res {
		for _, o := range res {
			if o.Place.Place == r.Place.Place {
				out.Shared[r.Seat]++
			}
		}
	}
	return out, nil
}

// leave marks the leavers losing now as having left at at.
func leave(s *engine.State, seats []seat, left []time.Time, at time.Time) {
	n, total, most := len(seats), 0, 0
	for i := range n {
		total += s.HandSize(i)
		most = max(most, s.HandSize(i))
	}
	for i, st := range seats {
		h := s.HandSize(i)
		others := float64(total-h) / float64(n-1)
		if st.Leaver && left[i].IsZero() && h == most && float64(h) >= others+leaveFrom {
			left[i] = at
		}
	}
}
