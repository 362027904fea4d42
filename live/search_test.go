package live

import (
	"context"
	"testing"

	"bullshit/errcode"
	"bullshit/game"
	"bullshit/store"
)

// searchCounter is the store, counting the searches it is asked.
type searchCounter struct {
	*store.Store
	searches int
}

func (s *searchCounter) SearchGames(ctx context.Context, q store.GameQuery) ([]store.Listed, bool, error) {
	s.searches++
	return s.Store.SearchGames(ctx, q)
}

// TestSearchRefusesNamesNoSeatHas: a player's name that no seat can have
// (a NUL, which bun would write into the SQL as a marker the database can't
// parse, bytes that aren't text, a control character, too long) is the
// client's mistake, refused as invalid before the store is asked; a name
// as typed with other spaces is searched as it is stored.
func TestSearchRefusesNamesNoSeatHas(t *testing.T) {
	f := newFixture(t)
	st := &searchCounter{Store: openStore(t)}
	m := f.open(st)
	for _, bad := range []string{"\x00", "a\x00b", "Ann\x00", "\xff", "A\tB", "Ann\u200b", "a name of more than thirty-two characters"} {
		for _, status := range []game.Status{"", game.StatusFinished} {
			_, _, err := m.Search(f.ctx, game.Query{Player: bad, Status: status, Limit: 20})
			if codeOf(err) != string(errcode.Invalid) {
				t.Errorf("Search(player %q, status %q): got %v, want invalid", bad, status, err)
			}
		}
	}
	if st.searches != 0 {
		t.Errorf("the store was asked %d searches for names no seat has, want none", st.searches)
	}
	if _, _, err := m.Search(f.ctx, game.Query{Player: "  Ann  ", Status: game.StatusFinished, Limit: 20}); err != nil || st.searches != 1 {
		t.Errorf("Search for a name: got %v after %d searches, want it asked once", err, st.searches)
	}
}
