package cluster

import (
	"context"
	"slices"
	"sync"
	"testing"
	"time"

	"bullshit/engine"
	"bullshit/game"
)

// recorder is a hub that keeps the frames it is given, by seat.
type recorder struct {
	mu        sync.Mutex
	frames    map[seatKey][]game.Frame
	closed    map[string]bool
	restamped int
	noted     []string
	// tap, if set, is handed every frame as it comes (a benchmark's).
	tap func(game string, f game.Frame)
}

func newRecorder() *recorder {
	return &recorder{frames: make(map[seatKey][]game.Frame), closed: make(map[string]bool)}
}

func (r *recorder) Publish(game string, f game.Frame) {
	r.mu.Lock()
	defer r.mu.Unlock()
	k := seatKey{game, f.Seat}
	r.frames[k] = append(r.frames[k], f)
	if r.tap != nil {
		r.tap(game, f)
	}
}

func (r *recorder) Close(game string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.closed[game] = true
}

func (r *recorder) NoteTable(game string, _ game.Summary) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.noted = append(r.noted, game)
}

func (r *recorder) Restamp(string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.restamped++
}

// revisions are the revisions of the frames seat was given, with those
// the hub itself would drop as stale (not after the last taken) left out.
func (r *recorder) revisions(game string, seat int) []int {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []int
	for _, f := range r.frames[seatKey{game, seat}] {
		if len(out) == 0 || f.Revision > out[len(out)-1] || f.Final {
			out = append(out, f.Revision)
		}
	}
	return out
}

// given are every revision seat was given, in order.
func (r *recorder) given(game string, seat int) []int {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []int
	for _, f := range r.frames[seatKey{game, seat}] {
		out = append(out, f.Revision)
	}
	return out
}

func (r *recorder) isClosed(game string) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.closed[game]
}

// TestFramesReachAnotherNode follows a seat on the node that doesn't run
// its table: it sees the table's frames in revision order, and recovers
// from a frame NATS lost in the middle (a gap) and at the end (silence).
func TestFramesReachAnotherNode(t *testing.T) {
	p := newPair(t, 200*time.Millisecond)
	owner := p.tables[0]
	ctx := t.Context()
	joined := threeSeated(t, owner)
	host, id := joined[0], joined[0].Game.ID
	// The other node's lobby hears of the table.
	p.relays[0].Lobbied(id, host.Game)
	waitFor(t, "the lobby change on the other node", func() bool {
		p.hubs[1].mu.Lock()
		defer p.hubs[1].mu.Unlock()
		return slices.Contains(p.hubs[1].noted, id)
	})
	p.relays[1].Follow(id, 0, host.Token, 0, true)
	p.relays[1].Follow(id, engine.Spectator, "", 0, true)
	defer p.relays[1].Follow(id, 0, host.Token, 0, false)
	defer p.relays[1].Follow(id, engine.Spectator, "", 0, false)
	// The follower's first read finds the waiting room.
	waitFor(t, "the waiting room on the other node", func() bool { return len(p.hubs[1].given(id, 0)) > 0 })

	current := func() int {
		f, err := owner.Frame(ctx, id, 0)
		if err != nil {
			t.Fatal(err)
		}
		return f.Revision
	}
	caughtUp := func(what string) {
		t.Helper()
		want := current()
		waitFor(t, what, func() bool {
			revs := p.hubs[1].revisions(id, 0)
			return len(revs) > 0 && revs[len(revs)-1] == want
		})
	}
	if err := owner.Start(game.WithToken(ctx, host.Token), id, 0); err != nil {
		t.Fatal(err)
	}
	caughtUp("the start on the other node")
	people := seatsOf(t, owner, id, joined...)
	if got := p.relays[1].Stats().Received; got == 0 {
		t.Errorf("frames received over NATS: got %d, want some", got)
	}

	// Lose seat 0's next frame, then let the table move on: the gap shows.
	var once sync.Once
	lose := func(game string, f game.Frame) bool {
		lost := false
		if game == id && f.Seat == 0 {
			once.Do(func() { lost = true })
		}
		return lost
	}
	p.relays[0].drop.Store(&lose)
	play(t, owner, id, people)
	play(t, owner, id, people)
	caughtUp("the other node past a lost frame")

	// Lose the last frame: only the quiet spell shows it.
	var last sync.Once
	loseLast := func(game string, f game.Frame) bool {
		lost := false
		if game == id && f.Seat == 0 {
			last.Do(func() { lost = true })
		}
		return lost
	}
	p.relays[0].drop.Store(&loseLast)
	readsBefore := p.relays[1].Stats().Reads
	play(t, owner, id, people)
	caughtUp("the other node after its last frame was lost")
	if got := p.relays[1].Stats().Reads; got <= readsBefore {
		t.Errorf("fresh reads: got %d, want more than %d", got, readsBefore)
	}

	// The hub was never handed a frame that wasn't newer than the last.
	given := p.hubs[1].given(id, 0)
	for i := 1; i < len(given); i++ {
		if given[i] <= given[i-1] {
			t.Errorf("revisions handed to the other node's hub: got %v, want each above the last", given)
			break
		}
	}

	// The end reaches every followed seat, then the streams close.
	if err := owner.End(game.WithToken(ctx, host.Token), id, 0); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the game's streams closed on the other node", func() bool { return p.hubs[1].isClosed(id) })
	for _, seat := range []int{0, engine.Spectator} {
		p.hubs[1].mu.Lock()
		frames := p.hubs[1].frames[seatKey{id, seat}]
		final := len(frames) > 0 && frames[len(frames)-1].Final
		p.hubs[1].mu.Unlock()
		if !final {
			t.Errorf("seat %d's last frame on the other node: got a frame not final, want the final one", seat)
		}
	}
}

