package sim

import (
	"context"
	"fmt"
	"runtime"
	"runtime/debug"
	"sync"
	"sync/atomic"
)

// simGCPercent is the garbage collector's budget while games are simulated.
const simGCPercent = 800

// Run plays every game on workers goroutines (every core when workers is 0
// or less) and returns their outcomes in the games' order, so a run's
// results don't depend on how many workers played it. progress, if not nil,
// is called from Run's own goroutine after each game with the number done.
// The workers end before Run returns, early if ctx is cancelled.
func Run(ctx context.Context, games []Game, workers int, progress func(done int)) ([]Outcome, error) {
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	workers = min(workers, max(1, len(games)))
	// A simulated game keeps little alive and throws a lot away, so at the
	// default budget the collector runs hundreds of times a run, about once
	// per dozen games, for almost nothing. A budget eight times the live
	// heap costs a few megabytes and runs it rarely; the caller's budget
	// comes back when the run ends.
	defer debug.SetGCPercent(debug.SetGCPercent(simGCPercent))
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	outs := make([]Outcome, len(games))
	var (
		next     atomic.Int64
		wg       sync.WaitGroup
		errOnce  sync.Once
		firstErr error
	)
	done := make(chan struct{}, workers)
	for range workers {
		wg.Go(func() {
			for ctx.Err() == nil {
				i := int(next.Add(1) - 1)
				if i >= len(games) {
					return
				}
				out, err := Play(games[i])
				if err != nil {
					errOnce.Do(func() { firstErr = fmt.Errorf("game %d (seed %d): %w", i, games[i].Seed, err) })
					cancel()
					return
				}
				outs[i] = out
				select {
				case done <- struct{}{}:
				case <-ctx.Done():
					return
				}
			}
		})
	}
	go func() {
		wg.Wait()
		close(done)
	}()
	n := 0
	for range done {
		n++
		if progress != nil {
			progress(n)
		}
	}
	if firstErr != nil {
		return nil, firstErr
	}
	if err := ctx.Err(); err != nil && n < len(games) {
		return nil, err
	}
	return outs, nil
}
