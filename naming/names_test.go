package naming

import (
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"

	"bullshit/errcode"
	"bullshit/naming/lookalike"
)

func TestClean(t *testing.T) {
	tests := []struct {
		name, in, want string // want "" when refused
	}{
		{"plain", "Ann", "Ann"},
		{"trimmed", "  Zoë  ", "Zoë"},
		{"inner spaces collapsed", "Ann   Lee", "Ann Lee"},
		{"composed (NFC)", "Zoe\u0308", "Zoë"},
		{"a no-break space is a space", "Ann\u00a0Lee", "Ann Lee"},
		{"full-width letters", "Ａｎｎ", "Ann"},
		{"right to left", "שלום", "שלום"},
		{"both directions", "Ann שלום", "Ann שלום"},
		{"emoji", "Ann 😀", "Ann 😀"},
		{"an emoji's variation selector is dropped", "Ann ❤️", "Ann ❤"},
		{"flag", "🇬🇧", "🇬🇧"},
		{"skin tone", "👍🏽", "👍🏽"},
		{"a few marks", "Nguyê\u0303n", "Nguyễn"},
		{"32 characters", strings.Repeat("é", Max), strings.Repeat("é", Max)},
		{"Cyrillic", "Ольга", "Ольга"},
		{"Latin and Han", "李 Lee", "李 Lee"},
		{"Han and kana", "田中さん", "田中さん"},
		{"Latin and Devanagari", "Priya प्रिया", "Priya प्रिया"},

		{"empty", "", ""},
		{"spaces", "   ", ""},
		{"33 characters", strings.Repeat("a", Max+1), ""},
		{"zero-width space", "Ann\u200b", ""},
		{"only zero-width spaces", "\u200b\u200b", ""},
		{"zero-width joiner", "A\u200dnn", ""},
		{"right-to-left override", "Ann\u202enaJ", ""},
		{"left-to-right isolate", "\u2066Ann", ""},
		{"right-to-left mark", "Ann\u200f", ""},
		{"line separator", "Ann\u2028Lee", ""},
		{"paragraph separator", "Ann\u2029Lee", ""},
		{"byte-order mark", "\ufeffAnn", ""},
		{"soft hyphen", "An\u00adn", ""},
		{"newline", "Ann\nLee", ""},
		{"tab", "Ann\tLee", ""},
		{"nul", "Ann\x00", ""},
		{"delete", "Ann\x7f", ""},
		{"next line", "Ann\u0085Lee", ""},
		{"Hangul filler", "\u3164", ""},
		{"braille blank", "\u2800", ""},
		{"tag character", "Ann\U000E0041", ""},
		{"private use", "\ue000", ""},
		{"unassigned", "Ann\U0003FFFF", ""},
		{"invalid UTF-8", "Ann\xff", ""},
		{"a leading mark", "\u0301Ann", ""},
		{"stacked marks", "x" + strings.Repeat("\u0301", maxMarks+1), ""},
		// The look-alikes of Alice and Bob.
		{"a Cyrillic А among Latin", "Аlice", ""},
		{"a Cyrillic і among Latin", "Alіce", ""},
		{"a Greek ο among Latin", "Bοb", ""},
		{"a Cyrillic о among Latin", "Bоb", ""},
		{"a small capital", "ᴀlice", ""},
		{"Latin and Greek", "Ana Σοφία", ""},
		{"two scripts besides Latin", "Ann שלום علي", ""},
		{"a phonetic letter", "ɑlice", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Clean(tt.in)
			if tt.want == "" {
				if code, _, _ := errcode.Of(err); code != errcode.Invalid {
					t.Errorf("Clean(%q) = %q, %v; want it refused as invalid", tt.in, got, err)
				}
				return
			}
			if err != nil || got != tt.want {
				t.Errorf("Clean(%q) = %q, %v; want %q", tt.in, got, err, tt.want)
			}
		})
	}
}

// FuzzClean checks that whatever Clean accepts is one line of
// visible text of 1 to Max characters, in NFC, trimmed, and accepted
// again unchanged; and that it refuses only as invalid.
func FuzzClean(f *testing.F) {
	for _, s := range []string{"Ann", "  Zoë ", "Ann\u200b", "\u202eAnn", "a\u2028b", "\ufeff", "❤️", "👨\u200d👩\u200d👧",
		"Ａｎｎ", "x²", "a\u0301\u0301", "\u3164", "a\nb", "שלום abc", "\xff", "Аlice", "ᴀlice", "田中さん", "a\x00b"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		// The search's check is Clean's less the look-alike rules: it
		// takes all Clean takes, the same.
		searched, serr := Visible(in)
		out, err := Clean(in)
		if err != nil {
			if code, _, _ := errcode.Of(err); code != errcode.Invalid {
				t.Fatalf("Clean(%q) = %v, want an invalid name's refusal", in, err)
			}
			if code, _, _ := errcode.Of(serr); serr != nil && code != errcode.Invalid {
				t.Fatalf("Visible(%q) = %v, want an invalid name's refusal", in, serr)
			}
			return
		}
		if serr != nil || searched != out {
			t.Fatalf("Clean(%q) = %q, but Visible: %q, %v", in, out, searched, serr)
		}
		n := utf8.RuneCountInString(out)
		if !utf8.ValidString(out) || n < 1 || n > Max || !norm.NFC.IsNormalString(out) || strings.TrimSpace(out) != out {
			t.Fatalf("Clean(%q) = %q (%d characters)", in, out, n)
		}
		for _, r := range out {
			if r != ' ' && (unicode.In(r, unicode.C, unicode.Z) || unicode.Is(unicode.Other_Default_Ignorable_Code_Point, r) ||
				unicode.Is(unicode.Variation_Selector, r)) {
				t.Fatalf("Clean(%q) = %q, which holds U+%04X", in, out, r)
			}
		}
		if !lookalike.Restrictive(out) || strings.ContainsFunc(out, lookalike.Uncommon) {
			t.Fatalf("Clean(%q) = %q, which mixes scripts or holds an uncommon letter", in, out)
		}
		if again, err := Clean(out); err != nil || again != out {
			t.Fatalf("Clean(%q) = %q, but again: %q, %v", in, out, again, err)
		}
	})
}
