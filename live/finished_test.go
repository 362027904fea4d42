package live

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"

	"bullshit/engine"
)

// overState is a state for the cache to hold; the cache never looks inside.
func overState(t *testing.T) *engine.State {
	t.Helper()
	s, err := engine.New(engine.Standard(3), 1, epoch)
	if err != nil {
		t.Fatal(err)
	}
	s.End(epoch)
	return s
}

func TestFinishedCacheKeepsTheMostRecentlyUsed(t *testing.T) {
	ctx := context.Background()
	c := newFinished(3)
	states := map[string]*engine.State{}
	loads := map[string]int{}
	get := func(id string) *engine.State {
		t.Helper()
		s, err := c.get(ctx, id, func() (*engine.State, bool, error) {
			loads[id]++
			return states[id], true, nil
		})
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	for i := range 4 {
		states[fmt.Sprint(i)] = overState(t)
	}
	c.put("0", states["0"])
	get("1")
	get("2")
	get("0") // now the most recently used: "1" goes first
	get("3")
	for _, tt := range []struct {
		id    string
		loads int
	}{{"0", 0}, {"2", 1}, {"3", 1}, {"1", 2}} {
		if s := get(tt.id); s != states[tt.id] {
			t.Errorf("game %s: got another state", tt.id)
		}
		if loads[tt.id] != tt.loads {
			t.Errorf("game %s: loaded %d times, want %d", tt.id, loads[tt.id], tt.loads)
		}
	}
	if got := c.order.Len(); got != 3 {
		t.Errorf("kept %d games, want at most 3", got)
	}
}

func TestFinishedCacheLoadsOnceForConcurrentReaders(t *testing.T) {
	c := newFinished(8)
	s := overState(t)
	var loads atomic.Int32
	release := make(chan struct{})
	load := func() (*engine.State, bool, error) {
		loads.Add(1)
		<-release
		return s, true, nil
	}
	var wg sync.WaitGroup
	var arrived atomic.Int32
	errs := make(chan error, 10)
	for range 10 {
		wg.Go(func() {
			arrived.Add(1)
			got, err := c.get(context.Background(), "g", load)
			if err == nil && got != s {
				err = errors.New("got another state")
			}
			errs <- err
		})
	}
	// Let the readers reach the cache while the first one's load is held.
	for arrived.Load() < 10 {
		runtime.Gosched()
	}
	for range 100 {
		runtime.Gosched()
	}
	close(release)
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Error(err)
		}
	}
	// Readers arriving after the load find it kept; those during it wait.
	if n := loads.Load(); n != 1 {
		t.Errorf("loaded %d times, want once", n)
	}
}

func TestFinishedCacheDoesNotKeepWhatMayChange(t *testing.T) {
	c := newFinished(8)
	loads := 0
	load := func() (*engine.State, bool, error) {
		loads++
		return overState(t), false, nil
	}
	for range 2 {
		if _, err := c.get(context.Background(), "live", load); err != nil {
			t.Fatal(err)
		}
	}
	if loads != 2 {
		t.Errorf("a game not over: loaded %d times, want every time", loads)
	}
}
