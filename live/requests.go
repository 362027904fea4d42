package live

import (
	"context"
	"reflect"
	"slices"
	"time"

	"bullshit/engine"
	"bullshit/engine/bot"
	"bullshit/errcode"
	"bullshit/game"
	"bullshit/store"
)

// writeGame runs a change of the game's row a person asked for (the start,
// the end), then adopt makes the table hold it. A failure is settled (see
// unknownWrite) by reading the row back, where outcome says what it shows
// of the change: answered as stored, as not stored, or, while the store
// can't say, as unknown.
func (t *table) writeGame(what string, fn func(ctx context.Context, st storage) error, outcome func(g store.Game) store.Outcome, adopt func()) error {
	if err := t.writable(); err != nil {
		return err
	}
	ctx, cancel := t.writeContext()
	defer cancel()
	if err := fn(ctx, t.m.st); err != nil {
		t.failed(err)
		t.askedMayBeStored(true)
		if t.lost(what, t.settleGame(what, outcome, adopt)) {
			return nil
		}
		return t.unsettled()
	}
	t.askedMayBeStored(true)
	t.wrote()
	adopt()
	return nil
}

// writeSeat stores seat s as a person's request changed it, then the table
// holds it. On a failure the table keeps the seat it had and stores that
// again (see saveSeat), so the store ends up holding what the table shows
// either way; until then the failed write may stand (a restart, or another
// node taking the table, would find it), so it is answered as unknown.
func (t *table) writeSeat(s store.Seat) error {
	if err := t.writable(); err != nil {
		return err
	}
	ctx, cancel := t.writeContext()
	defer cancel()
	if err := t.m.st.SaveSeat(ctx, t.fence(), s); err != nil {
		t.failed(err)
		t.seatUnsaved(s.No)
		t.askedMayBeStored(true)
		return errUnknown
	}
	t.askedMayBeStored(true)
	t.wrote()
	t.seats[s.No] = s
	t.reseat = true
	return nil
}

// act makes a person's move at the current time and returns their view.
func (t *table) act(a engine.Action) (engine.View, error) {
	if t.state == nil {
		return engine.View{}, errNotStarted
	}
	if t.finishing {
		return engine.View{}, errOver
	}
	if a.Seat < 0 || a.Seat >= t.state.Seats() {
		return engine.View{}, errNoSeat
	}
	if t.seats[a.Seat].Kind == game.SeatBot {
		return engine.View{}, errBotSeat
	}
	if a.Kind == engine.ActResume {
		return engine.View{}, errNotAMove
	}
	if err := t.apply(a, later(t.now, t.at)); err != nil {
		return engine.View{}, t.named(err)
	}
	if t.seats[a.Seat].Away {
		// They are back: their moves are theirs again.
		t.seats[a.Seat].Away = false
		t.saveSeat(a.Seat)
	}
	return t.state.View(a.Seat), nil
}

// named is a refusal that names a seat (such as who won a call) with the
// seat's display name in place of the engine's "Seat N".
func (t *table) named(err error) error {
	e, ok := err.(*engine.Error)
	if !ok {
		return err
	}
	msg, ok := e.Named(func(seat int) string {
		if seat >= 0 && seat < len(t.seats) && t.seats[seat].Name != "" {
			return t.seats[seat].Name
		}
		return engine.SeatName(seat)
	})
	if !ok {
		return err
	}
	return &engine.Error{Code: e.Code, Message: msg}
}

// join seats a person, with their account or as a guest (player 0), in the
// first empty seat.
func (t *table) join(name string, player int64) (game.Joined, error) {
	if t.state != nil {
		return game.Joined{}, errStarted
	}
	if player != 0 && slices.ContainsFunc(t.seats, func(s store.Seat) bool { return s.PlayerID == player }) {
		return game.Joined{}, refuse(errcode.Conflict, "You already have a seat at this table.")
	}
	seat := slices.IndexFunc(t.seats, func(s store.Seat) bool { return s.Kind == game.SeatEmpty })
	if seat < 0 {
		return game.Joined{}, errFull
	}
	token, hash, err := newToken()
	if err != nil {
		return game.Joined{}, t.m.unsaved(t.id, err)
	}
	s := t.seats[seat]
	s.Kind, s.Name, s.TokenHash, s.PlayerID = game.SeatPerson, name, hash, player
	if err := t.writeSeat(s); err != nil {
		return game.Joined{}, err
	}
	t.openSince = t.now
	return game.Joined{Game: t.summary(), Seat: seat, Token: token}, nil
}