// TestFramesGoOnlyToFollowedSeats: a seat's frame (its hand) reaches NATS
// only while some node follows that seat.
func TestFramesGoOnlyToFollowedSeats(t *testing.T) {
	p := newPair(t, time.Hour)
	owner := p.tables[0]
	ctx := t.Context()
	joined := threeSeated(t, owner)
	host, id := joined[0], joined[0].Game.ID
	var mu sync.Mutex
	sent := make(map[int]int)
	watch := func(game string, f game.Frame) bool {
		mu.Lock()
		defer mu.Unlock()
		sent[f.Seat]++
		return false
	}
	p.relays[0].drop.Store(&watch)
	if err := owner.Start(game.WithToken(ctx, host.Token), id, 0); err != nil {
		t.Fatal(err)
	}
	people := seatsOf(t, owner, id, joined...)
	p.relays[1].Follow(id, engine.Spectator, "", 0, true)
	defer p.relays[1].Follow(id, engine.Spectator, "", 0, false)
	waitFor(t, "the spectator's frames on the other node", func() bool {
		play(t, owner, id, people)
		mu.Lock()
		defer mu.Unlock()
		return sent[engine.Spectator] > 0
	})
	mu.Lock()
	defer mu.Unlock()
	for seat := range 3 {
		if sent[seat] != 0 {
			t.Errorf("seat %d's frames on NATS with nobody following it: got %d, want 0", seat, sent[seat])
		}
	}
}

// seats are the seats of a game's people, by their tokens, as the table
// numbers them now: a call about a seat through another node carries the
// seat's token, as the routes' calls do.
type seats map[int]string

func seatsOf(t *testing.T, tables *Service, id string, joined ...game.Joined) seats {
	t.Helper()
	out := make(seats)
	for _, j := range joined {
		seat, err := tables.Authenticate(t.Context(), id, j.Token)
		if err != nil {
			t.Fatal(err)
		}
		out[seat] = j.Token
	}
	return out
}

// as is a context carrying seat's token.
func (s seats) as(ctx context.Context, seat int) context.Context {
	if token, ok := s[seat]; ok {
		return game.WithToken(ctx, token)
	}
	return ctx
}

// play makes one move: the first seat that may play plays its first card,
// or else the first that may let the last play go does.
func play(t *testing.T, tables *Service, id string, people seats) {
	t.Helper()
	for seat := range 3 {
		ctx := people.as(t.Context(), seat)
		v, err := tables.View(ctx, id, seat)
		if err != nil {
			t.Fatal(err)
		}
		a := engine.Action{Seat: seat, No: v.Plays}
		switch {
		case slices.Contains(v.Can, engine.ActPlay) && len(v.Hand) > 0:
			a.Kind, a.Cards = engine.ActPlay, v.Hand[:1]
		case slices.Contains(v.Can, engine.ActPass):
			a.Kind = engine.ActPass
		default:
			continue
		}
		if _, err := tables.Move(ctx, id, people[seat], a); err != nil {
			t.Fatalf("%s by seat %d: %v", a.Kind, seat, err)
		}
		return
	}
	t.Fatal("nobody may move")
}

func TestAStoppedTableEndsNoStreamElsewhere(t *testing.T) {
	tests := []struct {
		status game.Status
		final  bool
		want   bool
	}{
		{game.StatusLive, true, true},
		{game.StatusOpen, true, true},
		{game.StatusLive, false, false},
		{game.StatusFinished, true, false},
		{game.StatusEnded, true, false},
		{game.StatusBroken, true, false},
	}
	for _, tt := range tests {
		f := game.Frame{Final: tt.final, Game: game.Summary{Status: tt.status}}
		if got := stoppedHere(f); got != tt.want {
			t.Errorf("stoppedHere(final %v, %s): got %v, want %v", tt.final, tt.status, got, tt.want)
		}
	}
}

// threeSeated opens a table of three people on tables: Ann the host, Bob
// and Cy joined.
func threeSeated(t *testing.T, tables *Service) []game.Joined {
	t.Helper()
	host, err := tables.Create(t.Context(), game.CreateRequest{Options: engine.Standard(3), HostName: "Ann"})
	if err != nil {
		t.Fatal(err)
	}
	joined := []game.Joined{host}
	for _, name := range []string{"Bob", "Cy"} {
		j, err := tables.Join(t.Context(), host.Game.ID, name, 0)
		if err != nil {
			t.Fatal(err)
		}
		joined = append(joined, j)
	}
	return joined
}
