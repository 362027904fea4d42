package clustertest

import (
	"context"
	"database/sql"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"
	"time"
)

// owned is a game's owner and epoch as the database had them at a moment.
type owned struct {
	At     time.Time
	Owner  string
	Epoch  int64
	Status string
	Seq    int // the last action stored
}

// owners watches who owns each game, reading the database every tick:
// every change of owner or epoch is kept, and an epoch going back is noted.
type owners struct {
	db *sql.DB

	mu      sync.Mutex
	history map[string][]owned // changes only, oldest first
	last    map[string]owned
	back    []string
}

func newOwners(db *sql.DB) *owners {
	return &owners{db: db, history: map[string][]owned{}, last: map[string]owned{}}
}

// run reads the games every tick until ctx ends.
func (o *owners) run(ctx context.Context, tick time.Duration) {
	t := time.NewTicker(tick)
	defer t.Stop()
	for {
		_ = o.read(ctx)
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

func (o *owners) read(ctx context.Context) error {
	rows, err := o.db.QueryContext(ctx, `SELECT g.id, g.owner, g.epoch, g.status,
		(SELECT coalesce(max(a.seq), 0) FROM actions AS a WHERE a.game_id = g.id)
		FROM games AS g`)
	if err != nil {
		return err
	}
	defer rows.Close()
	now := time.Now()
	o.mu.Lock()
	defer o.mu.Unlock()
	for rows.Next() {
		var id string
		w := owned{At: now}
		if err := rows.Scan(&id, &w.Owner, &w.Epoch, &w.Status, &w.Seq); err != nil {
			return err
		}
		prev, seen := o.last[id]
		o.last[id] = w
		if seen && w.Epoch < prev.Epoch {
			o.back = append(o.back, fmt.Sprintf("%s: epoch %d after %d", id, w.Epoch, prev.Epoch))
		}
		if !seen || w.Owner != prev.Owner || w.Epoch != prev.Epoch {
			o.history[id] = append(o.history[id], w)
		}
	}
	return rows.Err()
}

// now is each game's last reading.
func (o *owners) now() map[string]owned {
	o.mu.Lock()
	defer o.mu.Unlock()
	m := make(map[string]owned, len(o.last))
	for id, w := range o.last {
		m[id] = w
	}
	return m
}

// playing is the games being played, by owner, at the last reading.
func (o *owners) playing() map[string][]string {
	by := map[string][]string{}
	for id, w := range o.now() {
		if w.Status == "live" {
			by[w.Owner] = append(by[w.Owner], id)
		}
	}
	return by
}

// ownedAgain is when the game was first read as owned by a node other
// than from, at an epoch above epoch, at or after since; false if not yet.
func (o *owners) ownedAgain(game, from string, epoch int64, since time.Time) (time.Time, bool) {
	o.mu.Lock()
	defer o.mu.Unlock()
	for _, w := range o.history[game] {
		if !w.At.Before(since) && w.Owner != "" && w.Owner != from && w.Epoch > epoch {
			return w.At, true
		}
	}
	if w := o.last[game]; w.Status != "live" && w.Status != "open" && w.At.After(since) {
		return w.At, true // over: nobody needs to own it
	}
	return time.Time{}, false
}

// ownerAt is the game's owner by the last reading at or before at, and
// whether there was one.
func (o *owners) ownerAt(game string, at time.Time) (string, bool) {
	o.mu.Lock()
	defer o.mu.Unlock()
	owner, ok := "", false
	for _, w := range o.history[game] {
		if w.At.After(at) {
			break
		}
		owner, ok = w.Owner, true
	}
	return owner, ok
}

// describe is every game's last reading, a line each.
func (o *owners) describe() string {
	now := o.now()
	ids := slices.Sorted(maps.Keys(now))
	var b strings.Builder
	for _, id := range ids {
		w := now[id]
		fmt.Fprintf(&b, "%s: %s, owner %q epoch %d, %d actions\n", id, w.Status, w.Owner, w.Epoch, w.Seq)
	}
	return b.String()
}

// epochsBack are the epochs read going back.
func (o *owners) epochsBack() []string {
	o.mu.Lock()
	defer o.mu.Unlock()
	return append([]string(nil), o.back...)
}

// waitOwnedAgain waits until every game of games is owned by another node
// than from (or over), and returns how long each took from since.
func (o *owners) waitOwnedAgain(ctx context.Context, games []string, from string, epochs map[string]int64,
	since time.Time, within time.Duration) (map[string]time.Duration, error) {
	ctx, cancel := context.WithTimeout(ctx, within)
	defer cancel()
	took := map[string]time.Duration{}
	for {
		for _, g := range games {
			if _, done := took[g]; done {
				continue
			}
			if at, ok := o.ownedAgain(g, from, epochs[g], since); ok {
				took[g] = at.Sub(since)
			}
		}
		if len(took) == len(games) {
			return took, nil
		}
		select {
		case <-ctx.Done():
			var left []string
			for _, g := range games {
				if _, done := took[g]; !done {
					left = append(left, g)
				}
			}
			return took, fmt.Errorf("games %v still not owned by another node than %s after %v", left, from, within)
		case <-time.After(50 * time.Millisecond):
		}
	}
}
