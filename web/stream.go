package web

import (
	"context"
	"strconv"
	"strings"
	"time"

	"bullshit/game"
	"bullshit/push"
	"bullshit/views"
)

// FormatHTML is the browsers' event-stream format: each event is a seat's
// screen rendered as out-of-band fragments.
const FormatHTML = "html"

// finalMark ends the id of a game's final frame event, which is named
// views.FinalEvent rather than "frame": the page closes its stream on it
// (sse-close), and a browser that reconnects naming it as its last event
// has the final frame already.
const finalMark = ".final"

// FrameEvent is f as the browsers' "frame" event: RenderFrame's fragments,
// ordered by the frame's revision. At the table its parts are the regions,
// so a stream sends a page only those that changed since its last event.
// The id is the revision and, after a dot, the moment of rendering in Unix
// milliseconds: the page starts the animations timed from it as far on as
// the event came later than events usually do. now is the tables' clock.
// A game's last frame, once it is over, is the "final" event, its id ending
// in finalMark.
// A region whose model is as at the seat's last frame is not rendered again.
func (r *Renderer) FrameEvent(f game.Frame, now time.Time) (push.Event, bool, error) {
	w, t := screen(f, now)
	var cuts views.Cuts
	var models []any
	if t != nil {
		models = t.Regions()
		cuts.Reuse(r.tables.reusable(f, models))
	}
	data, err := renderScreen(w, t, &cuts)
	if err != nil {
		return push.Event{}, false, err
	}
	ev := push.Event{Name: "frame", ID: strconv.Itoa(f.Revision) + "." + strconv.FormatInt(now.UnixMilli(), 10), Key: f.Revision, Data: data}
	if over(f) {
		ev.Name, ev.ID = views.FinalEvent, ev.ID+finalMark
	}
	if t != nil {
		ev.Parts = cuts.Parts(data)
		ev.Shape = "table"
		if t.Result != nil {
			ev.Shape = "table with result"
		}
	}
	r.tables.keep(f, now, models, ev.Parts)
	return ev, true, nil
}

// over reports whether f is the last frame its game will ever have: the
// final frame of a game finished or ended. A table that stops with the
// server sends final frames too, but its game goes on after the restart,
// and so must its pages' streams.
func over(f game.Frame) bool {
	return f.Final && (f.Game.Status == game.StatusFinished || f.Game.Status == game.StatusEnded)
}

// hasFinal reports whether the browser's stream reconnects after the game's
// final frame: only the final event's id ends in finalMark.
func hasFinal(lastEventID string) bool { return strings.HasSuffix(lastEventID, finalMark) }

// LobbyEvent is the lobby's lists as the "lobby" event.
func (h *Handler) LobbyEvent(ctx context.Context) (push.Event, error) {
	data, err := h.RenderLobby(ctx)
	if err != nil {
		return push.Event{}, err
	}
	return push.Event{Name: "lobby", Data: data}, nil
}
