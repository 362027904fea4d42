// Package lookalike tells names that look alike apart from names that only
// differ, by Unicode's security mechanisms (UTS #39): a name's skeleton
// (section 4), what it looks like whatever characters it is written in;
// whether it mixes scripts beyond the Moderately Restrictive level
// (section 5.2); and the letters Unicode keeps for special writing. Its tables are
// generated from Unicode's own data files (see gen and ucd/).
package lookalike

//go:generate go run ./gen -data ucd -o tables.go

import (
	"slices"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/cases"
	"golang.org/x/text/unicode/norm"
)

// Version is the Unicode version of the tables.
const Version = unicodeVersion

// Skeleton is UTS #39's skeleton of s: NFD, each character replaced by its
// prototype, NFD again. Two strings with the same skeleton look alike.
func Skeleton(s string) string {
	var b strings.Builder
	for _, r := range norm.NFD.String(s) {
		if p, ok := prototypes[r]; ok {
			b.WriteString(p)
		} else {
			b.WriteRune(r)
		}
	}
	return norm.NFD.String(b.String())
}

// Key is a name's look-alike key: two names with the same key look alike,
// whatever the case. It is the skeleton of the case-folded skeleton: the
// first skeleton maps what only looks like a letter to it while case still
// tells them apart (a capital I is a small l's look-alike, "AIice" is
// "Alice"), the fold drops case as the names' comparison does, and the
// second maps what folding brought in.
//
// Before that, a few letters are read as what they look like where Unicode's
// prototypes miss it (readAs): UTS #39 alone let a name written wholly in
// Cyrillic or Greek pass for an account's ("Аӏісе" for "Alice", "Βοβ" for
// "Bob").
func Key(name string) string {
	return Skeleton(cases.Fold().String(Skeleton(readAsString(name))))
}

// readAs maps a letter to the Latin letter it is read as, where its
// prototype says otherwise or nothing:
//
//   - the Cyrillic palochka, small ӏ: confusables.txt gives it "i", but it
//     is a bare stroke drawn as l (its capital Ӏ, already "l"); the dotted
//     і and the Greek ι keep "i", as folding i with l would make "Kai" and
//     "Kal" one name;
//   - a small Greek or Cyrillic letter that passes for no Latin letter of
//     its own is read as the Latin letter its capital passes for: β as b
//     (Β is B), в, м, н, т (drawn as small capitals) as b, m, h, t. A name
//     is one account whatever its case, and "Βοβ" is "ΒΟΒ", which is "BOB".
//     Letters that pass for a Latin letter of their own (ο, ρ, ν, а, с, у)
//     keep it.
var readAs = capitalReadings(map[rune]rune{'ӏ': 'l'}, unicode.Greek, unicode.Cyrillic)

// capitalReadings adds to m the small letters of the scripts that are read
// as their capitals (see readAs).
func capitalReadings(m map[rune]rune, scripts ...*unicode.RangeTable) map[rune]rune {
	latin := func(s string) (rune, bool) {
		if len(s) == 1 && unicode.IsLetter(rune(s[0])) && s[0] < utf8.RuneSelf {
			return rune(s[0]), true
		}
		return 0, false
	}
	add := func(r rune) {
		if _, done := m[r]; done || !unicode.IsLower(r) {
			return
		}
		if _, ok := latin(Skeleton(string(r))); ok {
			return
		}
		if c, ok := latin(Skeleton(string(unicode.ToUpper(r)))); ok && unicode.IsUpper(c) {
			m[r] = unicode.ToLower(c)
		}
	}
	for _, table := range scripts {
		for _, rr := range table.R16 {
			addRange(rune(rr.Lo), rune(rr.Hi), rune(rr.Stride), add)
		}
		for _, rr := range table.R32 {
			addRange(rune(rr.Lo), rune(rr.Hi), rune(rr.Stride), add)
		}
	}
	return m
}

// addRange calls add for every rune of a range table's entry.
func addRange(lo, hi, stride rune, add func(rune)) {
	for r := lo; r <= hi; r += stride {
		add(r)
	}
}

// readAsString is s, decomposed, with readAs applied.
func readAsString(s string) string {
	return strings.Map(func(r rune) rune {
		if to, ok := readAs[r]; ok {
			return to
		}
		return r
	}, norm.NFD.String(s))
}

