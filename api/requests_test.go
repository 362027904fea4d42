package api

import (
	"encoding/json"
	"errors"
	"reflect"
	"testing"
	"time"

	"bullshit/engine"
	"bullshit/game"
	"bullshit/internal/httpx"
)

// codeOf is the code a decoder's error carries, or "" for none.
func codeOf(err error) string {
	if err == nil {
		return ""
	}
	_, p, _ := problem(err)
	return p.Code
}

// TestDecodeCreate checks the translation of a create request. The checks of
// the settings and the name are the runtime's (live's
// TestCreateRefusesBadRequests), answered by the API with their statuses
// (TestCreateAndJoinAreCheckedByTheRuntime).
func TestDecodeCreate(t *testing.T) {
	std := engine.Standard(4)
	tests := []struct {
		name string
		body string
		want game.CreateRequest
		code string
	}{
		{"standard", `{"seats":4,"name":"Ann"}`, game.CreateRequest{Options: std, HostName: "Ann"}, ""},
		{"every setting", `{"seats":6,"sneak":0,"window_seconds":10,"pace":"relaxed","away_after_seconds":30,"name":" Bo ","bots":[{"level":"hard","style":"bold"}],"fill_bots":true}`,
			game.CreateRequest{
				Options: engine.Options{Seats: 6, Sneak: 0, Window: 10 * time.Second, Pace: engine.Relaxed, Penalty: engine.StandardPenalty,
					Grace: engine.StandardGrace},
				HostName: " Bo ", Bots: []game.BotSpec{{Level: "hard", Style: "bold"}}, FillBots: true, AwayAfter: 30 * time.Second,
			}, ""},
		{"settings out of range are passed on", `{"seats":2,"sneak":9,"window_seconds":5,"away_after_seconds":-3,"name":"Ann"}`,
			game.CreateRequest{Options: engine.Options{Seats: 2, Sneak: 9, Window: 5 * time.Second, Pace: engine.Brisk, Penalty: engine.StandardPenalty,
				Grace: engine.StandardGrace},
				HostName: "Ann", AwayAfter: -3 * time.Second}, ""},
		{"a window too long for a duration", `{"seats":4,"window_seconds":9999999999,"name":"Ann"}`,
			game.CreateRequest{Options: engine.Options{Seats: 4, Sneak: std.Sneak, Window: -1, Pace: engine.Brisk, Penalty: engine.StandardPenalty,
				Grace: engine.StandardGrace}, HostName: "Ann"}, ""},
		{"an away time too long for a duration", `{"seats":4,"away_after_seconds":-9999999999,"name":"Ann"}`,
			game.CreateRequest{Options: std, HostName: "Ann", AwayAfter: -1}, ""},
		{"the table options", `{"seats":6,"name":"Bo","grace_seconds":0.3,"play_on":true,"seed":"18446744073709551615"}`,
			game.CreateRequest{Options: engine.Options{Seats: 6, Sneak: std.Sneak, Window: std.Window, Pace: engine.Brisk,
				Penalty: engine.StandardPenalty, Grace: 300 * time.Millisecond, PlayOn: true},
				HostName: "Bo", Seed: ptr(uint64(18446744073709551615))}, ""},
		{"first come", `{"seats":4,"name":"Ann","grace_seconds":0}`,
			game.CreateRequest{Options: func() engine.Options { o := std; o.Grace = 0; return o }(), HostName: "Ann"}, ""},
		{"a grace out of range is passed on", `{"seats":4,"name":"Ann","grace_seconds":0.6}`,
			game.CreateRequest{Options: func() engine.Options { o := std; o.Grace = -1; return o }(), HostName: "Ann"}, ""},
		{"a negative grace is passed on", `{"seats":4,"name":"Ann","grace_seconds":-0.1}`,
			game.CreateRequest{Options: func() engine.Options { o := std; o.Grace = -1; return o }(), HostName: "Ann"}, ""},
		{"grace as text", `{"seats":4,"name":"Ann","grace_seconds":"0.1"}`, game.CreateRequest{}, "invalid"},
		{"seed not a number", `{"seats":4,"name":"Ann","seed":"12a"}`, game.CreateRequest{}, "bad_options"},
		{"seed too big", `{"seats":4,"name":"Ann","seed":"18446744073709551616"}`, game.CreateRequest{}, "bad_options"},
		{"negative seed", `{"seats":4,"name":"Ann","seed":"-1"}`, game.CreateRequest{}, "bad_options"},
		{"unknown field", `{"seats":4,"name":"Ann","colour":"red"}`, game.CreateRequest{}, "invalid"},
		{"wrong type", `{"seats":"four","name":"Ann"}`, game.CreateRequest{}, "invalid"},
		{"not json", `seats=4`, game.CreateRequest{}, "invalid"},
		{"empty", ``, game.CreateRequest{}, "invalid"},
		{"two values", `{"seats":4,"name":"Ann"} {}`, game.CreateRequest{}, "invalid"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := decodeCreate([]byte(tt.body))
			if code := codeOf(err); code != tt.code {
				t.Fatalf("decodeCreate(%s) error = %v (%q), want code %q", tt.body, err, code, tt.code)
			}
			if err == nil && !reflect.DeepEqual(got, tt.want) {
				t.Errorf("decodeCreate(%s) = %+v, want %+v", tt.body, got, tt.want)
			}
		})
	}
}

