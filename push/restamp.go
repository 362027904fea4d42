package push

import "math"

// Restamp lets each of a game's streams take the next frame whatever its
// revision: the table was taken over by another node, whose revisions
// count afresh.
func (h *Hub) Restamp(game string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for _, st := range h.streams {
		if st.game == game {
			st.rev, st.event.Key = math.MinInt, math.MinInt
		}
	}
}
