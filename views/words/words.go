// Package words holds the few helpers the pages build their English with:
// counts of a word, plurals, a capital, lists, places and times. It is pure
// (the standard library only) so that both web and views may import it.
package words

import (
	"strconv"
	"strings"
	"time"
)

// Plural is one when n is 1, else many: Plural(n, "comes", "come").
func Plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// Count is n and a word, an s added unless n is 1: "1 play", "42 plays".
func Count(n int, word string) string {
	return strconv.Itoa(n) + " " + Plural(n, word, word+"s")
}

// Capital is s with its first letter upper case: "Bold".
func Capital(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// And lists its words with commas and an "and": "Ada, Ben and 2 bots".
func And(s []string) string {
	switch len(s) {
	case 0:
		return ""
	case 1:
		return s[0]
	}
	return strings.Join(s[:len(s)-1], ", ") + " and " + s[len(s)-1]
}

// Ordinal is a place: "1st", "2nd", "11th", "23rd".
func Ordinal(n int) string {
	suffix := "th"
	switch {
	case n%100 >= 11 && n%100 <= 13:
	case n%10 == 1:
		suffix = "st"
	case n%10 == 2:
		suffix = "nd"
	case n%10 == 3:
		suffix = "rd"
	}
	return strconv.Itoa(n) + suffix
}

// Seconds is a setting's time in seconds, exactly: "7 s", "0.5 s".
func Seconds(d time.Duration) string {
	return strconv.FormatFloat(d.Seconds(), 'f', -1, 64) + " s"
}

// Tenths is a measured time in seconds to a tenth: "1.2 s", "3 s".
func Tenths(d time.Duration) string {
	return strings.TrimSuffix(strconv.FormatFloat(d.Seconds(), 'f', 1, 64), ".0") + " s"
}
