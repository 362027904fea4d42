// Package naming holds the checks of what people and tables are called: a
// display name as the server keeps it (Clean), its comparison key, the
// refusal of a name that passes for an account's, and a game's code. It is a
// leaf (the standard library, x/text, lookalike and errcode), so live,
// players, api and web share one rule without reaching into one another.
// Its refusals are *Error values that say their code for errcode's table.
package naming

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/secure/precis"

	"bullshit/errcode"
	"bullshit/naming/lookalike"
)

// Error is a name's refusal, with a message for the person to read.
type Error struct {
	Code    errcode.Code
	Message string
}

func (e *Error) Error() string { return e.Message }

// ErrorCode is the refusal's code, for errcode's table.
func (e *Error) ErrorCode() errcode.Code { return e.Code }

func invalid(format string, args ...any) *Error {
	return &Error{Code: errcode.Invalid, Message: fmt.Sprintf(format, args...)}
}

// Max is the longest display name, in characters.
const Max = 32

// maxMarks is the most combining marks a name may stack on one character:
// enough for the scripts that stack vowel signs and tones, too few for
// marks to spill over the lines around the name.
const maxMarks = 4

// brailleBlank is a symbol that shows as nothing, so it could make a name
// look blank or like another's.
const brailleBlank = '\u2800'

// Clean is a display name as the server keeps it, or the refusal a
// person can read. It is the one rule for every name the server stores: the
// PRECIS Nickname profile (RFC 8266: spaces mapped to one ASCII space and
// trimmed, NFKC, so NFC too), then only what shows as one line of visible
// text. Invisible and format characters (zero-width spaces, byte-order
// marks, direction overrides and isolates, fillers), control characters and
// line or paragraph separators are refused rather than stripped, so the
// person learns what was wrong instead of getting another name than the one
// they think they typed. The one exception is variation selectors, which
// phones add to emoji (as in "❤️"): they only pick how a symbol is drawn,
// and are dropped.
//
// A name must also not pass for another's (UTS #39, see lookalike): it may
// not use the letters Unicode keeps for technical or historic writing (the
// small capital "ᴀ" passes for "A"), nor mix scripts beyond the Moderately
// Restrictive level (a Cyrillic "А" among Latin letters). A name whose
// look-alike key is an account's is refused where names meet accounts: at
// sign-up, and for a guest's seat (live's Manager.Join and Create).
func Clean(name string) (string, error) {
	clean, err := Visible(name)
	if err != nil {
		return "", err
	}
	for _, r := range clean {
		if lookalike.Uncommon(r) {
			return "", invalid("A name can't use %q (U+%04X): it's a letter for technical or historic writing, and can pass for a common one.", r, r)
		}
	}
	if a, b := lookalike.Mixed(clean); a != "" {
		return "", invalid("A name can't mix %s and %s letters: that is how one name is made to look like another. Keep to one script, or Latin and one other.",
			strings.ReplaceAll(a, "_", " "), strings.ReplaceAll(b, "_", " "))
	}
	return clean, nil
}

// LooksLike is the refusal of a name that looks like the name of the
// account other (their look-alike keys are the same, lookalike.Key), for a
// new account and for a guest's seat alike.
func LooksLike(name, other string) error {
	if strings.EqualFold(name, other) {
		return &Error{Code: errcode.Conflict, Message: fmt.Sprintf("The name %q is an account's: sign in to play as it, or choose another.", name)}
	}
	return &Error{Code: errcode.Conflict, Message: fmt.Sprintf("The name %q looks too much like %q, an account's: choose another.", name, other)}
}

// Key is a name's comparison form, which accounts are unique by: two
// names with the same key are the same (case, width and Unicode
// normalisation aside: "Ann", "ANN" and "Ａｎｎ").
func Key(name string) (string, error) { return precis.Nickname.CompareKey(name) }

// Visible is Clean's check of the text itself: what every stored
// name already is, and so what a name searched for must be.
func Visible(name string) (string, error) {
	if !utf8.ValidString(name) {
		return "", invalid("A name must be text (UTF-8).")
	}
	name = strings.Map(func(r rune) rune {
		if unicode.Is(unicode.Variation_Selector, r) {
			return -1
		}
		return r
	}, name)
	if r, ok := hidden(name); ok {
		return "", invalid("A name is one line of text that can be seen: it can't hold the invisible or control character U+%04X.", r)
	}
	if strings.TrimSpace(name) == "" {
		return "", invalid("Enter a name.")
	}
	clean, err := precis.Nickname.String(name)
	if err != nil {
		return "", invalid("A name can't hold some of these characters: use letters, digits, punctuation, symbols and spaces.")
	}
	if utf8.RuneCountInString(clean) > Max {
		return "", invalid("A name is %d characters at most.", Max)
	}
	marks := 0
	for i, r := range clean {
		if !unicode.Is(unicode.M, r) {
			marks = 0
			continue
		}
		if i == 0 {
			return "", invalid("A name can't start with an accent or another mark on its own.")
		}
		if marks++; marks > maxMarks {
			return "", invalid("A name can't stack more than %d marks on one character.", maxMarks)
		}
	}
	return clean, nil
}

// hidden finds the first character of s that doesn't show as visible text on
// one line: control and format characters (the direction marks and
// overrides among them), line and paragraph separators, private-use,
// surrogate and unassigned code points, and the default-ignorable ones.
func hidden(s string) (rune, bool) {
	for _, r := range s {
		switch {
		case r == ' ':
		case r == brailleBlank,
			unicode.In(r, unicode.Cc, unicode.Cf, unicode.Co, unicode.Cs, unicode.Zl, unicode.Zp),
			unicode.Is(unicode.Other_Default_Ignorable_Code_Point, r),
			!unicode.In(r, unicode.L, unicode.M, unicode.N, unicode.P, unicode.S, unicode.Z):
			return r, true
		}
	}
	return 0, false
}
