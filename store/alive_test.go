package store

import (
	"context"
	"testing"
	"time"
)

func TestAliveMark(t *testing.T) {
	forEachDB(t, func(t *testing.T, db testDB) {
		ctx := context.Background()
		s := newStore(t, db)
		got, err := s.Alive(ctx)
		if err != nil || !got.IsZero() {
			t.Fatalf("a new store's mark: got %v, %v, want the zero time", got, err)
		}
		// Kept to the nanosecond, and overwritten each time.
		for _, at := range []time.Time{base.Add(123456789), base.Add(time.Hour + 1)} {
			if err := s.MarkAlive(ctx, at); err != nil {
				t.Fatalf("MarkAlive(%v): %v", at, err)
			}
			got, err := s.Alive(ctx)
			if err != nil || !got.Equal(at) || got.Location() != time.UTC {
				t.Errorf("got mark %v, %v, want %v in UTC", got, err, at)
			}
		}
		n, err := s.DB().NewSelect().Table("alive").Count(ctx)
		if err != nil || n != 1 {
			t.Errorf("got %d alive rows, %v, want 1", n, err)
		}
	})
}

// BenchmarkMarkAlive is the cost of the server's alive mark, written once a
// second.
func BenchmarkMarkAlive(b *testing.B) {
	for _, db := range testDBs(b) {
		b.Run(db.name, func(b *testing.B) {
			s := newStore(b, db)
			at := base
			for b.Loop() {
				at = at.Add(time.Second)
				if err := s.MarkAlive(context.Background(), at); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
