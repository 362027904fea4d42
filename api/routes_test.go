package api_test

import (
	"context"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"bullshit/api"
	"bullshit/api/client"
	"bullshit/engine"
	"bullshit/game"
)

// TestRoutes walks one table through every route, each happy path and each
// refusal, checking every status and code (and, through the validating
// client, every body against openapi.yaml).
func TestRoutes(t *testing.T) {
	w := newWorld(t, worldOptions{})
	ctx := context.Background()
	host, err := w.client("").Create(ctx, client.CreateBody{Seats: 4, Name: "Ann"})
	if err != nil {
		t.Fatal(err)
	}
	id := host.Game.ID
	tokens := map[string]string{"ann": host.Token, "bad": "0123456789abcdef0123456789abcdef"}
	var replay string // the body of the last play made, to send again

	// fill resolves a step's placeholders from the table as it now stands.
	fill := func(s string) string {
		s = strings.ReplaceAll(s, "{id}", id)
		s = strings.ReplaceAll(s, "{ID}", strings.ToUpper(id))
		s = strings.ReplaceAll(s, "{replay}", replay)
		for name, tok := range tokens {
			s = strings.ReplaceAll(s, "{"+name+"}", tok)
		}
		if !dynamic.MatchString(s) {
			return s
		}
		v, err := w.mgr.View(ctx, id, engine.Spectator)
		if err != nil {
			t.Fatalf("filling %q: %v", s, err)
		}
		seatToken := func(seat int) string {
			for _, tok := range tokens {
				if got, err := w.mgr.Authenticate(ctx, id, tok); err == nil && got == seat {
					return tok
				}
			}
			t.Fatalf("no token for seat %d", seat)
			return ""
		}
		hand := func(seat int) []engine.Card {
			sv, err := w.mgr.View(ctx, id, seat)
			if err != nil {
				t.Fatal(err)
			}
			return sv.Hand
		}
		n := len(v.Seats)
		last := -1
		if v.Last != nil {
			last = v.Last.Seat
		}
		r := strings.NewReplacer(
			"{no}", strconv.Itoa(v.Plays),
			"{stale}", strconv.Itoa(v.Plays+1),
			"{turn}", seatToken(v.Turn),
			"{next}", seatToken((v.Turn+1)%n),
			"{last}", seatToken(max(last, 0)),
			"{caller}", seatToken((last+1)%n),
			"{other}", seatToken((last+2)%n),
			"{held}", hand(v.Turn)[0].String(),
			"{nextheld}", hand((v.Turn + 1) % n)[0].String(),
			"{notheld}", notIn(hand(v.Turn)).String(),
		)
		return r.Replace(s)
	}

	type step struct {
		name                string
		method, path, token string
		body                string
		status              int
		code                string
		// after checks the answer further.
		after func(t *testing.T, a answer)
	}
	steps := []step{
		{name: "health", method: "GET", path: "/healthz", status: 200},
		{name: "create: not JSON", method: "POST", path: "/api/v1/games", body: "seats=4", status: 400, code: "invalid"},
		{name: "create: too large", method: "POST", path: "/api/v1/games", body: `{"name":"` + strings.Repeat("x", api.MaxBody) + `"}`, status: 413, code: "too_large"},
		{name: "create: two seats", method: "POST", path: "/api/v1/games", body: `{"seats":2,"name":"Al"}`, status: 422, code: "bad_options"},
		{name: "create: unknown field", method: "POST", path: "/api/v1/games", body: `{"seats":3,"name":"Al","speed":9}`, status: 400, code: "invalid"},
		{name: "create: a bot table", method: "POST", path: "/api/v1/games", body: `{"seats":3,"name":"Al","bots":[{"level":"easy","style":"bold"}],"fill_bots":true}`, status: 201,
			after: func(t *testing.T, a answer) {
				j := decodeInto[game.Joined](t, a)
				if j.Seat != 0 || j.Token == "" || j.Game.Seats[1].Kind != game.SeatBot {
					t.Errorf("created %+v, want the host at seat 0 with a token and a bot at seat 1", j)
				}
			}},
		{name: "get: no such game", method: "GET", path: "/api/v1/games/zzzzzzzz", status: 404, code: "not_found"},
		{name: "list: odd status", method: "GET", path: "/api/v1/games?status=sleeping", status: 400, code: "invalid"},
		{name: "list: odd limit", method: "GET", path: "/api/v1/games?limit=0", status: 400, code: "invalid"},
		{name: "list open", method: "GET", path: "/api/v1/games?status=open&limit=10", status: 200,
			after: func(t *testing.T, a answer) {
				l := decodeInto[api.GameList](t, a)
				if !slices.ContainsFunc(l.Games, func(g game.Summary) bool { return g.ID == id }) {
					t.Errorf("the open games %+v don't include %s", l.Games, id)
				}
			}},
		{name: "get", method: "GET", path: "/api/v1/games/{id}", status: 200},
		{name: "get by the code in capitals", method: "GET", path: "/api/v1/games/{ID}", status: 200},
		{name: "join: no name", method: "POST", path: "/api/v1/games/{id}/join", body: `{"name":""}`, status: 400, code: "invalid"},
		{name: "join: no such game", method: "POST", path: "/api/v1/games/zzzzzzzz/join", body: `{"name":"Bo"}`, status: 404, code: "not_found"},
		{name: "join Bo", method: "POST", path: "/api/v1/games/{ID}/join", body: `{"name":"Bo"}`, status: 201, after: keep(tokens, "bo")},
		{name: "join Cy", method: "POST", path: "/api/v1/games/{id}/join", body: `{"name":"Cy"}`, status: 201, after: keep(tokens, "cy")},
		{name: "join Dee", method: "POST", path: "/api/v1/games/{id}/join", body: `{"name":"Dee"}`, status: 201, after: keep(tokens, "dee")},
		{name: "join: full", method: "POST", path: "/api/v1/games/{id}/join", body: `{"name":"Eve"}`, status: 409, code: "conflict"},
		{name: "leave: no token", method: "POST", path: "/api/v1/games/{id}/leave", status: 401, code: "unauthorized"},
		{name: "leave: wrong token", method: "POST", path: "/api/v1/games/{id}/leave", token: "{bad}", status: 401, code: "unauthorized"},
		{name: "leave: Dee", method: "POST", path: "/api/v1/games/{id}/leave", token: "{dee}", status: 200,
			after: func(t *testing.T, a answer) {
				if s := decodeInto[game.Summary](t, a); s.Seats[3].Kind != game.SeatEmpty {
					t.Errorf("after Dee left seat 3 is %+v, want empty", s.Seats[3])
				}
			}},
		{name: "seats", method: "GET", path: "/api/v1/games/{id}/seats", status: 200},
		{name: "start: not the host", method: "POST", path: "/api/v1/games/{id}/start", token: "{bo}", status: 403, code: "forbidden"},
		{name: "view before the start", method: "GET", path: "/api/v1/games/{id}/view", token: "{ann}", status: 409, code: "conflict"},
		{name: "play before the start", method: "POST", path: "/api/v1/games/{id}/play", token: "{ann}", body: `{"no":0,"cards":["AS"]}`, status: 409, code: "conflict"},
		{name: "start", method: "POST", path: "/api/v1/games/{id}/start", token: "{ann}", status: 200,
			after: func(t *testing.T, a answer) {
				if s := decodeInto[game.Summary](t, a); s.Status != game.StatusLive || s.Options.Seats != 3 {
					t.Errorf("after the start the game is %s with %d seats, want live with 3", s.Status, s.Options.Seats)
				}
			}},
		{name: "start again", method: "POST", path: "/api/v1/games/{id}/start", token: "{ann}", status: 409, code: "conflict"},
		{name: "join after the start", method: "POST", path: "/api/v1/games/{id}/join", body: `{"name":"Eve"}`, status: 409, code: "conflict"},
		{name: "spectator's view", method: "GET", path: "/api/v1/games/{id}/view", status: 200,
			after: func(t *testing.T, a answer) {
				if v := decodeInto[engine.View](t, a); v.Seat != engine.Spectator || v.Hand != nil {
					t.Errorf("the spectator's view is seat %d with hand %v, want -1 and none", v.Seat, v.Hand)
				}
			}},
		{name: "seat's view", method: "GET", path: "/api/v1/games/{id}/view", token: "{bo}", status: 200,
			after: func(t *testing.T, a answer) {
				if v := decodeInto[engine.View](t, a); v.Seat != 1 || len(v.Hand) == 0 {
					t.Errorf("Bo's view is seat %d with hand %v, want seat 1 with cards", v.Seat, v.Hand)
				}
			}},
		{name: "view: bad auth header", method: "GET", path: "/api/v1/games/{id}/view", token: "{bad}", status: 401, code: "unauthorized"},
		{name: "play: not your turn", method: "POST", path: "/api/v1/games/{id}/play", token: "{next}", body: `{"no":{no},"cards":["{nextheld}"]}`, status: 422, code: "not_your_turn"},
		{name: "play: stale no", method: "POST", path: "/api/v1/games/{id}/play", token: "{turn}", body: `{"no":{stale},"cards":["{held}"]}`, status: 409, code: "stale"},
		{name: "play: a card not held", method: "POST", path: "/api/v1/games/{id}/play", token: "{turn}", body: `{"no":{no},"cards":["{notheld}"]}`, status: 422, code: "illegal"},
		{name: "play: no such card", method: "POST", path: "/api/v1/games/{id}/play", token: "{turn}", body: `{"no":{no},"cards":["XX"]}`, status: 400, code: "invalid"},
		{name: "play: no no", method: "POST", path: "/api/v1/games/{id}/play", token: "{turn}", body: `{"cards":["{held}"]}`, status: 400, code: "invalid"},
		{name: "play: too many sneaked", method: "POST", path: "/api/v1/games/{id}/play", token: "{turn}", body: `{"no":{no},"cards":["{held}"],"claim":9}`, status: 422, code: "illegal"},
		{name: "play", method: "POST", path: "/api/v1/games/{id}/play", token: "{turn}", body: `{"no":{no},"cards":["{held}"]}`, status: 200,
			after: func(t *testing.T, a answer) {
				v := decodeInto[engine.View](t, a)
				if v.Plays != 1 || v.Phase != engine.PhaseCall || v.Last == nil || len(v.Last.Cards) != 1 {
					t.Errorf("after the play the player sees %+v, want play 1 in its call window, with their card", v)
				}
				replay = `{"no":0,"cards":["` + v.Last.Cards[0].String() + `"]}`
			}},
		{name: "the same play again", method: "POST", path: "/api/v1/games/{id}/play", token: "{last}", body: "{replay}", status: 409, code: "stale"},
		{name: "call your own play", method: "POST", path: "/api/v1/games/{id}/call", token: "{last}", body: `{"no":{no}}`, status: 422, code: "not_your_turn"},
		{name: "pass: no body", method: "POST", path: "/api/v1/games/{id}/pass", token: "{caller}", status: 400, code: "invalid"},
		{name: "pass: cards", method: "POST", path: "/api/v1/games/{id}/pass", token: "{caller}", body: `{"no":{no},"cards":["AS"]}`, status: 400, code: "invalid"},
		{name: "give: nothing owed", method: "POST", path: "/api/v1/games/{id}/give", token: "{caller}", body: `{"no":{no},"cards":["{nextheld}"]}`, status: 422, code: "not_your_turn"},
		{name: "call", method: "POST", path: "/api/v1/games/{id}/call", token: "{caller}", body: `{"no":{no}}`, status: 200,
			after: func(t *testing.T, a answer) {
				// The standard table has a grace for calls made together:
				// the call is held open, then turned up.
				if v := decodeInto[engine.View](t, a); v.Phase != engine.PhaseShout || !slices.Contains(v.Shouts, v.Seat) {
					t.Errorf("after the call the caller sees phase %s, shouts %v, want the shout with theirs", v.Phase, v.Shouts)
				}
				w.clock.Advance(engine.StandardGrace)
			}},
		{name: "call again, late", method: "POST", path: "/api/v1/games/{id}/call", token: "{other}", body: `{"no":{no}}`, status: 409, code: "stale"},
		{name: "the log, as a spectator", method: "GET", path: "/api/v1/games/{id}/log", status: 200,
			after: func(t *testing.T, a answer) {
				for _, e := range decodeInto[api.EventList](t, a).Events {
					if e.To != nil {
						t.Errorf("the spectator's log has a private line: %+v", e)
					}
				}
			}},
		{name: "the log, as the player", method: "GET", path: "/api/v1/games/{id}/log", token: "{last}", status: 200,
			after: func(t *testing.T, a answer) {
				if !slices.ContainsFunc(decodeInto[api.EventList](t, a).Events, func(e engine.Event) bool { return e.Kind == engine.EventMine }) {
					t.Errorf("the player's log lacks their own cards")
				}
			}},
		{name: "hand to a bot: odd seat", method: "POST", path: "/api/v1/games/{id}/seats/x/bot", token: "{ann}", status: 400, code: "invalid"},
		{name: "hand to a bot: someone else's", method: "POST", path: "/api/v1/games/{id}/seats/2/bot", token: "{bo}", status: 403, code: "forbidden"},
		{name: "hand to a bot: your own", method: "POST", path: "/api/v1/games/{id}/seats/2/bot", token: "{cy}", status: 200,
			after: func(t *testing.T, a answer) {
				if s := decodeInto[game.Summary](t, a); s.Seats[2].Bot == nil && s.Seats[2].Kind != game.SeatBot {
					t.Errorf("after the hand-over seat 2 is %+v, want a bot playing it", s.Seats[2])
				}
			}},
		{name: "end: not the host", method: "POST", path: "/api/v1/games/{id}/end", token: "{bo}", status: 403, code: "forbidden"},
		{name: "end", method: "POST", path: "/api/v1/games/{id}/end", token: "{ann}", status: 200,
			after: func(t *testing.T, a answer) {
				if s := decodeInto[game.Summary](t, a); s.Status != game.StatusEnded {
					t.Errorf("after the end the game is %s, want ended", s.Status)
				}
			}},
		{name: "play after the end", method: "POST", path: "/api/v1/games/{id}/pass", token: "{bo}", body: `{"no":1}`, status: 409, code: "over"},
		{name: "the view once it's ended", method: "GET", path: "/api/v1/games/{id}/view", token: "{bo}", status: 200,
			after: func(t *testing.T, a answer) {
				if v := decodeInto[engine.View](t, a); v.Phase != engine.PhaseOver || !v.Ended || len(v.Can) != 0 {
					t.Errorf("after the end the view is phase %v, ended %v, can %v: want over, ended, no moves", v.Phase, v.Ended, v.Can)
				}
			}},
		{name: "the log once it's over", method: "GET", path: "/api/v1/games/{id}/log", status: 200},
		{name: "list ended", method: "GET", path: "/api/v1/games?status=ended", status: 200},
		{name: "no such route", method: "GET", path: "/api/v1/nothing", status: 404, code: "not_found"},
		{name: "wrong method", method: "DELETE", path: "/api/v1/games", status: 405, code: "method_not_allowed"},
	}
	for _, s := range steps {
		a := w.do(s.method, fill(s.path), fill(s.token), fill(s.body))
		if a.status != s.status || (s.code != "" && a.problem().Code != s.code) {
			t.Fatalf("%s: %s %s answered %d %.300s, want %d %s", s.name, s.method, s.path, a.status, a.body, s.status, s.code)
		}
		if s.status >= 400 && a.problem().Error == "" {
			t.Errorf("%s: the refusal has no message: %s", s.name, a.body)
		}
		if s.after != nil {
			s.after(t, a)
		}
	}
}

// keep records the token of a seat just joined under name.
func keep(tokens map[string]string, name string) func(t *testing.T, a answer) {
	return func(t *testing.T, a answer) {
		j := decodeInto[game.Joined](t, a)
		if j.Token == "" {
			t.Fatalf("joining gave no token: %s", a.body)
		}
		tokens[name] = j.Token
	}
}

// notIn is a card of the first deck that hand lacks.
func notIn(hand []engine.Card) engine.Card {
	for c := range engine.Card(52) {
		if !slices.Contains(hand, c) {
			return c
		}
	}
	panic("a hand holds the whole deck")
}

// dynamic matches the placeholders that depend on the table's state.
var dynamic = regexp.MustCompile(`\{(no|stale|turn|next|last|caller|other|held|nextheld|notheld)\}`)
