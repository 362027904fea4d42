package cluster

import (
	"context"
	"encoding/json"
	"slices"
	"sync"
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
	tables := NewService(t.Context(), ServiceConfig{Conn: nodes[1].Conn, Owner: stillLive, Patience: 300 * time.Millisecond})
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
	tables = NewService(t.Context(), ServiceConfig{Conn: nodes[1].Conn, Owner: stillLive})
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
	tables := NewService(t.Context(), ServiceConfig{Conn: nodes[1].Conn, Owner: stillLive,
		Attempt: 50 * time.Millisecond, Patience: 300 * time.Millisecond})
	tests := []struct {
		name string
		call func() error
		want errcode.Code
	}{
		{"a move", func() error {
			_, err := tables.Move(t.Context(), "abcdefgh", "a-token", engine.Action{Kind: engine.ActPass})
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

// TestMoveToAnOlderOwner: an owner that has no "move" call (a version
// before it, in a rolling deploy) is asked the seat, the move and the frame
// as that version was, with the token on each.
func TestMoveToAnOlderOwner(t *testing.T) {
	nodes := startMesh(t, 2)
	stillLive := func(context.Context, string) (string, game.Status, error) { return "n0", game.StatusLive, nil }
	var (
		mu    sync.Mutex
		asked []string
	)
	sub, err := nodes[0].Conn.Subscribe(gameSubject("abcdefgh"), func(m *nats.Msg) {
		var req request
		_ = json.Unmarshal(m.Data, &req)
		token := ""
		if req.Token != nil {
			token = *req.Token
		}
		mu.Lock()
		asked = append(asked, req.Op+" "+token)
		mu.Unlock()
		var res response
		switch req.Op {
		case "authenticate":
			res.Result, _ = json.Marshal(2)
		case "act":
			var a engine.Action
			_ = json.Unmarshal(req.Args, &a)
			res.Result, _ = json.Marshal(engine.View{Seat: a.Seat, Plays: a.No + 1})
		case "frame":
			res.Result, _ = json.Marshal(game.Frame{Game: game.Summary{ID: "abcdefgh"}, Seat: 2, Revision: 8})
		default:
			res.Failure = noCall + req.Op
		}
		b, _ := json.Marshal(res)
		_ = m.Respond(b)
	})
	if err != nil {
		t.Fatal(err)
	}
	defer sub.Unsubscribe()
	if err := nodes[0].Conn.Flush(); err != nil {
		t.Fatal(err)
	}
	tables := NewService(t.Context(), ServiceConfig{Conn: nodes[1].Conn, Owner: stillLive})
	f, err := tables.Move(t.Context(), "abcdefgh", "bea", engine.Action{Kind: engine.ActPass, No: 7})
	if err != nil || f.Seat != 2 || f.Revision != 8 {
		t.Errorf("a move at an older owner: got %+v, %v, want seat 2's frame at revision 8", f, err)
	}
	mu.Lock()
	defer mu.Unlock()
	if want := []string{"move bea", "authenticate bea", "act bea", "frame bea"}; !slices.Equal(asked, want) {
		t.Errorf("the calls asked: got %q, want %q", asked, want)
	}
}
