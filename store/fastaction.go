package store

import (
	"strconv"
	"strings"
	"time"

	"bullshit/engine"
)

// encodeActionFast writes what json.Marshal writes of a's actionRecord,
// kind being its stored word: the words and card codes are plain ASCII
// letters and digits, which JSON needs no escape for. Every append encodes
// its actions, inside the one writer's batch on SQLite.
func encodeActionFast(kind string, a engine.Action) string {
	b := make([]byte, 0, 64+5*len(a.Cards))
	b = append(b, `{"kind":"`...)
	b = append(b, kind...)
	b = append(b, `","seat":`...)
	b = strconv.AppendInt(b, int64(a.Seat), 10)
	b = append(b, `,"no":`...)
	b = strconv.AppendInt(b, int64(a.No), 10)
	if len(a.Cards) > 0 {
		b = append(b, `,"cards":[`...)
		for i, c := range a.Cards {
			if i > 0 {
				b = append(b, ',')
			}
			// cardCode's code, without its string.
			b = append(b, '"', rankCodes[c.Rank()], suitCodes[c.Suit()])
			if c.Deck() > 0 {
				b = append(b, '2')
			}
			b = append(b, '"')
		}
		b = append(b, ']')
	}
	if a.Claim != 0 {
		b = append(b, `,"claim":`...)
		b = strconv.AppendInt(b, int64(a.Claim), 10)
	}
	if !a.Since.IsZero() {
		if ns := a.Since.UnixNano(); ns != 0 {
			b = append(b, `,"since_ns":`...)
			b = strconv.AppendInt(b, ns, 10)
		}
	}
	b = append(b, '}')
	return string(b)
}

// decodeActionFast reads an action column written by encodeAction, whose
// form is fixed (json.Marshal of actionRecord: the fields in order, no
// spaces, no escapes), several times faster than encoding/json: a restart
// decodes every action of every game being played. ok is false for
// anything else, which decodeAction then reads the slow way, so the result
// is always what encoding/json would give.
func decodeActionFast(s string) (a engine.Action, ok bool) {
	p := cursor{s: s}
	if !p.lit(`{"kind":"`) {
		return a, false
	}
	word, ok := p.word()
	if !ok {
		return a, false
	}
	kind, ok := lookup(actionWords, word)
	if !ok || !p.lit(`,"seat":`) {
		return a, false
	}
	a.Kind = kind
	if a.Seat, ok = p.int(); !ok || !p.lit(`,"no":`) {
		return a, false
	}
	if a.No, ok = p.int(); !ok {
		return a, false
	}
	if p.lit(`,"cards":[`) {
		for i := 0; !p.lit("]"); i++ {
			if i > 0 && !p.lit(",") {
				return a, false
			}
			if !p.lit(`"`) {
				return a, false
			}
			code, ok := p.word()
			if !ok {
				return a, false
			}
			c, err := parseCardCode(code)
			if err != nil {
				return a, false
			}
			a.Cards = append(a.Cards, c)
		}
	}
	if p.lit(`,"claim":`) {
		if a.Claim, ok = p.int(); !ok {
			return a, false
		}
	}
	if p.lit(`,"since_ns":`) {
		ns, ok := p.int()
		if !ok {
			return a, false
		}
		if ns != 0 {
			a.Since = time.Unix(0, int64(ns)).UTC()
		}
	}
	return a, p.lit("}") && p.s == ""
}

// cursor reads a string from the front.
type cursor struct{ s string }

// lit skips prefix if the rest starts with it.
func (p *cursor) lit(prefix string) bool {
	if !strings.HasPrefix(p.s, prefix) {
		return false
	}
	p.s = p.s[len(prefix):]
	return true
}

// word reads up to and past the closing quote of a string with no escapes.
func (p *cursor) word() (string, bool) {
	i := strings.IndexByte(p.s, '"')
	if i < 0 || strings.IndexByte(p.s[:i], '\\') >= 0 {
		return "", false
	}
	w := p.s[:i]
	p.s = p.s[i+1:]
	return w, true
}

// int reads an integer as json.Marshal writes one, an optional minus and
// digits without a leading zero, that fits in an int64.
func (p *cursor) int() (int, bool) {
	neg := p.lit("-")
	var n uint64
	i := 0
	for ; i < len(p.s) && p.s[i] >= '0' && p.s[i] <= '9'; i++ {
		n = n*10 + uint64(p.s[i]-'0')
	}
	// 19 digits cannot overflow a uint64; the int64 bounds are checked.
	if i == 0 || i > 19 || (i > 1 && p.s[0] == '0') || n > 1<<63 || (!neg && n == 1<<63) {
		return 0, false
	}
	p.s = p.s[i:]
	if neg {
		return int(-int64(n)), true
	}
	return int(n), true
}