func TestDecodeAction(t *testing.T) {
	cards := func(codes ...string) []engine.Card {
		var cs []engine.Card
		for _, c := range codes {
			card, err := engine.ParseCard(c)
			if err != nil {
				t.Fatal(err)
			}
			cs = append(cs, card)
		}
		return cs
	}
	tests := []struct {
		name string
		kind engine.ActionKind
		body string
		want engine.Action
		code string
	}{
		{"play", engine.ActPlay, `{"no":0,"cards":["AS","10h","kc2"]}`,
			engine.Action{Kind: engine.ActPlay, No: 0, Cards: cards("AS", "TH", "KC2")}, ""},
		{"play with a sneak", engine.ActPlay, `{"no":7,"cards":["2S","2H","9D"],"claim":2}`,
			engine.Action{Kind: engine.ActPlay, No: 7, Cards: cards("2S", "2H", "9D"), Claim: 2}, ""},
		{"call", engine.ActCall, `{"no":3}`, engine.Action{Kind: engine.ActCall, No: 3}, ""},
		{"pass", engine.ActPass, `{"no":3}`, engine.Action{Kind: engine.ActPass, No: 3}, ""},
		{"give", engine.ActGive, `{"no":5,"cards":["QD"]}`, engine.Action{Kind: engine.ActGive, No: 5, Cards: cards("QD")}, ""},
		{"no no", engine.ActCall, `{}`, engine.Action{}, "invalid"},
		{"negative no", engine.ActPass, `{"no":-1}`, engine.Action{}, "invalid"},
		{"play without cards", engine.ActPlay, `{"no":0}`, engine.Action{}, "invalid"},
		{"play with an empty list", engine.ActPlay, `{"no":0,"cards":[]}`, engine.Action{}, "invalid"},
		{"no such card", engine.ActPlay, `{"no":0,"cards":["ZZ"]}`, engine.Action{}, "invalid"},
		{"negative claim", engine.ActPlay, `{"no":0,"cards":["AS"],"claim":-1}`, engine.Action{}, "invalid"},
		{"call with cards", engine.ActCall, `{"no":1,"cards":["AS"]}`, engine.Action{}, "invalid"},
		{"give with a claim", engine.ActGive, `{"no":1,"cards":["AS"],"claim":1}`, engine.Action{}, "invalid"},
		{"seat in the body", engine.ActPass, `{"no":1,"seat":2}`, engine.Action{}, "invalid"},
		{"no as text", engine.ActPass, `{"no":"1"}`, engine.Action{}, "invalid"},
		{"array", engine.ActPass, `[1]`, engine.Action{}, "invalid"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := decodeAction(tt.kind, []byte(tt.body))
			if code := codeOf(err); code != tt.code {
				t.Fatalf("decodeAction(%s, %s) error = %v (%q), want code %q", tt.kind, tt.body, err, code, tt.code)
			}
			if err == nil && !reflect.DeepEqual(got, tt.want) {
				t.Errorf("decodeAction(%s, %s) = %+v, want %+v", tt.kind, tt.body, got, tt.want)
			}
		})
	}
}

func TestDecodeJoin(t *testing.T) {
	tests := []struct {
		body, want, code string
	}{
		{`{"name":"Cy"}`, "Cy", ""},
		{`{"name":"  Zoë  "}`, "  Zoë  ", ""}, // cleaned by the runtime
		{`{"name":""}`, "", ""},
		{`{"name":7}`, "", "invalid"},
		{`{}`, "", ""},
		{`{"name":"Cy","seat":2}`, "", "invalid"},
	}
	for _, tt := range tests {
		got, err := decodeJoin([]byte(tt.body))
		if code := codeOf(err); code != tt.code || got != tt.want {
			t.Errorf("decodeJoin(%s) = %q, %q; want %q, %q", tt.body, got, code, tt.want, tt.code)
		}
	}
}

