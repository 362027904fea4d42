package main

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"sync"
	"time"

	"bullshit/engine"
	"bullshit/game"
	"bullshit/live"
)

// The takeover (-takeover): after the measuring window one node is stopped
// as kill -9 would stop it: its lease renewals frozen (Cluster.FreezeRenewal)
// and its server halted (server.Site.Halt), which stops every table,
// stream and goroutine and leaves the mesh without draining, so its lease
// is not released and runs out in the database by
// itself. Its peers claim its games once it has; each table is timed from
// the stop to its first action stored by the new owner (the resume that
// gives back the time it was ownerless, written once the claim is replayed)
// and to the first seat's move after it, both read from the stored log.

// takeoverResult is what the takeover measured.
type takeoverResult struct {
	node   string
	tables int
	// running is from the stop to a peer running the table (polled every
	// 20 ms); resumed to the new owner's first stored action; moved to its
	// first stored seat's move.
	running, resumed, moved live.Latency
	// notRunning tables no peer ran within the limit; over had no move to
	// make (the game was over, its end not yet written); noMove had no move
	// stored by the new owner when the log was read, their game not over.
	notRunning, over, noMove int
	claims                   map[string]int64
}

func takeover(ctx context.Context, dr *driver, victim *node, peers []*node, lease time.Duration, say func(string, ...any)) (*takeoverResult, error) {
	victim.mu.Lock()
	created := slices.Clone(victim.games)
	victim.mu.Unlock()
	var games []string
	for _, id := range created {
		if victim.m.Runs(id) {
			games = append(games, id)
		}
	}
	claims0 := map[string]int64{}
	for _, p := range peers {
		claims0[p.name] = p.m.Stats().Claims
	}
	say("\nstopping node %s abruptly with %d tables (renewals frozen, tables halted, lease not released)...\n", victim.name, len(games))
	victim.frozen.Store(true)
	victim.stopped = true
	stop := time.Now()
	closeCtx, cancel := context.WithTimeout(ctx, 30*time.Second)
	err := victim.site.Halt(closeCtx)
	cancel()
	if err != nil {
		return nil, fmt.Errorf("stopping node %s: %w", victim.name, err)
	}
	// Nothing of the stopped node's is written after this: an action
	// stored later than halted is the new owner's.
	halted := time.Now()

	// A table counts as taken over once a peer runs it, or closes it: a
	// game whose end was all that was left may finish before a poll sees
	// it running.
	var mu sync.Mutex
	running := map[string]time.Duration{}
	theirs := make(map[string]bool, len(games))
	for _, id := range games {
		theirs[id] = true
	}
	closed := func(game string) {
		if !theirs[game] {
			return
		}
		mu.Lock()
		if _, ok := running[game]; !ok {
			running[game] = time.Since(stop)
		}
		mu.Unlock()
	}
	for _, p := range peers {
		p.pub.onClose.Store(&closed)
	}
	allRunning := func() bool {
		mu.Lock()
		defer mu.Unlock()
		for _, id := range games {
			if _, ok := running[id]; ok {
				continue
			}
			for _, p := range peers {
				if p.m.Runs(id) {
					running[id] = time.Since(stop)
					break
				}
			}
		}
		return len(running) == len(games)
	}
	// The peers keep their own tables up meanwhile, and replace the games
	// they took over as those finish.
	if err := dr.play(ctx, 4*lease+time.Minute, allRunning, nil); err != nil {
		return nil, err
	}
	// Long enough for every table taken over to have made a move: a
	// window and a reveal and then some.
	settle := 2*dr.window + 5*time.Second
	mu.Lock()
	taken := len(running)
	mu.Unlock()
	say("%d of %d tables running on the peers %v after the stop; reading the logs in %v\n",
		taken, len(games), time.Since(stop).Round(time.Millisecond), settle)
	if err := dr.play(ctx, settle, nil, nil); err != nil {
		return nil, err
	}
	for _, p := range peers {
		p.pub.onClose.Store(nil)
	}
	mu.Lock()
	defer mu.Unlock()

	r := &takeoverResult{node: victim.name, tables: len(games), notRunning: len(games) - len(running), claims: map[string]int64{}}
	var tookRunning, tookResumed, tookMoved []time.Duration
	for _, d := range running {
		tookRunning = append(tookRunning, d)
	}
	for _, id := range games {
		actions, err := peers[0].st.Actions(ctx, id)
		if err != nil {
			return nil, err
		}
		resumed, moved := false, false
		for _, a := range actions {
			if !a.At.After(halted) {
				continue
			}
			if !resumed {
				tookResumed = append(tookResumed, a.At.Sub(stop))
				resumed = true
			}
			if a.Action.Kind != engine.ActResume {
				tookMoved = append(tookMoved, a.At.Sub(stop))
				moved = true
				break
			}
		}
		if moved {
			continue
		}
		// A game over at the stop but not yet finished in the store (its
		// end was the only write left) has no move to make.
		if _, _, status, err := peers[0].st.Owner(ctx, id); err == nil && (status == game.StatusFinished || status == game.StatusEnded) {
			r.over++
		} else {
			r.noMove++
		}
	}
	r.running, r.resumed, r.moved = latencyOf(tookRunning), latencyOf(tookResumed), latencyOf(tookMoved)
	for _, p := range peers {
		r.claims[p.name] = p.m.Stats().Claims - claims0[p.name]
	}
	return r, nil
}

func (r *takeoverResult) print() {
	fmt.Printf("\ntakeover of node %s's %d tables, from its stop (kill -9 alike) to:\n", r.node, r.tables)
	fmt.Printf("%-34s %10s %10s %10s %10s\n", "", "tables", "p50", "p99", "max")
	for _, row := range []struct {
		name string
		l    live.Latency
	}{
		{"a peer running the table", r.running},
		{"the new owner's first action", r.resumed},
		{"the new owner's first seat move", r.moved},
	} {
		fmt.Printf("%-34s %10d %10v %10v %10v\n", row.name, row.l.Count, short(row.l.P50), short(row.l.P99), short(row.l.Max))
	}
	fmt.Printf("not running again: %d; over at the stop, so no move to make: %d; no move stored by the new owner: %d\n", r.notRunning, r.over, r.noMove)
	for _, name := range slices.Sorted(maps.Keys(r.claims)) {
		fmt.Printf("claimed by %s: %d\n", name, r.claims[name])
	}
}