// start deals the game: empty seats get their bots if the table fills with
// bots, and the seats taken are numbered 0 to n-1.
func (t *table) start(by int) error {
	if t.state != nil {
		return errStarted
	}
	if by != t.game.Host {
		return errNotHost
	}
	var taken []store.Seat
	for _, s := range t.seats {
		if s.Kind == game.SeatEmpty && t.game.FillBots {
			s.Kind, s.Name = game.SeatBot, botName(s.BotLevel, s.BotStyle)
		}
		if s.Kind != game.SeatEmpty {
			taken = append(taken, s)
		}
	}
	if len(taken) < engine.MinSeats {
		return refuse(errcode.Conflict, "At least 3 players are needed to start: invite more, or fill the table with bots.")
	}
	seats := make([]store.Seat, len(t.seats))
	for i := range seats {
		seats[i] = store.Seat{GameID: t.id, No: i, Kind: game.SeatEmpty}
		if i < len(taken) {
			seats[i] = taken[i]
			seats[i].No = i
		}
	}
	opts := t.game.Options
	opts.Seats = len(taken)
	// Stored times may be rounded to the microsecond; the deal's time must
	// come back exactly.
	now := t.now.UTC().Truncate(1000)
	state, err := engine.New(opts, t.game.Seed, now)
	if err != nil {
		return err
	}
	// Only the seats the start changed are stored again: at a table
	// already full, none.
	var changed []store.Seat
	for i, seat := range seats {
		if !reflect.DeepEqual(seat, t.seats[i]) {
			changed = append(changed, seat)
		}
	}
	return t.writeGame("the start", func(ctx context.Context, st storage) error {
		return st.StartGame(ctx, t.fence(), t.id, now, changed)
	},
		func(g store.Game) store.Outcome {
			switch {
			case g.Status == game.StatusLive && g.StartedAt.Equal(now):
				return store.Stored
			case g.Status == game.StatusOpen:
				return store.NotStored
			}
			return store.Taken
		},
		func() {
			t.seats, t.state, t.at = seats, state, now
			t.game.Status, t.game.StartedAt = game.StatusLive, now
			t.pending, t.bots = make([]pending, len(taken)), make([]*bot.Bot, len(taken))
			t.reseat = true
			t.moved(now)
		})
}

// leave frees a seat before the start; during play a bot takes it over.
func (t *table) leave(seat int) error {
	if seat < 0 || seat >= len(t.seats) || t.seats[seat].Kind != game.SeatPerson {
		return refuse(errcode.Conflict, "You don't sit at this table.")
	}
	if t.state != nil {
		return t.cover(seat)
	}
	if seat == t.game.Host {
		return refuse(errcode.Conflict, "The host can't leave before the start: end the game instead.")
	}
	s := t.seats[seat]
	s.Kind, s.Name, s.TokenHash, s.Away, s.PlayerID = game.SeatEmpty, "", nil, false, 0
	return t.writeSeat(s)
}

// handToBot gives a person's seat to a bot for the rest of the game: their
// own, or, by the host, that of someone away.
func (t *table) handToBot(by, seat int) error {
	if t.state == nil {
		return errNotStarted
	}
	if t.finishing {
		return errOverGame
	}
	if seat < 0 || seat >= t.state.Seats() {
		return errNoSeat
	}
	if t.seats[seat].Kind != game.SeatPerson {
		return refuse(errcode.Conflict, "A bot already plays that seat.")
	}
	if by != seat && (by != t.game.Host || !t.seats[seat].Away) {
		return refuse(errcode.Forbidden, "You can hand over your own seat, or as the host the seat of someone who is away.")
	}
	return t.cover(seat)
}

// cover has a bot play seat from now on. The person keeps their token to
// watch their hand; their moves are refused. The seat is not rated.
func (t *table) cover(seat int) error {
	if t.finishing {
		return errOverGame
	}
	s := t.seats[seat]
	s.Kind, s.Away, s.Covered = game.SeatBot, false, true
	if s.BotLevel == "" {
		s.BotLevel, s.BotStyle = bot.Medium, siteStyle(t.game.Seed, seat)
	}
	if err := t.writeSeat(s); err != nil {
		return err
	}
	t.bots[seat] = nil
	t.pending[seat].taken = later(t.now, t.at)
	return nil
}

// end ends the game early for the host: kept, marked ended, never rated.
func (t *table) end(by int) error {
	if by != t.game.Host {
		return errNotHost
	}
	if t.finishing {
		return errOverGame
	}
	// The end is stored to the microsecond and a replay ends the game at
	// the stored time, settling what was due by then: rounded up, the time
	// stored is the time the game ended at, and everything the table has
	// settled is due by it.
	now := ceilMicrosecond(later(t.now, t.at))
	var ended *engine.State
	var results []store.Result
	plays := 0
	if t.state != nil {
		ended = t.state.Clone()
		ended.End(now)
		plays = ended.Plays()
		for _, p := range ended.Result() {
			results = append(results, store.Result{Seat: p.Seat, Place: p.Place, Left: p.Left})
		}
	}
	return t.writeGame("the end", func(ctx context.Context, st storage) error {
		return st.FinishGame(ctx, t.fence(), t.id, game.StatusEnded, now, plays, false, results, t.rater(ended, now, false))
	}, func(g store.Game) store.Outcome {
		switch {
		case g.Status == game.StatusEnded && g.EndedAt.Equal(now):
			return store.Stored
		case g.Status == game.StatusOpen || g.Status == game.StatusLive:
			return store.NotStored
		}
		return store.Taken
	}, func() {
		t.game.Status, t.game.EndedAt, t.game.Plays = game.StatusEnded, now, plays
		if ended != nil {
			t.state, t.results = ended, ended.Result()
		}
		t.over = true
	})
}

// ceilMicrosecond rounds t up to a whole microsecond.
func ceilMicrosecond(t time.Time) time.Time {
	if r := t.Truncate(time.Microsecond); !r.Equal(t) {
		return r.Add(time.Microsecond)
	}
	return t
}
