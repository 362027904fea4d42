package store

import (
	"context"
	"errors"
	"testing"
	"time"

	"bullshit/engine"
)

func TestAppendActions(t *testing.T) {
	forEachDB(t, func(t *testing.T, db testDB) {
		ctx := context.Background()
		s := openStore(t, db.url(t))
		mustCreate(t, s, newGame("one", base))
		mustCreate(t, s, newGame("two", base))
		act := func(game string, seq int) Action {
			return Action{GameID: game, Seq: seq, At: base.Add(time.Duration(seq)), Action: engine.Action{Kind: engine.ActPass, Seat: 1, No: seq}}
		}
		tests := []struct {
			name    string
			batch   []Action
			wantErr error
			want    map[string]int
		}{
			{"empty", nil, nil, map[string]int{"one": 0, "two": 0}},
			{"two games", []Action{act("one", 1), act("two", 1), act("one", 2)}, nil, map[string]int{"one": 2, "two": 1}},
			{"a duplicate refuses all", []Action{act("two", 2), act("one", 2)}, ErrDuplicate, map[string]int{"one": 2, "two": 1}},
		}
		for _, tt := range tests {
			err := s.AppendActions(ctx, tt.batch)
			if !errors.Is(err, tt.wantErr) {
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
					if w := act(game, i+1); a.Seq != w.Seq || !a.At.Equal(w.At) {
						t.Errorf("%s: game %s action %d: got seq %d at %v, want seq %d at %v", tt.name, game, i, a.Seq, a.At, w.Seq, w.At)
					}
				}
			}
		}
	})
}
