package clustertest

import (
	"context"
	"fmt"
	"slices"

	"bullshit/engine"
	"bullshit/store"
)

// storedGame is a game as the database holds it at the end.
type storedGame struct {
	game    *store.Game
	seats   []store.Seat
	actions []store.Action
	results []store.Result
}

func loadGame(ctx context.Context, st *store.Store, id string) (storedGame, error) {
	g, seats, err := st.Game(ctx, id)
	if err != nil {
		return storedGame{}, err
	}
	actions, err := st.Actions(ctx, id)
	if err != nil {
		return storedGame{}, err
	}
	results, err := st.Results(ctx, id)
	if err != nil {
		return storedGame{}, err
	}
	return storedGame{game: g, seats: seats, actions: actions, results: results}, nil
}

// moveOfAction is a stored action as a client would have sent it.
func moveOfAction(game string, a engine.Action) move {
	var cards []string
	for _, c := range a.Cards {
		cards = append(cards, c.String())
	}
	return move{Game: game, Seat: a.Seat, Kind: a.Kind, No: a.No, Cards: cardKey(cards), Claim: a.Claim}
}

// checkStored checks one game's stored record on its own: it is over, its
// actions are numbered 1, 2, 3... with no gap, no seat's move (seat, kind,
// play number) is stored twice, and replaying the actions through the
// engine, as the server does, ends the game with the stored results.
func checkStored(s storedGame) []string {
	var bad []string
	id := s.game.ID
	if s.game.Status != "finished" {
		bad = append(bad, fmt.Sprintf("%s: status %s, not finished", id, s.game.Status))
	}
	seen := map[string]int{}
	for i, a := range s.actions {
		if a.Seq != i+1 {
			bad = append(bad, fmt.Sprintf("%s: action %d has sequence number %d", id, i+1, a.Seq))
		}
		if a.Action.Kind == engine.ActResume {
			continue
		}
		key := moveOfAction(id, a.Action).id()
		if j, dup := seen[key]; dup {
			bad = append(bad, fmt.Sprintf("%s stored twice: actions %d and %d", key, j, a.Seq))
		}
		seen[key] = a.Seq
	}
	opts := s.game.Options
	opts.Seats = 0
	for _, seat := range s.seats {
		if seat.Kind != "empty" {
			opts.Seats++
		}
	}
	timed := make([]engine.Timed, len(s.actions))
	for i, a := range s.actions {
		timed[i] = a.Timed()
	}
	r := engine.Replay{Options: opts, Seed: s.game.Seed, Start: s.game.StartedAt, Actions: timed,
		Over: s.game.EndedAt, HostEnded: s.game.Status == "ended"}
	state, err := r.State()
	if err != nil {
		return append(bad, fmt.Sprintf("%s: replaying the stored actions: %v", id, err))
	}
	if !state.Over() {
		return append(bad, fmt.Sprintf("%s: the replay is not over (phase %s) at the stored end %v", id, state.Phase(),
			s.game.EndedAt))
	}
	if state.Plays() != s.game.Plays || state.Capped() != s.game.Capped {
		bad = append(bad, fmt.Sprintf("%s: replayed %d plays (capped %v), stored %d (capped %v)", id, state.Plays(),
			state.Capped(), s.game.Plays, s.game.Capped))
	}
	got := state.Result()
	var want []engine.Place
	for _, res := range s.results {
		want = append(want, engine.Place{Seat: res.Seat, Place: res.Place, Left: res.Left})
	}
	bySeat := func(a, b engine.Place) int { return a.Seat - b.Seat }
	slices.SortFunc(got, bySeat)
	slices.SortFunc(want, bySeat)
	if !slices.Equal(got, want) {
		bad = append(bad, fmt.Sprintf("%s: replayed results %v, stored %v", id, got, want))
	}
	return bad
}

// checkOnce checks the game's API moves against its stored log: every
// acknowledged move is stored exactly once and as sent, and every stored
// move of an API seat that no bot ever covered was sent by its client. (A
// move refused as "stale" may still be stored: "already done" is one of the
// meanings of stale, as when a node's forwarded try committed but its answer
// was lost and the retry was refused; the linearizability check judges
// when a refusal is a lie.)
func checkOnce(s storedGame, ops []op) []string {
	var bad []string
	stored := map[string][]move{}
	for _, a := range s.actions {
		if a.Action.Kind != engine.ActResume {
			m := moveOfAction(s.game.ID, a.Action)
			stored[m.id()] = append(stored[m.id()], m)
		}
	}
	sent := map[string]bool{}
	apiSeats := map[int]bool{}
	for _, o := range ops {
		apiSeats[o.Seat] = true
		sent[o.id()] = true
		if o.Outcome != ok {
			continue
		}
		switch got := stored[o.id()]; {
		case len(got) != 1:
			bad = append(bad, fmt.Sprintf("acknowledged %s is stored %d times", o.id(), len(got)))
		case got[0] != o.move:
			bad = append(bad, fmt.Sprintf("acknowledged %+v is stored as %+v", o.move, got[0]))
		}
	}
	covered := map[int]bool{}
	for _, seat := range s.seats {
		covered[seat.No] = seat.Covered
	}
	for _, a := range s.actions {
		if a.Action.Kind == engine.ActResume || !apiSeats[a.Action.Seat] || covered[a.Action.Seat] {
			continue
		}
		if m := moveOfAction(s.game.ID, a.Action); !sent[m.id()] {
			bad = append(bad, fmt.Sprintf("%s is stored (action %d) but its client never sent it",
				m.id(), a.Seq))
		}
	}
	return bad
}
