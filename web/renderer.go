package web

import (
	"time"

	"bullshit/game"
	"bullshit/push"
)

// Renderer renders the seats' frames for the browsers' event streams. It
// needs nothing of the pages or the tables, so the push hub that sends its
// events is built with it first, the tables publishing to the hub next, and
// the pages, which serve the hub's streams, last (see server.Assemble).
type Renderer struct {
	// tables are the seats' last table frames, whose regions the next
	// frame may reuse.
	tables lastTables
}

// NewRenderer makes the frame renderer.
func NewRenderer() *Renderer { return &Renderer{} }

// FrameEvent is the frame renderer's event for f (see Renderer.FrameEvent),
// for the pages' own tests and the load test.
func (h *Handler) FrameEvent(f game.Frame, now time.Time) (push.Event, bool, error) {
	return h.renderer.FrameEvent(f, now)
}