// actionBody writes an action back as a client would send it.
func actionBody(a engine.Action) []byte {
	no := a.No
	b := ActionBody{No: &no, Claim: a.Claim}
	for _, c := range a.Cards {
		b.Cards = append(b.Cards, c.String())
	}
	out, _ := json.Marshal(b)
	return out
}

// fuzzAction checks a decoder never panics, refuses only with a client's
// error, and that what it accepts reads back the same once written out.
func fuzzAction(f *testing.F, kind engine.ActionKind, seeds ...string) {
	for _, s := range seeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		a, err := decodeAction(kind, body)
		if err != nil {
			var ae *httpx.Error
			if !errors.As(err, &ae) {
				t.Fatalf("decodeAction(%q) = %v, want an invalid request error", body, err)
			}
			return
		}
		if a.Kind != kind || a.No < 0 || a.Claim < 0 {
			t.Fatalf("decodeAction(%q) = %+v", body, a)
		}
		again, err := decodeAction(kind, actionBody(a))
		if err != nil || !reflect.DeepEqual(again, a) {
			t.Fatalf("decodeAction(%q) = %+v, but written out and read back: %+v, %v", body, a, again, err)
		}
	})
}

func FuzzDecodePlay(f *testing.F) {
	fuzzAction(f, engine.ActPlay, `{"no":0,"cards":["AS"]}`, `{"no":3,"cards":["2S","2H","9D2"],"claim":2}`, `{"no":1,"cards":["10h"]}`)
}

func FuzzDecodeCall(f *testing.F) {
	fuzzAction(f, engine.ActCall, `{"no":0}`, `{"no":12}`, `{"no":1,"cards":[]}`)
}

func FuzzDecodePass(f *testing.F) {
	fuzzAction(f, engine.ActPass, `{"no":4}`, `{"no":null}`)
}

func FuzzDecodeGive(f *testing.F) {
	fuzzAction(f, engine.ActGive, `{"no":5,"cards":["QD"]}`, `{"no":5,"cards":["QD","QD"]}`)
}

func FuzzDecodeCreate(f *testing.F) {
	for _, s := range []string{
		`{"seats":4,"name":"Ann"}`,
		`{"seats":10,"sneak":3,"window_seconds":4,"pace":"relaxed","away_after_seconds":600,"name":"B","bots":[{"level":"easy","style":"caller"}],"fill_bots":true}`,
		`{"seats":3,"name":"x","bots":null}`,
		`{"seats":4,"window_seconds":9999999999,"away_after_seconds":-9999999999,"name":"Ann"}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		req, err := decodeCreate(body)
		if err != nil {
			if _, _, ok := problem(err); !ok {
				t.Fatalf("decodeCreate(%q) = %v, want a client's error", body, err)
			}
			return
		}
		// Seconds become the same duration, or, too many to hold, -1 (out
		// of every range), never one wrapped around into range.
		var b CreateBody
		if err := json.Unmarshal(body, &b); err != nil {
			t.Fatalf("decodeCreate(%q) accepted what JSON can't read: %v", body, err)
		}
		for _, d := range []struct {
			secs int
			got  time.Duration
		}{{b.WindowSeconds, req.Options.Window}, {b.AwayAfterSeconds, req.AwayAfter}} {
			if d.secs != 0 && d.got != -1 && (d.got%time.Second != 0 || int(d.got/time.Second) != d.secs) {
				t.Fatalf("decodeCreate(%q): %d seconds became %v", body, d.secs, d.got)
			}
		}
	})
}

func FuzzDecodeJoin(f *testing.F) {
	for _, s := range []string{`{"name":"Cy"}`, `{"name":"  Zoë  "}`, `{"name":"a\nb"}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		name, err := decodeJoin(body)
		if err != nil {
			var ae *httpx.Error
			if !errors.As(err, &ae) {
				t.Fatalf("decodeJoin(%q) = %v, want an invalid request error", body, err)
			}
			return
		}
		if again, err := decodeJoin(mustMarshal(t, JoinBody{Name: name})); err != nil || again != name {
			t.Fatalf("decodeJoin(%q) = %q, which doesn't read back as itself: %q, %v", body, name, again, err)
		}
	})
}

func ptr[T any](v T) *T { return &v }

func mustMarshal(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
