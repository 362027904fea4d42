package cluster

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"testing"
	"time"

	"bullshit/engine"
	"bullshit/errcode"
	"bullshit/game"
	"bullshit/internal/clocks/fakeclock"
	"bullshit/live"
	"bullshit/store"
	"bullshit/store/storetest"
)

// pair is two nodes on one PostgreSQL schema, on one fake clock, each with
// its Manager, Service and Relay (over a hub that records what it is
// given) and an embedded NATS server routed to the other.
type pair struct {
	clock  *fakeclock.Clock
	tables [2]*Service
	relays [2]*Relay
	mgrs   [2]*live.Manager
	hubs   [2]*recorder
	nodes  []*NATS
}

func newPair(t testing.TB, quiet time.Duration) *pair {
	t.Helper()
	if !storetest.HavePostgres() {
		t.Skipf("%s is not set to a PostgreSQL URL: two nodes share one database", storetest.PostgresEnv)
	}
	url := storetest.PostgresURL(t)
	p := &pair{clock: fakeclock.New(time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)), nodes: startMesh(t, 2)}
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	for i := range 2 {
		st, err := store.Open(ctx, url)
		if err != nil {
			t.Fatal(err)
		}
		p.hubs[i] = newRecorder()
		m, err := live.New(ctx, live.Config{Store: st, Clock: p.clock,
			Node: &live.Node{Name: fmt.Sprintf("n%d", i), Lease: 5 * time.Second}})
		if err != nil {
			t.Fatal(err)
		}
		p.tables[i] = NewService(ctx, ServiceConfig{Local: m, Conn: p.nodes[i].Conn, Owner: StoreOwner(st)})
		p.relays[i] = NewRelay(ctx, RelayConfig{Hub: p.hubs[i], Conn: p.nodes[i].Conn, Service: p.tables[i], Quiet: quiet,
			Epoch: StoreEpoch(st), Interested: p.nodes[i].Interested()})
		m.Connect(live.Hooks{Publisher: p.relays[i], Watch: p.tables[i].Watch})
		p.mgrs[i] = m
		if err := m.StartTables(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() {
			if err := m.Close(context.Background()); err != nil {
				t.Error(err)
			}
			st.Close()
		})
	}
	t.Cleanup(func() {
		cancel()
		for _, r := range p.relays {
			r.Wait()
		}
	})
	return p
}

// same fails unless a and b encode alike: what the API and the pages show.
func same(t *testing.T, what string, a, b any) {
	t.Helper()
	ja, _ := json.Marshal(a)
	jb, _ := json.Marshal(b)
	if string(ja) != string(jb) {
		t.Errorf("%s through the other node: got %s, want %s", what, jb, ja)
	}
}

// sameErr fails unless the two refusals read alike.
func sameErr(t *testing.T, what string, owner, other error) {
	t.Helper()
	if owner == nil || other == nil {
		t.Fatalf("%s: got %v through the other node and %v on the owner, want two refusals", what, other, owner)
	}
	oc, om, ook := errcode.Of(owner)
	xc, xm, xok := errcode.Of(other)
	if xc != oc || xm != om || xok != ook || reflect.TypeOf(other) != reflect.TypeOf(owner) {
		t.Errorf("%s through the other node: got %T %q %q, want %T %q %q", what, other, xc, xm, owner, oc, om)
	}
}

