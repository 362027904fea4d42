package web

import (
	"sync"
	"time"

	"bullshit/game"
	"bullshit/views"
)

// lastTables keeps each followed seat's last table frame, region by region,
// so the next frame renders only the regions whose models changed and
// copies the rest (most changes touch a few: a let-it-go moves a bubble, not
// the hand). A seat whose frames stop for lastTableFor is forgotten (its
// stream went, or its game is quiet), and so is a seat at its game's final
// frame.
type lastTables struct {
	mu    sync.Mutex
	seats map[seatOf]*lastTable
	swept time.Time
}

// lastTableFor is how long a seat's last table is kept with no new frame.
const lastTableFor = time.Minute

type seatOf struct {
	game string
	seat int
}

// lastTable is one seat's last table frame: its regions' models (see
// views.Table.Regions) and the bytes each rendered. It is never changed once
// kept, so a reader may use it after letting the lock go.
type lastTable struct {
	revision int
	at       time.Time
	models   []any
	parts    [][]byte
}

// reusable is, for each of models, the bytes the seat's last table rendered
// from an equal model, or nil: what views.Cuts.Reuse takes.
func (c *lastTables) reusable(f game.Frame, models []any) [][]byte {
	c.mu.Lock()
	last := c.seats[seatOf{f.Game.ID, f.Seat}]
	c.mu.Unlock()
	if last == nil || len(last.models) != len(models) {
		return nil
	}
	keep := make([][]byte, len(models))
	for i, m := range models {
		if views.SameRegion(m, last.models[i]) {
			keep[i] = last.parts[i]
		}
	}
	return keep
}

// keep notes the seat's table rendered at now, unless it is the game's
// final frame or an older one than the seat's last (frames read as clients
// connect may come late).
func (c *lastTables) keep(f game.Frame, now time.Time, models []any, parts [][]byte) {
	k := seatOf{f.Game.ID, f.Seat}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.seats == nil {
		c.seats = make(map[seatOf]*lastTable)
	}
	if now.Sub(c.swept) > lastTableFor {
		for k, t := range c.seats {
			if now.Sub(t.at) > lastTableFor {
				delete(c.seats, k)
			}
		}
		c.swept = now
	}
	if f.Final || models == nil {
		delete(c.seats, k)
		return
	}
	if last := c.seats[k]; last != nil && last.revision > f.Revision {
		return
	}
	c.seats[k] = &lastTable{revision: f.Revision, at: now, models: models, parts: parts}
}
