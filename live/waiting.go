package live

import (
	"context"
	"slices"

	"bullshit/engine/bot"
	"bullshit/errcode"
	"bullshit/game"
	"bullshit/store"
)

// AddBot seats a bot of the given level ("" for medium) in the first empty
// seat of an open table (host only). Its style is the one the game's seed
// gives that seat, as for the bots a table fills with.
func (m *Manager) AddBot(ctx context.Context, id string, by int, level string) error {
	lv := bot.Medium
	if level != "" {
		var err error
		if lv, err = bot.ParseLevel(level); err != nil {
			return invalid("No bot level %q: choose easy, medium or hard.", level)
		}
	}
	return m.change(ctx, id, asSeat(ctx, by, func(t *table) error { return t.addBot(by, lv) }))
}

// RemoveBot empties a bot's seat at an open table (host only).
func (m *Manager) RemoveBot(ctx context.Context, id string, by, seat int) error {
	return m.change(ctx, id, asSeat(ctx, by, func(t *table) error { return t.removeBot(by, seat) }))
}

func (t *table) addBot(by int, level bot.Level) error {
	if err := t.hostBeforeStart(by); err != nil {
		return err
	}
	seat := slices.IndexFunc(t.seats, func(s store.Seat) bool { return s.Kind == game.SeatEmpty })
	if seat < 0 {
		return errFull
	}
	s := t.seats[seat]
	style := siteStyle(t.game.Seed, seat)
	s.Kind, s.BotLevel, s.BotStyle, s.Name = game.SeatBot, level, style, botName(level, style)
	return t.writeSeat(s)
}

func (t *table) removeBot(by, seat int) error {
	if err := t.hostBeforeStart(by); err != nil {
		return err
	}
	if seat < 0 || seat >= len(t.seats) {
		return errNoSeat
	}
	if t.seats[seat].Kind != game.SeatBot {
		return refuse(errcode.Conflict, "No bot sits there.")
	}
	s := t.seats[seat]
	s.Kind, s.Name = game.SeatEmpty, ""
	if !t.game.FillBots {
		s.BotLevel, s.BotStyle = "", ""
	}
	return t.writeSeat(s)
}

// hostBeforeStart refuses a change to the waiting room by anyone but the
// host, or once the game has started.
func (t *table) hostBeforeStart(by int) error {
	if t.state != nil {
		return errStarted
	}
	if by != t.game.Host {
		return errNotHost
	}
	return nil
}