// Uncommon reports whether r is a letter or mark Unicode keeps out of
// identifiers as technical, obsolete, uncommon, excluded or deprecated
// (IdentifierType.txt): small capitals, phonetic letters, historic scripts,
// many of which pass for common letters ("ᴀ" for "A").
func Uncommon(r rune) bool {
	if !unicode.In(r, unicode.L, unicode.M) {
		return false
	}
	i := sort.Search(len(uncommon), func(i int) bool { return uncommon[i][1] >= r })
	return i < len(uncommon) && uncommon[i][0] <= r
}

// The scripts that UTS #39 adds to a character's for its resolved script
// set: the writing systems that mix Han with another script.
const (
	hanWithBopomofo = "Han_with_Bopomofo"
	japanese        = "Japanese"
	korean          = "Korean"
)

// extension is a range of characters used with these scripts.
type extension struct {
	lo, hi  rune
	scripts []string
}

// scripts is r's augmented script set (UTS #39 5.1): the scripts it is used
// with, with Han, Hiragana, Katakana, Hangul and Bopomofo each adding the
// writing systems they are part of; nil for a character of every script
// (Common and Inherited: digits, punctuation, symbols, marks).
func scripts(r rune) []string {
	var set []string
	i := sort.Search(len(extensions), func(i int) bool { return extensions[i].hi >= r })
	if i < len(extensions) && extensions[i].lo <= r {
		set = slices.Clone(extensions[i].scripts)
	} else {
		for name, table := range unicode.Scripts {
			if unicode.Is(table, r) {
				set = []string{name}
				break
			}
		}
	}
	if len(set) == 0 || slices.Contains(set, "Common") || slices.Contains(set, "Inherited") {
		return nil
	}
	for _, s := range slices.Clone(set) {
		switch s {
		case "Han":
			set = append(set, hanWithBopomofo, japanese, korean)
		case "Hiragana", "Katakana":
			set = append(set, japanese)
		case "Hangul":
			set = append(set, korean)
		case "Bopomofo":
			set = append(set, hanWithBopomofo)
		}
	}
	return set
}

// resolved is the scripts every character of s is used with (UTS #39 5.1),
// leaving out the characters of every script, and with skip those used with
// it; all is true when no character was counted.
func resolved(s, skip string) (set []string, all bool) {
	all = true
	for _, r := range s {
		sc := scripts(r)
		if sc == nil || (skip != "" && slices.Contains(sc, skip)) {
			continue
		}
		if all {
			set, all = sc, false
			continue
		}
		set = slices.DeleteFunc(slices.Clone(set), func(x string) bool { return !slices.Contains(sc, x) })
	}
	return set, all
}

// passForLatin are the scripts a name may not mix with Latin even at the
// Moderately Restrictive level: many of their letters pass for Latin ones.
var passForLatin = []string{"Cyrillic", "Greek", "Cherokee"}

// Restrictive reports whether s keeps to UTS #39's Moderately Restrictive
// level of script mixing: one script (digits, punctuation and symbols, used
// with every script, aside); or Latin with Han and Japanese kana, with Han
// and Bopomofo, or with Han and Hangul (the Highly Restrictive level); or
// Latin with any one other script but Cyrillic, Greek and Cherokee. "Ann
// שלום" does; "Аlice", with a Cyrillic А among Latin letters, doesn't.
func Restrictive(s string) bool {
	if set, all := resolved(s, ""); all || len(set) > 0 {
		return true
	}
	set, all := resolved(s, "Latin")
	switch {
	case all || slices.ContainsFunc(set, func(x string) bool { return x == japanese || x == hanWithBopomofo || x == korean }):
		return true
	case len(set) == 1:
		return !slices.Contains(passForLatin, set[0])
	}
	return false
}

// Mixed names two scripts s mixes beyond Restrictive, "" and "" when it
// doesn't: two scripts besides Latin that share no letter, or else Latin
// and the one of Cyrillic, Greek and Cherokee it is mixed with.
func Mixed(s string) (a, b string) {
	if Restrictive(s) {
		return "", ""
	}
	var common []string
	for _, r := range s {
		sc := scripts(r)
		if sc == nil || slices.Contains(sc, "Latin") {
			continue
		}
		if common == nil {
			common = sc
			continue
		}
		both := slices.DeleteFunc(slices.Clone(common), func(x string) bool { return !slices.Contains(sc, x) })
		if len(both) == 0 {
			return common[0], sc[0]
		}
		common = both
	}
	return "Latin", common[0]
}
