package web

import (
	"context"
	"strconv"
	"time"

	"bullshit/api/push"
	"bullshit/live"
	"bullshit/views"
)

// FormatHTML is the browsers' event-stream format: each event is a seat's
// screen rendered as out-of-band fragments.
const FormatHTML = "html"

// FrameEvent is f as the browsers' "frame" event: RenderFrame's fragments,
// ordered by the frame's revision. At the table its parts are the regions,
// so a stream sends a page only those that changed since its last event.
// The id is the revision and, after a dot, the moment of rendering in Unix
// milliseconds: the page starts the animations timed from it as far on as
// the event came later than events usually do. now is the tables' clock.
func (fr *Frames) FrameEvent(f live.Frame, now time.Time) (push.Event, bool, error) {
	var cuts views.Cuts
	data, t, err := renderFrame(f, now, &cuts)
	if err != nil {
		return push.Event{}, false, err
	}
	ev := push.Event{Name: "frame", ID: strconv.Itoa(f.Revision) + "." + strconv.FormatInt(now.UnixMilli(), 10), Key: f.Revision, Data: data}
	if t != nil {
		ev.Parts = cuts.Parts(data)
		ev.Shape = "table"
		if t.Result != nil {
			ev.Shape = "table with result"
		}
	}
	return ev, true, nil
}

// LobbyEvent is the lobby's lists as the "lobby" event.
func (h *Handler) LobbyEvent(ctx context.Context) (push.Event, error) {
	data, err := h.RenderLobby(ctx)
	if err != nil {
		return push.Event{}, err
	}
	return push.Event{Name: "lobby", Data: data}, nil
}
