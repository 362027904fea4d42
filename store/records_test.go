package store

import (
	"flag"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"bullshit/engine"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/rows")

// golden compares got with the golden file name under testdata/rows,
// rewriting it with -update, and returns the file's text.
func golden(t *testing.T, name, got string) string {
	t.Helper()
	path := filepath.Join("testdata", "rows", name)
	if *update {
		if err := os.WriteFile(path, []byte(got+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("read %s (run with -update to write it): %v", path, err)
	}
	want := strings.TrimSuffix(string(b), "\n")
	if got != want {
		t.Errorf("%s: got\n%s\nwant\n%s", name, got, want)
	}
	return want
}

// TestStoredOptions pins the options column: written as the golden file
// has it, and the golden file read back as the options.
func TestStoredOptions(t *testing.T) {
	tests := []struct {
		name string
		opts engine.Options
	}{
		{"options_standard.json", standard(4)},
		{"options_every_field.json", engine.Options{Seats: 10, Sneak: 0, Window: 4 * time.Second, Pace: engine.Relaxed,
			Penalty: engine.Penalty{Cards: 2, PerCard: true}, Rules: 1}},
		{"options_table_options.json", engine.Options{Seats: 6, Sneak: 1, Window: 10 * time.Second, Pace: engine.Brisk,
			Penalty: engine.StandardPenalty, Grace: 320 * time.Millisecond, PlayOn: true, Practice: true, Rules: 1}},
		// The standard table as the first games were stored, before the
		// grace, playing on and practice tables: it reads back with each
		// of them off, as those games were played.
		{"options_first_games.json", engine.Options{Seats: 4, Sneak: 2, Window: 6 * time.Second, Pace: engine.Brisk,
			Penalty: engine.StandardPenalty, Rules: 1}},
	}
	for _, tt := range tests {
		got, err := encodeOptions(tt.opts)
		if err != nil {
			t.Fatalf("%s: encode: %v", tt.name, err)
		}
		stored := golden(t, tt.name, got)
		back, err := decodeOptions(stored, tt.opts.Rules)
		if err != nil {
			t.Fatalf("%s: decode: %v", tt.name, err)
		}
		if back != tt.opts {
			t.Errorf("%s: read back %+v, want %+v", tt.name, back, tt.opts)
		}
	}
}

// TestStoredActions pins the action column, for every kind of action.
func TestStoredActions(t *testing.T) {
	c := func(codes ...string) []engine.Card {
		var cards []engine.Card
		for _, code := range codes {
			card, err := engine.ParseCard(code)
			if err != nil {
				t.Fatal(err)
			}
			cards = append(cards, card)
		}
		return cards
	}
	tests := []struct {
		name string
		a    engine.Action
	}{
		{"action_play.json", engine.Action{Kind: engine.ActPlay, Seat: 2, No: 0, Cards: c("AS", "TD", "KC2")}},
		{"action_play_sneak.json", engine.Action{Kind: engine.ActPlay, Seat: 9, No: 41, Cards: c("7H", "7C2", "2D"), Claim: 2}},
		{"action_call.json", engine.Action{Kind: engine.ActCall, Seat: 1, No: 3}},
		{"action_pass.json", engine.Action{Kind: engine.ActPass, Seat: 0, No: 3}},
		{"action_give.json", engine.Action{Kind: engine.ActGive, Seat: 1, No: 3, Cards: c("JD", "QC")}},
		{"action_resume.json", engine.Action{Kind: engine.ActResume, Seat: -1, No: 12,
			Since: time.Date(2026, 12, 1, 9, 30, 15, 123456789, time.UTC)}},
	}
	for _, tt := range tests {
		got, err := encodeAction(tt.a)
		if err != nil {
			t.Fatalf("%s: encode: %v", tt.name, err)
		}
		stored := golden(t, tt.name, got)
		back, err := decodeAction(stored)
		if err != nil {
			t.Fatalf("%s: decode: %v", tt.name, err)
		}
		if !reflect.DeepEqual(back, tt.a) {
			t.Errorf("%s: read back %+v, want %+v", tt.name, back, tt.a)
		}
	}
}

// TestEveryCardHasAStoredCode reads back every card of two decks.
func TestEveryCardHasAStoredCode(t *testing.T) {
	seen := map[string]bool{}
	for i := range 104 {
		c := engine.Card(i)
		code := cardCode(c)
		if seen[code] {
			t.Errorf("card %d: code %q used twice", i, code)
		}
		seen[code] = true
		back, err := parseCardCode(code)
		if err != nil || back != c {
			t.Errorf("card %d: code %q read back as %d (%v)", i, code, back, err)
		}
	}
}

func TestStoredRecordsRefuseUnknownWords(t *testing.T) {
	if _, err := encodeAction(engine.Action{Kind: "juggle"}); err == nil {
		t.Errorf("encode an action of an unknown kind: got no error, want one")
	}
	for _, stored := range []string{`{"kind":"juggle","seat":0,"no":0}`, `{"kind":"play","seat":0,"no":0,"cards":["ZZ"]}`, `{"kind":"play","cards":["AS3"]}`} {
		if a, err := decodeAction(stored); err == nil {
			t.Errorf("decode %s: got %+v, want an error", stored, a)
		}
	}
	if o, err := decodeOptions(`{"seats":4,"pace":"dawdling"}`, 1); err == nil {
		t.Errorf("decode an unknown pace: got %+v, want an error", o)
	}
}
