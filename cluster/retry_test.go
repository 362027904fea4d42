package cluster

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/nats-io/nats.go"

	"bullshit/engine"
	"bullshit/errcode"
	"bullshit/game"
)

// TestCallWaitsForAnOwner: a call about a live game that no node answers
// for is retried until the caller's patience ends, then refused as
// unavailable; one answered "moved" is tried again until the owner
// answers.
func TestCallWaitsForAnOwner(t *testing.T) {
	nodes := startMesh(t, 2)
	stillLive := func(context.Context, string) (string, game.Status, error) { return "gone", game.StatusLive, nil }
	tables := NewTables(t.Context(), TablesConfig{Conn: nodes[1].Conn, Owner: stillLive, Patience: 300 * time.Millisecond})
	_, err := tables.Get(t.Context(), "abcdefgh")
	if code, _, _ := errcode.Of(err); code != errcode.Unavailable {
		t.Errorf("a call nobody answers: got %v (%q), want %q", err, code, errcode.Unavailable)
	}
	if st := tables.Stats(); st.Retried == 0 || st.Failed != 1 {
		t.Errorf("stats: got %+v, want retries and one call failed", st)
	}

	// The first two answers say the table moved; the third is the owner's.
	answers := 0
	sub, err := nodes[0].Conn.Subscribe(gameSubject("abcdefgh"), func(m *nats.Msg) {
		answers++
		res := response{Refusal: refusalOf(errMoved)}
		if answers > 2 {
			res = response{Refusal: &refusal{Kind: kindLive, Code: errcode.Forbidden, Message: "Only the host can do that."}}
		}
		b, _ := json.Marshal(res)
		_ = m.Respond(b)
	})
	if err != nil {
		t.Fatal(err)
	}
	defer sub.Unsubscribe()
	tables = NewTables(t.Context(), TablesConfig{Conn: nodes[1].Conn, Owner: stillLive})
	_, err = tables.Get(t.Context(), "abcdefgh")
	if code, _, _ := errcode.Of(err); code != errcode.Forbidden {
		t.Errorf("a call that moved twice: got %v (%q), want the owner's %q", err, code, errcode.Forbidden)
	}
}

// TestCallTheOwnerTookButNeverAnsweredIsUnknown: a change whose tries reached
// an owner that never answered may have been made, so once the caller's
// patience ends it is refused as unknown, never as unavailable (which
// promises nothing was stored); a read in the same plight is unavailable.
func TestCallTheOwnerTookButNeverAnsweredIsUnknown(t *testing.T) {
	nodes := startMesh(t, 2)
	stillLive := func(context.Context, string) (string, game.Status, error) { return "n0", game.StatusLive, nil }
	// The owner takes every call and answers none, as one whose table's
	// commit outlives the caller's patience.
	sub, err := nodes[0].Conn.Subscribe(gameSubject("abcdefgh"), func(*nats.Msg) {})
	if err != nil {
		t.Fatal(err)
	}
	defer sub.Unsubscribe()
	if err := nodes[0].Conn.Flush(); err != nil {
		t.Fatal(err)
	}
	tables := NewTables(t.Context(), TablesConfig{Conn: nodes[1].Conn, Owner: stillLive,
		Attempt: 50 * time.Millisecond, Patience: 300 * time.Millisecond})
	tests := []struct {
		name string
		call func() error
		want errcode.Code
	}{
		{"a move", func() error {
			_, err := tables.Act(t.Context(), "abcdefgh", engine.Action{Kind: engine.ActPass, Seat: 1})
			return err
		}, errcode.Unknown},
		{"a start", func() error { return tables.Start(t.Context(), "abcdefgh", 0) }, errcode.Unknown},
		{"a view", func() error {
			_, err := tables.View(t.Context(), "abcdefgh", 1)
			return err
		}, errcode.Unavailable},
	}
	for _, tt := range tests {
		if code, _, _ := errcode.Of(tt.call()); code != tt.want {
			t.Errorf("%s the owner took and never answered: got code %q, want %q", tt.name, code, tt.want)
		}
	}
}
