package store

import (
	"encoding/json"
	"reflect"
	"testing"
	"time"

	"bullshit/engine"
)

// slowDecode is decodeAction by encoding/json alone.
func slowDecode(t *testing.T, s string) engine.Action {
	t.Helper()
	a, err := decodeActionJSON(s)
	if err != nil {
		t.Fatalf("json: %v", err)
	}
	return a
}

func TestEncodeActionFast(t *testing.T) {
	cards := []engine.Card{engine.NewCard(engine.Ace, 0, 0), engine.NewCard(engine.Ten, 2, 1), engine.NewCard(engine.King, 3, 0)}
	tests := []struct {
		name string
		a    engine.Action
	}{
		{"a play of one card", engine.Action{Kind: engine.ActPlay, Seat: 0, No: 0, Cards: cards[:1]}},
		{"a play with a claim", engine.Action{Kind: engine.ActPlay, Seat: 9, No: 318, Cards: cards, Claim: 2}},
		{"a call", engine.Action{Kind: engine.ActCall, Seat: 3, No: 12}},
		{"a pass with no cards, not nil", engine.Action{Kind: engine.ActPass, Seat: 1, No: 1, Cards: []engine.Card{}}},
		{"a give", engine.Action{Kind: engine.ActGive, Seat: 2, No: 40, Cards: cards[1:]}},
		{"a negative claim", engine.Action{Kind: engine.ActPlay, Seat: 1, No: 2, Cards: cards[2:], Claim: -3}},
		{"a resume", engine.Action{Kind: engine.ActResume, Seat: -1, No: 7, Since: time.Date(2026, 11, 30, 9, 15, 30, 123456789, time.UTC)}},
		{"a resume before 1970", engine.Action{Kind: engine.ActResume, Seat: -1, Since: time.Date(1969, 12, 31, 23, 59, 59, 999999999, time.UTC)}},
		{"a resume at 1970 exactly", engine.Action{Kind: engine.ActResume, Seat: -1, Since: time.Unix(0, 0)}},
	}
	for _, tt := range tests {
		got, err := encodeAction(tt.a)
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		want, err := encodeActionJSON(tt.a)
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		if got != want {
			t.Errorf("%s: got %s, want %s", tt.name, got, want)
		}
	}
}

func TestDecodeActionFast(t *testing.T) {
	cards := []engine.Card{engine.NewCard(engine.Ace, 0, 0), engine.NewCard(engine.Ten, 2, 1), engine.NewCard(engine.King, 3, 0)}
	actions := []engine.Action{
		{Kind: engine.ActPlay, Seat: 0, No: 0, Cards: cards[:1]},
		{Kind: engine.ActPlay, Seat: 9, No: 318, Cards: cards, Claim: 2},
		{Kind: engine.ActCall, Seat: 3, No: 12},
		{Kind: engine.ActPass, Seat: 1, No: 1},
		{Kind: engine.ActGive, Seat: 2, No: 40, Cards: cards[1:]},
		{Kind: engine.ActResume, Seat: -1, No: 7, Since: time.Date(2026, 11, 30, 9, 15, 30, 123456789, time.UTC)},
		{Kind: engine.ActResume, Seat: -1, Since: time.Date(1969, 12, 31, 23, 59, 59, 999999999, time.UTC)},
	}
	for _, a := range actions {
		s, err := encodeAction(a)
		if err != nil {
			t.Fatal(err)
		}
		got, ok := decodeActionFast(s)
		if !ok {
			t.Errorf("%s: the fast way refused it", s)
			continue
		}
		if want := slowDecode(t, s); !reflect.DeepEqual(got, want) {
			t.Errorf("%s: got %+v, want %+v", s, got, want)
		}
	}
	// Other JSON for the same record is left to encoding/json, and reads
	// the same through decodeAction.
	for _, s := range []string{
		`{"seat":1,"kind":"pass","no":2}`,
		`{ "kind":"pass","seat":1,"no":2}`,
		`{"kind":"pass","seat":1,"no":2,"extra":true}`,
		`{"kind":"p\u0061ss","seat":1,"no":2}`,
		`{"kind":"pass","seat":01,"no":2}`,
		`{"kind":"play","seat":1,"no":2,"cards":["AS" ,"KC"]}`,
		`{"kind":"pass","seat":1,"no":12345678901234567890}`,
	} {
		if _, ok := decodeActionFast(s); ok {
			t.Errorf("%s: the fast way took it, want it left to encoding/json", s)
		}
		var r actionRecord
		if json.Unmarshal([]byte(s), &r) != nil {
			continue
		}
		got, err := decodeAction(s)
		if err != nil {
			t.Errorf("%s: %v", s, err)
			continue
		}
		if want := slowDecode(t, s); !reflect.DeepEqual(got, want) {
			t.Errorf("%s: got %+v, want %+v", s, got, want)
		}
	}
}

func BenchmarkDecodeAction(b *testing.B) {
	s, err := encodeAction(engine.Action{Kind: engine.ActPlay, Seat: 2, No: 31, Cards: []engine.Card{3, 16, 29}, Claim: 2})
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := decodeAction(s); err != nil {
			b.Fatal(err)
		}
	}
}
