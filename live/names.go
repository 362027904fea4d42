package live

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/secure/precis"

	"bullshit/live/lookalike"
	"bullshit/store"
)

// MaxName is the longest display name, in characters.
const MaxName = 32

// maxMarks is the most combining marks a name may stack on one character:
// enough for the scripts that stack vowel signs and tones, too few for
// marks to spill over the lines around the name.
const maxMarks = 4

// brailleBlank is a symbol that shows as nothing, so it could make a name
// look blank or like another's.
const brailleBlank = '\u2800'

// CleanName is a display name as the server keeps it, or the refusal a
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
// sign-up, and for a guest's seat (Manager.Join, Create).
func CleanName(name string) (string, error) {
	clean, err := visibleName(name)
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
		return refuse(CodeConflict, fmt.Sprintf("The name %q is an account's: sign in to play as it, or choose another.", name))
	}
	return refuse(CodeConflict, fmt.Sprintf("The name %q looks too much like %q, an account's: choose another.", name, other))
}

// NameKey is a name's comparison form, which accounts are unique by: two
// names with the same key are the same (case, width and Unicode
// normalisation aside: "Ann", "ANN" and "Ａｎｎ").
func NameKey(name string) (string, error) { return precis.Nickname.CompareKey(name) }

// guestName refuses a guest's name that is an account's (by NameKey) or
// looks like one (by lookalike.Key): only the account may play under it.
func (m *Manager) guestName(ctx context.Context, name string) error {
	a, err := m.st.AccountByLookalike(ctx, lookalike.Key(name))
	if errors.Is(err, store.ErrNotFound) {
		if key, kerr := NameKey(name); kerr == nil {
			a, err = m.st.AccountByName(ctx, key)
		}
	}
	switch {
	case errors.Is(err, store.ErrNotFound):
		return nil
	case err != nil:
		return m.unsaved("", err)
	}
	return LooksLike(name, a.Name)
}

// visibleName is CleanName's check of the text itself: what every stored
// name already is, and so what a name searched for must be.
func visibleName(name string) (string, error) {
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
	if utf8.RuneCountInString(clean) > MaxName {
		return "", invalid("A name is %d characters at most.", MaxName)
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
