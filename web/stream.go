package web

import (
	"context"
	"strconv"
	"time"

	"bullshit/api/push"
	"bullshit/live"
)

// FormatHTML is the browsers' event-stream format: each event is a seat's
// screen rendered as out-of-band fragments.
const FormatHTML = "html"

// FrameEvent is f as the browsers' "frame" event: RenderFrame's fragments,
// its id and order the frame's revision. now is the tables' clock.
func (h *Handler) FrameEvent(f live.Frame, now time.Time) (push.Event, bool, error) {
	data, err := h.RenderFrame(f, now)
	if err != nil {
		return push.Event{}, false, err
	}
	return push.Event{Name: "frame", ID: strconv.Itoa(f.Revision), Key: f.Revision, Data: data}, true, nil
}

// LobbyEvent is the lobby's lists as the "lobby" event.
func (h *Handler) LobbyEvent(ctx context.Context) (push.Event, error) {
	data, err := h.RenderLobby(ctx)
	if err != nil {
		return push.Event{}, err
	}
	return push.Event{Name: "lobby", Data: data}, nil
}