func TestCallsThroughTheOtherNode(t *testing.T) {
	p := newPair(t, 0)
	owner, other := p.tables[0], p.tables[1]
	ctx := t.Context()
	host, err := owner.Create(ctx, game.CreateRequest{Options: engine.Standard(3), HostName: "Ann"})
	if err != nil {
		t.Fatal(err)
	}
	id := host.Game.ID
	if !owner.runs(id) || other.runs(id) {
		t.Fatalf("runs: got %v on the owner and %v on the other, want true and false", owner.runs(id), other.runs(id))
	}
	// The other node's server learns of the owner's interest in its own
	// time: until then the calls are retried.
	bob, err := other.Join(ctx, id, "Bob", 0)
	if err != nil {
		t.Fatalf("Join through the other node: %v", err)
	}
	cy, err := other.Join(ctx, id, "Cy", 0)
	if err != nil {
		t.Fatalf("Join through the other node: %v", err)
	}
	if _, err := other.Join(ctx, id, "Bob", 0); err == nil {
		t.Errorf("a second Bob: got nil, want a refusal")
	}
	seat, err := other.Authenticate(ctx, id, bob.Token)
	if err != nil || seat != bob.Seat {
		t.Fatalf("Authenticate through the other node: got %d, %v, want %d", seat, err, bob.Seat)
	}
	asBob := game.WithToken(ctx, bob.Token)
	errOther := other.Start(asBob, id, bob.Seat)
	errOwner := owner.Start(asBob, id, bob.Seat)
	sameErr(t, "a start by a guest", errOwner, errOther)
	if err := other.Start(game.WithToken(ctx, host.Token), id, 0); err != nil {
		t.Fatalf("Start through the other node: %v", err)
	}
	people := seatsOf(t, owner, id, host, bob, cy)
	as := func(seat int) context.Context { return people.as(ctx, seat) }

	for seat := range 3 {
		vOwner, err := owner.View(ctx, id, seat)
		if err != nil {
			t.Fatal(err)
		}
		vOther, err := other.View(as(seat), id, seat)
		if err != nil {
			t.Fatal(err)
		}
		same(t, "a view", vOwner, vOther)
		fOwner, _ := owner.Frame(ctx, id, seat)
		fOther, err := other.Frame(as(seat), id, seat)
		if err != nil {
			t.Fatal(err)
		}
		same(t, "a frame", fOwner, fOther)
	}
	sOwner, _ := owner.Seats(ctx, id)
	sOther, err := other.Seats(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	same(t, "the seats", sOwner, sOther)

	// A move through the other node, then the same move again on each: the
	// same refusal. A move out of turn, too.
	v, _ := owner.View(ctx, id, engine.Spectator)
	turn := v.Turn
	hand, _ := owner.View(ctx, id, turn)
	play := engine.Action{Kind: engine.ActPlay, No: hand.Plays, Cards: hand.Hand[:1]}
	after, err := other.Move(ctx, id, people[turn], play)
	if err != nil {
		t.Fatalf("a play through the other node: %v", err)
	}
	want, _ := owner.Frame(as(turn), id, turn)
	same(t, "the frame after a play", want, after)
	refused, errOther := other.Move(ctx, id, people[turn], play)
	_, errOwner = owner.Move(ctx, id, people[turn], play)
	sameErr(t, "a play made twice", errOwner, errOther)
	same(t, "the frame with a refused play", want, refused)
	late := (turn + 2) % 3
	out := engine.Action{Kind: engine.ActPlay, No: after.View.Plays, Cards: hand.Hand[1:2]}
	_, errOther = other.Move(ctx, id, people[late], out)
	_, errOwner = owner.Move(ctx, id, people[late], out)
	sameErr(t, "a play out of turn", errOwner, errOther)

	// The token crosses with the move, and the table finds its seat: a
	// token of no seat is refused on both nodes alike.
	passer := 0
	for passer == turn {
		passer++
	}
	wrong := engine.Action{Kind: engine.ActPass, No: after.View.Plays}
	_, errOther = other.Move(ctx, id, "not-a-seat-token", wrong)
	_, errOwner = owner.Move(ctx, id, "not-a-seat-token", wrong)
	sameErr(t, "a move with no seat's token", errOwner, errOther)

	// Whoever reached NATS without a seat's token is refused every call
	// about a seat, as the routes refuse it; the spectator's needs none.
	noToken := []struct {
		what string
		call func() error
	}{
		{"a view", func() error { _, err := other.View(ctx, id, turn); return err }},
		{"a frame", func() error { _, err := other.Frame(ctx, id, turn); return err }},
		{"a log", func() error { _, err := other.Log(ctx, id, turn); return err }},
		{"a move", func() error { _, err := other.Move(ctx, id, "", wrong); return err }},
		{"the end", func() error { return other.End(ctx, id, 0) }},
		{"a hand-over", func() error { return other.HandToBot(ctx, id, 0, passer) }},
		{"leaving", func() error { return other.Leave(ctx, id, passer) }},
	}
	for _, tt := range noToken {
		if code, _, _ := errcode.Of(tt.call()); code != errcode.Unauthorized {
			t.Errorf("%s without a token through the other node: got code %q, want %q", tt.what, code, errcode.Unauthorized)
		}
	}
	if _, err := other.View(ctx, id, engine.Spectator); err != nil {
		t.Errorf("the spectator's view without a token through the other node: got %v, want it", err)
	}

	lOwner, _ := owner.Log(ctx, id, engine.Spectator)
	lOther, err := other.Log(ctx, id, engine.Spectator)
	if err != nil {
		t.Fatal(err)
	}
	same(t, "the log", lOwner, lOther)
	gOwner, _ := owner.Get(ctx, id)
	gOther, err := other.Get(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	same(t, "the summary", gOwner, gOther)

	// Once the game is over nobody runs it: the other node answers from
	// the store, as the owner does.
	if err := other.End(game.WithToken(ctx, host.Token), id, 0); err != nil {
		t.Fatalf("End through the other node: %v", err)
	}
	waitFor(t, "the table to stop", func() bool { return !owner.runs(id) })
	fOwner, err := owner.Frame(ctx, id, 0)
	if err != nil {
		t.Fatal(err)
	}
	fOther, err := other.Frame(as(0), id, 0)
	if err != nil {
		t.Fatal(err)
	}
	same(t, "the final frame", fOwner, fOther)
	if st := other.Stats(); st.Forwarded == 0 {
		t.Errorf("calls forwarded: got %d, want some", st.Forwarded)
	}
}

func TestUnknownGameFallsBackToTheStore(t *testing.T) {
	p := newPair(t, 0)
	_, err := p.tables[1].Get(t.Context(), "zzzzzz")
	if code, _, _ := errcode.Of(err); code != errcode.NotFound {
		t.Errorf("Get of a game nobody has: got %v (%q), want %q", err, code, errcode.NotFound)
	}
}
