package api_test

import (
	"context"
	"errors"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"bullshit/api/client"
	"bullshit/engine"
)

// fiveAtTable is a started five-seat table of people (Ann, Bo, Cy, Dee, Eve
// in seats 0 to 4) with the standard settings but for body's, and their
// clients by seat.
func fiveAtTable(t *testing.T, w *world, body client.CreateBody) (string, []*client.Client) {
	t.Helper()
	ctx := context.Background()
	body.Seats, body.Name = 5, "Ann"
	host, err := w.client("").Create(ctx, body)
	if err != nil {
		t.Fatal(err)
	}
	id := host.Game.ID
	seats := []*client.Client{w.client(host.Token)}
	for _, name := range []string{"Bo", "Cy", "Dee", "Eve"} {
		j, err := w.client("").Join(ctx, id, name)
		if err != nil {
			t.Fatal(err)
		}
		seats = append(seats, w.client(j.Token))
	}
	if _, err := seats[0].Start(ctx, id); err != nil {
		t.Fatal(err)
	}
	return id, seats
}

var names = []string{"Ann", "Bo", "Cy", "Dee", "Eve"}

// playTurn has the seat on turn make its fallback play (never a sneak) and
// returns the play's number and its player.
func playTurn(t *testing.T, id string, seats []*client.Client) (no, player int) {
	t.Helper()
	v, err := seats[0].View(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	if v.Phase != engine.PhasePlay {
		t.Fatalf("got phase %v, want a play", v.Phase)
	}
	pv, err := seats[v.Turn].View(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	a, _ := pv.Fallback()
	after, err := seats[v.Turn].Act(context.Background(), id, a)
	if err != nil {
		t.Fatalf("the play %+v: %v", a, err)
	}
	return after.Plays, v.Turn
}

// callAll sends a call from each of the seats at once and returns each
// one's error, by seat.
func callAll(id string, seats []*client.Client, callers []int, no int) map[int]error {
	var mu sync.Mutex
	errs := map[int]error{}
	var wg sync.WaitGroup
	for _, seat := range callers {
		wg.Go(func() {
			_, err := seats[seat].Act(context.Background(), id, engine.Action{Kind: engine.ActCall, No: no})
			mu.Lock()
			errs[seat] = err
			mu.Unlock()
		})
	}
	wg.Wait()
	return errs
}

// nearestLeft is the caller nearest the player's left.
func nearestLeft(player int, callers []int) int {
	best := callers[0]
	for _, c := range callers {
		if (c-player+5)%5 < (best-player+5)%5 {
			best = c
		}
	}
	return best
}

// TestCallsTogetherOverHTTP: calls sent at once from several seats (the
// fake clock standing still, so every one lands within the grace) are all
// accepted and go to the seat nearest the player's left, round after round
// whatever order the server took them in; a call after the grace is refused
// as stale, naming who won.
func TestCallsTogetherOverHTTP(t *testing.T) {
	w := newWorld(t, worldOptions{})
	id, seats := fiveAtTable(t, w, client.CreateBody{})
	rng := rand.New(rand.NewPCG(10, 10))
	for round := range 8 {
		no, player := playTurn(t, id, seats)
		var callers []int
		for seat := range 5 {
			if seat != player && (len(callers) < 2 || rng.IntN(2) == 0) {
				callers = append(callers, seat)
			}
		}
		rng.Shuffle(len(callers), func(i, j int) { callers[i], callers[j] = callers[j], callers[i] })
		for seat, err := range callAll(id, seats, callers, no) {
			if err != nil {
				t.Fatalf("round %d: seat %d's call within the grace: got %v, want it accepted", round, seat, err)
			}
		}
		w.clock.Advance(engine.StandardGrace)
		v, err := seats[player].View(context.Background(), id)
		if err != nil {
			t.Fatal(err)
		}
		want := nearestLeft(player, callers)
		if v.Phase != engine.PhaseReveal || v.Reveal.Caller != want || len(v.Reveal.Together) != len(callers)-1 {
			t.Fatalf("round %d: player %d, callers %v: got phase %v, reveal %+v, want seat %d's call with the others together",
				round, player, callers, v.Phase, v.Reveal, want)
		}
		late := slices.IndexFunc([]int{0, 1, 2, 3, 4}, func(s int) bool { return s != player && !slices.Contains(callers, s) })
		if late >= 0 {
			_, err := seats[late].Act(context.Background(), id, engine.Action{Kind: engine.ActCall, No: no})
			if client.ErrorCode(err) != "stale" || !strings.Contains(err.Error(), names[want]+" beat you to it.") {
				t.Errorf("round %d: a call after the grace: got %v, want stale naming %s", round, err, names[want])
			}
		}
		w.clock.Advance(5 * time.Second) // the reveal ends
	}
}

// TestCallsApartOverHTTP: a call more than the grace after the first loses
// to it, however near the player's left, and is told who won.
func TestCallsApartOverHTTP(t *testing.T) {
	w := newWorld(t, worldOptions{})
	id, seats := fiveAtTable(t, w, client.CreateBody{})
	for round := range 4 {
		no, player := playTurn(t, id, seats)
		far, near := (player+4)%5, (player+1)%5
		if err := callAll(id, seats, []int{far}, no)[far]; err != nil {
			t.Fatalf("round %d: the first call: %v", round, err)
		}
		w.clock.Advance(engine.StandardGrace + time.Millisecond)
		// Sent at once by the near seat and a third: both too late.
		third := (player + 2) % 5
		for seat, err := range callAll(id, seats, []int{near, third}, no) {
			var ce *client.Error
			if !errors.As(err, &ce) || ce.Code != "stale" || ce.Message != names[far]+" beat you to it." {
				t.Errorf("round %d: seat %d called after the grace: got %v, want stale, %q", round, seat, err, names[far]+" beat you to it.")
			}
		}
		v, err := seats[near].View(context.Background(), id)
		if err != nil {
			t.Fatal(err)
		}
		if v.Reveal == nil || v.Reveal.Caller != far || len(v.Reveal.Together) != 0 {
			t.Fatalf("round %d: got reveal %+v, want seat %d's call alone", round, v.Reveal, far)
		}
		w.clock.Advance(5 * time.Second)
	}
}

// TestFirstComeOverHTTP: a table with no grace turns the first call up at
// once, and a call sent with it is refused.
func TestFirstComeOverHTTP(t *testing.T) {
	w := newWorld(t, worldOptions{})
	zero := 0.0
	id, seats := fiveAtTable(t, w, client.CreateBody{GraceSeconds: &zero})
	no, player := playTurn(t, id, seats)
	callers := []int{(player + 1) % 5, (player + 2) % 5, (player + 3) % 5}
	errs := callAll(id, seats, callers, no)
	won := -1
	for seat, err := range errs {
		switch {
		case err == nil && won < 0:
			won = seat
		case err == nil:
			t.Errorf("seats %d and %d both won the call", won, seat)
		case client.ErrorCode(err) != "stale":
			t.Errorf("seat %d: got %v, want stale", seat, err)
		}
	}
	for seat, err := range errs {
		if err != nil && !strings.Contains(err.Error(), names[won]+" beat you to it.") {
			t.Errorf("seat %d: got %v, want it to name %s", seat, err, names[won])
		}
	}
}
