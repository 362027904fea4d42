package push

import (
	"context"
	"strconv"
	"strings"

	"bullshit/game"
)

// noteTable marks the lobby's lists changed when a table's status or seats
// changed since the lobby last saw it; its plays alone do not. It reports
// whether they changed.
func (h *Hub) noteTable(id string, s game.Summary) bool {
	var b strings.Builder
	b.WriteString(string(s.Status))
	for _, seat := range s.Seats {
		b.WriteString("|" + string(seat.Kind) + ":" + seat.Name)
	}
	sig := b.String()
	over := s.Status == game.StatusFinished || s.Status == game.StatusEnded
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.tables[id] == sig {
		return false
	}
	h.lobbyDirty = true
	if over {
		delete(h.tables, id)
		return true
	}
	h.tables[id] = sig
	return true
}

// NoteTable is told of a change to a table another node runs, which may
// show in the lobby's lists (see Hooks.Lobbied).
func (h *Hub) NoteTable(game string, s game.Summary) { h.noteTable(game, s) }

// sendLobby renders the lobby's lists once, if they changed and anyone
// follows them, and queues them for every lobby stream.
func (h *Hub) sendLobby(ctx context.Context) {
	if h.hooks.Lobby == nil {
		return
	}
	h.mu.Lock()
	if !h.lobbyDirty || len(h.lobbies) == 0 {
		h.mu.Unlock()
		return
	}
	h.lobbyDirty = false
	h.mu.Unlock()
	ev, err := h.hooks.Lobby(ctx)
	if err != nil {
		h.log.Error("rendering the lobby", "err", err)
		h.mu.Lock()
		h.lobbyDirty = true
		h.mu.Unlock()
		return
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	h.lobbyKey++
	ev.Key = h.lobbyKey
	if ev.ID == "" {
		ev.ID = strconv.Itoa(ev.Key)
	}
	for name, st := range h.lobbies {
		if st.closing {
			continue
		}
		st.event = ev
		h.send(name, st)
	}
}
