package store

import (
	"context"
	"errors"
	"reflect"
	"testing"
)

// run is actions from to to of a game under a fence.
type run struct {
	game     string
	from, to int
	fence    Fence
}

// interleave deals the runs' actions out one of each in turn, as the
// tables' writer would find them queued.
func interleave(runs ...run) []Action {
	var out []Action
	for i := 0; ; i++ {
		dealt := false
		for _, r := range runs {
			if seq := r.from + i; seq <= r.to {
				a := pass(r.game, seq)
				a.Fence = r.fence
				out = append(out, a)
				dealt = true
			}
		}
		if !dealt {
			return out
		}
	}
}

// TestAppendLargeBatches: batches larger than one insert statement carries,
// across several games, go in whole or not at all.
func TestAppendLargeBatches(t *testing.T) {
	forEachDB(t, func(t *testing.T, db testDB) {
		ctx := context.Background()
		s := newStore(t, db)
		for _, id := range []string{"a", "b", "c"} {
			mustCreate(t, s, newGame(id, base))
		}
		other := Fence{Owner: "other", Epoch: 1}
		tests := []struct {
			name    string
			batch   []Action
			wantErr error
			want    map[string]int
		}{
			{"three games, more rows than an insert takes",
				interleave(run{"a", 1, 50, Fence{}}, run{"b", 1, 50, Fence{}}, run{"c", 1, 50, Fence{}}),
				nil, map[string]int{"a": 50, "b": 50, "c": 50}},
			{"a fenced game among others refuses all",
				interleave(run{"a", 51, 80, Fence{}}, run{"b", 51, 80, Fence{}}, run{"c", 51, 90, other}),
				ErrFenced, map[string]int{"a": 50, "b": 50, "c": 50}},
			{"a game missing among others refuses all",
				interleave(run{"a", 51, 120, Fence{}}, run{"nope", 1, 1, Fence{}}),
				ErrNotFound, map[string]int{"a": 50, "b": 50, "c": 50}},
			{"one game not next among others refuses all",
				interleave(run{"a", 51, 130, Fence{}}, run{"b", 52, 52, Fence{}}),
				ErrNotNext, map[string]int{"a": 50, "b": 50, "c": 50}},
			{"one game already stored among others refuses all",
				interleave(run{"a", 51, 130, Fence{}}, run{"c", 50, 60, Fence{}}),
				ErrNotNext, map[string]int{"a": 50, "b": 50, "c": 50}},
			{"exactly one insert's rows, then one more",
				interleave(run{"a", 51, 114, Fence{}}, run{"b", 51, 51, Fence{}}),
				nil, map[string]int{"a": 114, "b": 51, "c": 50}},
			{"a run of one game that takes every size of insert",
				interleave(run{"c", 51, 177, Fence{}}),
				nil, map[string]int{"a": 114, "b": 51, "c": 177}},
		}
		for _, tt := range tests {
			err := s.AppendActions(ctx, tt.batch)
			if !errors.Is(err, tt.wantErr) || (err == nil) != (tt.wantErr == nil) {
				t.Errorf("%s: got error %v, want %v", tt.name, err, tt.wantErr)
			}
			for game, want := range tt.want {
				got, err := s.Actions(ctx, game)
				if err != nil {
					t.Fatal(err)
				}
				if len(got) != want {
					t.Errorf("%s: game %s has %d actions, want %d", tt.name, game, len(got), want)
				}
				for i, a := range got {
					if w := pass(game, i+1); !reflect.DeepEqual(a, w) {
						t.Errorf("%s: game %s action %d: got %s, want %s", tt.name, game, i, describe(a), describe(w))
						break
					}
				}
			}
		}
	})
}
