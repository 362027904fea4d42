package push

import (
	"math/rand/v2"
	"time"

	"github.com/r3labs/sse/v2"
)

var pingEvent = []byte("ping")

// pingWait is how long after a look at a stream, idle for idle, to look
// again: the stream is due a comment at a moment drawn by jitter (0 to 1)
// from the last quarter of every, after its last write. Drawing it afresh
// each time spreads the streams' comments out, where one ticker would queue
// one on every stream at once.
func pingWait(every, idle time.Duration, jitter float64) time.Duration {
	due := every - time.Duration(float64(every/4)*jitter)
	return max(due-idle, 0)
}

// ping comes to stream name when it may be due a comment: it queues one if
// nothing was written to it for most of the ping interval, and comes back
// when the next could be due. A stream busy with events never gets one.
func (h *Hub) ping(name string, st *stream) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.streams[name] != st || st.closing {
		return
	}
	now := h.clock()
	idle := now.Sub(st.wrote)
	if idle >= h.cfg.Ping*3/4 {
		if st.subs > 0 {
			h.srv.TryPublish(name, &sse.Event{Comment: pingEvent})
		}
		st.wrote, idle = now, 0
	}
	st.ping.Reset(pingWait(h.cfg.Ping, idle, rand.Float64()))
}
