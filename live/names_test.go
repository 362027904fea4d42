package live

import (
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"

	"bullshit/engine"
	"bullshit/live/lookalike"
	"bullshit/store"
)

func TestCleanName(t *testing.T) {
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
		{"32 characters", strings.Repeat("é", MaxName), strings.Repeat("é", MaxName)},
		{"Cyrillic", "Ольга", "Ольга"},
		{"Latin and Han", "李 Lee", "李 Lee"},
		{"Han and kana", "田中さん", "田中さん"},
		{"Latin and Devanagari", "Priya प्रिया", "Priya प्रिया"},

		{"empty", "", ""},
		{"spaces", "   ", ""},
		{"33 characters", strings.Repeat("a", MaxName+1), ""},
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
			got, err := CleanName(tt.in)
			if tt.want == "" {
				if got := codeOf(err); got != string(CodeInvalid) {
					t.Errorf("CleanName(%q) = %q, %v; want it refused as invalid", tt.in, got, err)
				}
				return
			}
			if err != nil || got != tt.want {
				t.Errorf("CleanName(%q) = %q, %v; want %q", tt.in, got, err, tt.want)
			}
		})
	}
}

// TestNamesAreCleanEverywhere checks the one rule holds for the host's name
// and for a name joining.
func TestNamesAreCleanEverywhere(t *testing.T) {
	f := newFixture(t)
	if _, err := f.m.Create(f.ctx, CreateRequest{Options: engine.Standard(4), HostName: "Ann\u200b"}); codeOf(err) != string(CodeInvalid) {
		t.Errorf("creating as %q: got %v, want invalid", "Ann\u200b", err)
	}
	j, err := f.m.Create(f.ctx, CreateRequest{Options: engine.Standard(4), HostName: " Ａnn "})
	if err != nil {
		t.Fatal(err)
	}
	if got := j.Game.Seats[0].Name; got != "Ann" {
		t.Errorf("got the host's name %q, want %q", got, "Ann")
	}
	if _, err := f.m.Join(f.ctx, j.Game.ID, "Bo\u202e", 0); codeOf(err) != string(CodeInvalid) {
		t.Errorf("joining as %q: got %v, want invalid", "Bo\u202e", err)
	}
	b, err := f.m.Join(f.ctx, j.Game.ID, "Zoe\u0308 ", 0)
	if err != nil {
		t.Fatal(err)
	}
	if got := b.Game.Seats[1].Name; got != "Zoë" {
		t.Errorf("got the joiner's name %q, want %q", got, "Zoë")
	}
}

// FuzzCleanName checks that whatever CleanName accepts is one line of
// visible text of 1 to MaxName characters, in NFC, trimmed, and accepted
// again unchanged; and that it refuses only as invalid.
func FuzzCleanName(f *testing.F) {
	for _, s := range []string{"Ann", "  Zoë ", "Ann\u200b", "\u202eAnn", "a\u2028b", "\ufeff", "❤️", "👨\u200d👩\u200d👧",
		"Ａｎｎ", "x²", "a\u0301\u0301", "\u3164", "a\nb", "שלום abc", "\xff", "Аlice", "ᴀlice", "田中さん", "a\x00b"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		// The search's check is CleanName's less the look-alike rules: it
		// takes all CleanName takes, the same.
		searched, serr := visibleName(in)
		out, err := CleanName(in)
		if err != nil {
			if codeOf(err) != string(CodeInvalid) {
				t.Fatalf("CleanName(%q) = %v, want an invalid name's refusal", in, err)
			}
			if serr != nil && codeOf(serr) != string(CodeInvalid) {
				t.Fatalf("visibleName(%q) = %v, want an invalid name's refusal", in, serr)
			}
			return
		}
		if serr != nil || searched != out {
			t.Fatalf("CleanName(%q) = %q, but visibleName: %q, %v", in, out, searched, serr)
		}
		n := utf8.RuneCountInString(out)
		if !utf8.ValidString(out) || n < 1 || n > MaxName || !norm.NFC.IsNormalString(out) || strings.TrimSpace(out) != out {
			t.Fatalf("CleanName(%q) = %q (%d characters)", in, out, n)
		}
		for _, r := range out {
			if r != ' ' && (unicode.In(r, unicode.C, unicode.Z) || unicode.Is(unicode.Other_Default_Ignorable_Code_Point, r) ||
				unicode.Is(unicode.Variation_Selector, r)) {
				t.Fatalf("CleanName(%q) = %q, which holds U+%04X", in, out, r)
			}
		}
		if !lookalike.Restrictive(out) || strings.ContainsFunc(out, lookalike.Uncommon) {
			t.Fatalf("CleanName(%q) = %q, which mixes scripts or holds an uncommon letter", in, out)
		}
		if again, err := CleanName(out); err != nil || again != out {
			t.Fatalf("CleanName(%q) = %q, but again: %q, %v", in, out, again, err)
		}
	})
}

// TestGuestCantTakeAnAccountsName: with an account named Alice, a guest
// can't open or join a table as Alice or as a name that looks like it; the
// account itself can, and a guest's other name can.
func TestGuestCantTakeAnAccountsName(t *testing.T) {
	f := newFixture(t)
	alice := &store.Account{Name: "Alice", NameKey: "alice", Lookalike: lookalike.Key("Alice"), PasswordHash: "h", CreatedAt: epoch}
	if err := f.st.CreateAccount(f.ctx, alice); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"Alice", "alice", "AIice", "A1ice"} {
		if _, err := f.m.Create(f.ctx, CreateRequest{Options: engine.Standard(4), HostName: name}); codeOf(err) != string(CodeConflict) {
			t.Errorf("a guest opening a table as %q: got %v, want conflict", name, err)
		}
	}
	j, err := f.m.Create(f.ctx, CreateRequest{Options: engine.Standard(4), HostName: "Alice", HostPlayer: alice.ID})
	if err != nil {
		t.Fatalf("Alice's account opening a table: %v", err)
	}
	for _, name := range []string{"ALICE", "AIice"} {
		if _, err := f.m.Join(f.ctx, j.Game.ID, name, 0); codeOf(err) != string(CodeConflict) || !strings.Contains(err.Error(), "an account's") {
			t.Errorf("a guest joining as %q: got %v, want conflict saying it is an account's", name, err)
		}
	}
	if _, err := f.m.Join(f.ctx, j.Game.ID, "Alicia", 0); err != nil {
		t.Errorf("a guest joining as Alicia: %v", err)
	}
}
