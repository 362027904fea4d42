package store

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"bullshit/engine"
)

// The records below are how a game's options and actions are written in
// the database. The store owns them: their field names and words are fixed
// here, not taken from the API's JSON or the engine's, so neither can change
// how a stored game reads. They keep the names the first stored games were
// written with. testdata/rows pins them.

// optionsRecord is a game's options as stored (the rules version has a
// column of its own).
type optionsRecord struct {
	Seats int `json:"seats"`
	Sneak int `json:"sneak"`
	// WindowSeconds is the call window; every window allowed is whole
	// seconds.
	WindowSeconds float64       `json:"window_seconds"`
	Pace          string        `json:"pace"`
	Penalty       penaltyRecord `json:"penalty"`
	// The options added after the first games were stored: each is left
	// out at its zero value, which is how those games were played (no
	// grace, stopping at the first out, not a practice table), so their
	// rows read back unchanged.
	// GraceMillis is the grace for calls made together, in whole
	// milliseconds.
	GraceMillis int64 `json:"grace_ms,omitempty"`
	PlayOn      bool  `json:"play_on,omitempty"`
	Practice    bool  `json:"practice,omitempty"`
}

type penaltyRecord struct {
	Cards   int  `json:"cards"`
	PerCard bool `json:"per_card,omitempty"`
}

// The stored words for the bots' paces.
var paceWords = map[engine.Pace]string{
	engine.Brisk:   "brisk",
	engine.Relaxed: "relaxed",
}

// encodeOptions is the options column of a game.
func encodeOptions(o engine.Options) (string, error) {
	pace, ok := paceWords[o.Pace]
	if !ok {
		return "", fmt.Errorf("pace %q has no stored word", o.Pace)
	}
	if o.Grace%time.Millisecond != 0 {
		return "", fmt.Errorf("grace %v is not whole milliseconds", o.Grace)
	}
	b, err := json.Marshal(optionsRecord{
		Seats: o.Seats, Sneak: o.Sneak, WindowSeconds: o.Window.Seconds(), Pace: pace,
		Penalty:     penaltyRecord{Cards: o.Penalty.Cards, PerCard: o.Penalty.PerCard},
		GraceMillis: o.Grace.Milliseconds(), PlayOn: o.PlayOn, Practice: o.Practice,
	})
	return string(b), err
}

// decodeOptions reads an options column; the rules version is the game's
// rules column.
func decodeOptions(s string, rules int) (engine.Options, error) {
	var r optionsRecord
	if err := json.Unmarshal([]byte(s), &r); err != nil {
		return engine.Options{}, err
	}
	pace, ok := lookup(paceWords, r.Pace)
	if !ok {
		return engine.Options{}, fmt.Errorf("no pace %q", r.Pace)
	}
	return engine.Options{
		Seats: r.Seats, Sneak: r.Sneak, Window: time.Duration(r.WindowSeconds * float64(time.Second)), Pace: pace,
		Penalty: engine.Penalty{Cards: r.Penalty.Cards, PerCard: r.Penalty.PerCard},
		Grace:   time.Duration(r.GraceMillis) * time.Millisecond, PlayOn: r.PlayOn, Practice: r.Practice, Rules: rules,
	}, nil
}

// actionRecord is an accepted action as stored: cards by their codes.
type actionRecord struct {
	Kind  string   `json:"kind"`
	Seat  int      `json:"seat"`
	No    int      `json:"no"`
	Cards []string `json:"cards,omitempty"`
	Claim int      `json:"claim,omitempty"`
	// SinceNanos is a resume's moment the game was last known running, in
	// Unix nanoseconds, so the replay moves every clock by the exact gap.
	SinceNanos int64 `json:"since_ns,omitempty"`
}

// The stored words for the kinds of action. A new kind needs a word here
// before a game can store it.
var actionWords = map[engine.ActionKind]string{
	engine.ActPlay: "play",
	engine.ActCall: "call",
	engine.ActPass: "pass",
	engine.ActGive: "give",
	// A resume is the server's: it starts again after being down.
	engine.ActResume: "resume",
}

// encodeAction is the action column of an accepted action: json.Marshal
// of its actionRecord, written directly (encodeActionFast), as every
// action appended is.
func encodeAction(a engine.Action) (string, error) {
	kind, ok := actionWords[a.Kind]
	if !ok {
		return "", fmt.Errorf("action kind %q has no stored word", a.Kind)
	}
	return encodeActionFast(kind, a), nil
}

// encodeActionJSON is encodeAction by encoding/json, the reference
// encodeActionFast is tested against.
func encodeActionJSON(a engine.Action) (string, error) {
	kind, ok := actionWords[a.Kind]
	if !ok {
		return "", fmt.Errorf("action kind %q has no stored word", a.Kind)
	}
	r := actionRecord{Kind: kind, Seat: a.Seat, No: a.No, Claim: a.Claim}
	if !a.Since.IsZero() {
		r.SinceNanos = a.Since.UnixNano()
	}
	for _, c := range a.Cards {
		r.Cards = append(r.Cards, cardCode(c))
	}
	b, err := json.Marshal(r)
	return string(b), err
}

// decodeAction reads an action column.
func decodeAction(s string) (engine.Action, error) {
	if a, ok := decodeActionFast(s); ok {
		return a, nil
	}
	return decodeActionJSON(s)
}

// decodeActionJSON reads an action column with encoding/json: whatever
// decodeActionFast leaves, and its reference in tests.
func decodeActionJSON(s string) (engine.Action, error) {
	var r actionRecord
	if err := json.Unmarshal([]byte(s), &r); err != nil {
		return engine.Action{}, err
	}
	kind, ok := lookup(actionWords, r.Kind)
	if !ok {
		return engine.Action{}, fmt.Errorf("no action kind %q", r.Kind)
	}
	a := engine.Action{Kind: kind, Seat: r.Seat, No: r.No, Claim: r.Claim}
	if r.SinceNanos != 0 {
		a.Since = time.Unix(0, r.SinceNanos).UTC()
	}
	for _, code := range r.Cards {
		c, err := parseCardCode(code)
		if err != nil {
			return engine.Action{}, err
		}
		a.Cards = append(a.Cards, c)
	}
	return a, nil
}

// A card's stored code is its rank, its suit, and "2" for the second
// deck's copy: "AS", "TD", "KC2".
const (
	rankCodes = "A23456789TJQK"
	suitCodes = "SHDC"
)

func cardCode(c engine.Card) string {
	code := rankCodes[c.Rank():c.Rank()+1] + suitCodes[c.Suit():c.Suit()+1]
	if c.Deck() > 0 {
		code += "2"
	}
	return code
}

func parseCardCode(code string) (engine.Card, error) {
	rest, deck := code, 0
	if len(code) == 3 && code[2] == '2' {
		rest, deck = code[:2], 1
	}
	if len(rest) != 2 {
		return 0, fmt.Errorf("no card %q", code)
	}
	rank, suit := strings.IndexByte(rankCodes, rest[0]), strings.IndexByte(suitCodes, rest[1])
	if rank < 0 || suit < 0 {
		return 0, fmt.Errorf("no card %q", code)
	}
	return engine.NewCard(engine.Rank(rank), engine.Suit(suit), deck), nil
}

// lookup finds the key whose stored word is word.
func lookup[K comparable](words map[K]string, word string) (K, bool) {
	for k, w := range words {
		if w == word {
			return k, true
		}
	}
	var zero K
	return zero, false
}
