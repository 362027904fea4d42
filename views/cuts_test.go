package views

import (
	"bytes"
	"context"
	"strings"
	"testing"
)

// TestCutsNoteEveryRegion: a table's screen has one noted region for each
// of the table's Regions, with a result sheet or without; one given to
// Reuse is written as given, not rendered, and the rest render as before.
func TestCutsNoteEveryRegion(t *testing.T) {
	table := Table{Status: "live", Bar: Bar{Code: "g", Plays: 3},
		Seats:  []SeatCell{{Seat: 1, Name: "Ben", Kind: "person", Count: "7"}, {Seat: 0, Name: "You", You: true, Count: "5"}},
		Middle: Middle{RankCode: "K", Rank: "kings", Pile: "Pile · empty"},
		Hand:   Hand{Game: "g", Cards: cards("KS", "2C")}, Dock: Dock{Game: "g", No: 3}}
	over := table
	over.Status, over.Result = "finished", &Result{Game: "g", Headline: "Ben wins!"}
	render := func(tb Table, keep [][]byte) ([]byte, [][]byte) {
		var cuts Cuts
		cuts.Reuse(keep)
		var buf bytes.Buffer
		if err := Screen(nil, &tb, true, &cuts).Render(context.Background(), &buf); err != nil {
			t.Fatal(err)
		}
		return buf.Bytes(), cuts.Parts(buf.Bytes())
	}
	for name, tb := range map[string]Table{"in play": table, "over": over} {
		whole, parts := render(tb, nil)
		if got, want := len(parts), len(tb.Regions()); got != want {
			t.Errorf("%s: got %d regions noted, want %d, one per model", name, got, want)
		}
		keep := make([][]byte, len(parts))
		keep[1] = []byte(`<section id="seats">kept</section>`)
		again, reparts := render(tb, keep)
		if string(reparts[1]) != string(keep[1]) {
			t.Errorf("%s: the region given to Reuse: got %.60q, want it as given", name, reparts[1])
		}
		if want := strings.Replace(string(whole), string(parts[1]), string(keep[1]), 1); string(again) != want {
			t.Errorf("%s: with one region reused, the rest changed:\n%s\nwant\n%s", name, again, want)
		}
	}
}
