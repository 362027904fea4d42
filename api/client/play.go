package client

import (
	"context"
	"errors"
	"log/slog"
	"sync"
	"time"

	"bullshit/engine"
	"bullshit/engine/drive"
)

// Chooser decides a seat's move from its view alone (a *bot.Bot does).
type Chooser interface {
	Choose(v engine.View) (engine.Action, bool)
}

// PlayOptions tune Play. Zero fields take the defaults.
type PlayOptions struct {
	// Think is how long to wait on a decision before acting; nil is the
	// engine's think times, so the seat plays at the table's pace.
	Think func(k engine.Think, p engine.Pace) time.Duration
	// Poll is how often the view is read again in case the stream missed
	// something.
	Poll   time.Duration
	Logger *slog.Logger
	// Moved, when set, is told of every move the server accepted.
	Moved func(a engine.Action)
}

// Play plays the client's seat with ch until the game is over, and returns
// the final view. It follows the seat's event stream, reads the view again
// every Poll in case the stream is down, and acts think-time after each
// decision becomes the seat's. A refused move is harmless (the server changed
// nothing), so it reads the view again and decides afresh.
func (c *Client) Play(ctx context.Context, game string, ch Chooser, o PlayOptions) (engine.View, error) {
	if o.Think == nil {
		o.Think = engine.ThinkTime
	}
	if o.Poll <= 0 {
		o.Poll = 2 * time.Second
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	ctx, cancel := context.WithCancel(ctx)
	var wg sync.WaitGroup
	defer func() {
		cancel()
		wg.Wait()
	}()
	views := make(chan engine.View, 1)
	wg.Go(func() { c.follow(ctx, game, views, o.Logger) })

	v, err := c.waitView(ctx, game, o.Poll)
	if err != nil {
		return v, err
	}
	p := player{c: c, game: game, ch: ch, log: o.Logger, moved: o.Moved, tried: -1, poll: o.Poll}
	poll := time.NewTicker(o.Poll)
	defer poll.Stop()
	wake := time.NewTimer(time.Hour)
	defer wake.Stop()
	var key drive.Decision
	var due time.Time
	for v.Phase != engine.PhaseOver {
		if k, think, ok := decision(v); ok && v.Version > p.tried {
			if k != key {
				key, due = k, time.Now().Add(o.Think(think, v.Options.Pace))
			}
			if wait := time.Until(due); wait > 0 {
				wake.Reset(wait)
			} else {
				nv, err := p.move(ctx, v)
				if err != nil {
					return v, err
				}
				v = newer(v, nv)
				continue
			}
		}
		select {
		case <-ctx.Done():
			return v, ctx.Err()
		case nv := <-views:
			v = newer(v, nv)
		case <-poll.C:
			if nv, err := c.View(ctx, game); err == nil {
				v = newer(v, nv)
			} else if fatal(err) {
				return v, err
			}
		case <-wake.C:
		}
	}
	return v, nil
}

// waitView reads the seat's view, waiting while the game hasn't started or
// the server can't be reached.
func (c *Client) waitView(ctx context.Context, game string, poll time.Duration) (engine.View, error) {
	for {
		v, err := c.View(ctx, game)
		if err == nil || fatal(err) {
			return v, err
		}
		if err := sleep(ctx, poll); err != nil {
			return v, err
		}
	}
}

func newer(v, nv engine.View) engine.View {
	if nv.Version >= v.Version {
		return nv
	}
	return v
}

// decision names what the seat is deciding now, so its think time runs once
// per decision however many views arrive meanwhile, as the server's own
// bots' does (drive.Decision).
func decision(v engine.View) (key drive.Decision, think engine.Think, ok bool) {
	if len(v.Can) == 0 {
		return drive.Decision{}, "", false
	}
	for _, d := range v.Deciding {
		if d.Seat == v.Seat {
			return drive.DecisionOf(v.Phase, v.Plays, d.Think), d.Think, true
		}
	}
	return drive.Decision{}, "", false
}

// player makes one seat's moves.
type player struct {
	c     *Client
	game  string
	ch    Chooser
	log   *slog.Logger
	moved func(engine.Action)
	tried int // the version of the last view a move was refused from
	poll  time.Duration
}

func (p *player) accepted(a engine.Action) {
	if p.moved != nil {
		p.moved(a)
	}
}

// move chooses and makes a move from v, falling back to the always-legal
// move if the choice is refused as illegal, and returns the newest view.
func (p *player) move(ctx context.Context, v engine.View) (engine.View, error) {
	a, ok := p.ch.Choose(v)
	if !ok {
		p.tried = v.Version
		return v, nil
	}
	a.Seat = v.Seat
	nv, err := p.c.Act(ctx, p.game, a)
	if err == nil {
		p.accepted(a)
		return nv, nil
	}
	p.log.Debug("move refused", "kind", a.Kind, "no", a.No, "err", err)
	if code := ErrorCode(err); code == "illegal" || code == "not_your_turn" {
		if fb, ok := v.Fallback(); ok {
			if nv, err2 := p.c.Act(ctx, p.game, fb); err2 == nil {
				p.accepted(fb)
				return nv, nil
			}
		}
	}
	if fatal(err) {
		return v, err
	}
	switch ErrorCode(err) {
	case "stale", "over", "illegal", "not_your_turn", "conflict", "invalid":
		// The move was refused: decide again once the table has changed.
		p.tried = v.Version
	case CodeOutcomeUnknown:
		// The move may stand: it is not made again blindly, nor counted as
		// accepted. The table shows neither outcome until it knows, so
		// the view is read again until it moves on (the move stood, or
		// something else happened), or for a few polls; a move decided
		// from it carries its no, so it is refused as stale if the first
		// one stood after all.
		return p.settled(ctx, v)
	default:
		// Too fast, or the server couldn't take it just now: the same
		// decision is tried again after a pause.
		wait := time.Second
		var e *Error
		if errors.As(err, &e) && e.RetryAfter > 0 {
			wait = time.Duration(e.RetryAfter) * time.Second
		}
		if err := sleep(ctx, wait); err != nil {
			return v, err
		}
	}
	if nv, err := p.c.View(ctx, p.game); err == nil {
		return nv, nil
	} else if fatal(err) {
		return v, err
	}
	return v, nil
}

// unknownPolls bounds how many times a seat reads its view again after a
// move whose outcome is unknown before it decides afresh from what it shows.
const unknownPolls = 5

// settled reads the view again after a move made from v whose outcome is
// unknown, every poll, until it is newer than v or unknownPolls have passed,
// and returns the newest.
func (p *player) settled(ctx context.Context, v engine.View) (engine.View, error) {
	from := v.Version
	for range unknownPolls {
		if err := sleep(ctx, p.poll); err != nil {
			return v, err
		}
		nv, err := p.c.View(ctx, p.game)
		if err != nil {
			if fatal(err) {
				return v, err
			}
			continue
		}
		if v = newer(v, nv); v.Version > from {
			return v, nil
		}
	}
	return v, nil
}

// fatal reports an error no retry will mend: the game or the token is wrong,
// or ctx has ended.
func fatal(err error) bool {
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return true
	}
	switch ErrorCode(err) {
	case "not_found", "unauthorized", "forbidden":
		return true
	}
	return false
}

// follow keeps the seat's event stream open, handing the newest view to
// views, until ctx ends.
func (c *Client) follow(ctx context.Context, game string, views chan engine.View, log *slog.Logger) {
	for ctx.Err() == nil {
		err := c.Events(ctx, game, func(v engine.View) error {
			select {
			case <-views:
			default:
			}
			views <- v
			return nil
		})
		if err != nil && ctx.Err() == nil {
			log.Debug("event stream dropped", "err", err)
		}
		if sleep(ctx, time.Second) != nil {
			return
		}
	}
}

func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}
