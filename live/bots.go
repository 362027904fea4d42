package live

import (
	"errors"
	"log/slog"
	"sync"
	"time"

	"bullshit/engine"
	"bullshit/engine/bot"
	"bullshit/game"
)

// botPlays reports whether a bot makes seat's decisions now.
func (t *table) botPlays(seat int) bool {
	s := t.seats[seat]
	return s.Kind == game.SeatBot || s.Away
}

// botMove has the bot playing seat make its move, due at due.
func (t *table) botMove(seat int, due time.Time) {
	at := later(due, t.at)
	v := botViews.Get().(*engine.View)
	defer botViews.Put(v)
	t.state.ViewInto(seat, v)
	a, ok := t.bot(seat).Decide(v)
	if !ok {
		t.pending[seat].stuck = true
		return
	}
	err := t.apply(a, at)
	var refused *engine.Error
	if errors.As(err, &refused) {
		if fb, ok := v.Fallback(); ok {
			err = t.apply(fb, at)
		}
	}
	switch {
	case err == nil:
	case errors.As(err, &refused):
		t.m.log.Error("a bot's move and its fallback were refused", slog.String("game", t.id), slog.Int("seat", seat), slog.Any("err", err))
		t.pending[seat].stuck = true
	default:
		t.retryAt = t.m.clock.Now().Add(retryAfter)
	}
}

// botViews are views for bots to decide from, filled in place (ViewInto)
// rather than made anew for every decision; a bot keeps nothing of one.
var botViews = sync.Pool{New: func() any { return new(engine.View) }}

// bot is the bot for seat: the seat's own for a bot seat, or the one that
// covers a person who is away.
func (t *table) bot(seat int) *bot.Bot {
	if b := t.bots[seat]; b != nil {
		return b
	}
	s := t.seats[seat]
	level, style := s.BotLevel, s.BotStyle
	if level == "" {
		level = bot.Medium
	}
	if style == "" {
		style = siteStyle(t.game.Seed, seat)
	}
	b, err := bot.New(level, style, botSeed(t.game.Seed, seat))
	if err != nil {
		t.m.log.Error("a stored bot is not valid", slog.String("game", t.id), slog.Int("seat", seat), slog.Any("err", err))
		b, _ = bot.New(bot.Medium, siteStyle(t.game.Seed, seat), botSeed(t.game.Seed, seat))
	}
	t.bots[seat] = b
	return b
}

// markAway hands a person's overdue decision to a bot until they act.
func (t *table) markAway(seat int, at time.Time) {
	s := &t.seats[seat]
	s.Away, s.Covered = true, true
	t.at = later(t.at, at)
	t.pending[seat].taken = at
	t.saveSeat(seat)
}
