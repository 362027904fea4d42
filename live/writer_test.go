package live

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"bullshit/internal/clocks/fakeclock"
	"bullshit/store"
)

// batches is a batchStore that records batches and refuses action Seq bad.
type batches struct {
	bad     int
	batches [][]int
	singles []int
}

func (b *batches) AppendActions(_ context.Context, actions []store.Action) error {
	var seqs []int
	for _, a := range actions {
		if a.Seq == b.bad {
			return errors.New("bad action")
		}
		seqs = append(seqs, a.Seq)
	}
	b.batches = append(b.batches, seqs)
	return nil
}

func (b *batches) Writers() int { return 1 }

func (b *batches) one(_ context.Context, a store.Action) error {
	if a.Seq == b.bad {
		return errors.New("bad action")
	}
	b.singles = append(b.singles, a.Seq)
	return nil
}

func TestWriterGroupsQueuedActions(t *testing.T) {
	tests := []struct {
		name        string
		queued, bad int
		wantBatches int
		wantSingles int
	}{
		{"one alone", 1, 0, 0, 1},
		{"queued together", 5, 0, 1, 0},
		{"one bad, the rest alone", 4, 3, 0, 3},
	}
	for _, tt := range tests {
		st := &batches{bad: tt.bad}
		w := &writer{st: st, one: st.one, clock: fakeclock.New(epoch), timed: &histogram{}, queued: newCapacity(0).record, reqs: make(chan writeReq, tt.queued),
			context: func() (context.Context, context.CancelFunc) { return context.WithCancel(context.Background()) }}
		var reqs []writeReq
		for seq := 1; seq <= tt.queued; seq++ {
			r := writeReq{a: store.Action{Seq: seq}, done: make(chan error, 1)}
			reqs = append(reqs, r)
			w.reqs <- r
		}
		close(w.reqs)
		w.run()
		for _, r := range reqs {
			err := <-r.done
			if wantErr := r.a.Seq == tt.bad; (err != nil) != wantErr {
				t.Errorf("%s: action %d: got error %v, want an error %v", tt.name, r.a.Seq, err, wantErr)
			}
		}
		if len(st.batches) != tt.wantBatches || len(st.singles) != tt.wantSingles {
			t.Errorf("%s: got batches %v and singles %v, want %d batches and %d singles", tt.name, st.batches, st.singles, tt.wantBatches, tt.wantSingles)
		}
	}
}

// TestShardsKeepAGameToOneWriter: a game's actions always go to the one
// writer, so they are stored in order, and games spread over every writer.
func TestShardsKeepAGameToOneWriter(t *testing.T) {
	for _, n := range []int{1, 2, 4} {
		used := make([]int, n)
		for i := range 400 {
			game := fmt.Sprintf("g%07d", i)
			w := shardOf(game, n)
			if again := shardOf(game, n); again != w {
				t.Fatalf("%d writers, game %s: got writer %d then %d, want one", n, game, w, again)
			}
			used[w]++
		}
		for w, games := range used {
			if games < 400/n/2 {
				t.Errorf("%d writers: writer %d got %d of 400 games, want about %d", n, w, games, 400/n)
			}
		}
	}
}
