package lookalike

import (
	"testing"
	"unicode"
)

// TestKey: names that look alike, whatever the case, share a key; names
// that only look different don't.
func TestKey(t *testing.T) {
	tests := []struct {
		a, b string
		same bool
	}{
		// The look-alikes of Alice and Bob.
		{"Аlice", "Alice", true}, // Cyrillic А
		{"Alіce", "Alice", true}, // Cyrillic і
		{"Bοb", "Bob", true},     // Greek ο
		{"Bоb", "Bob", true},     // Cyrillic о
		{"АLІСЕ", "alice", false},
		{"AIice", "Alice", true}, // a capital I for the l
		{"A1ice", "alice", true},
		{"B0b", "bob", true},
		{"rnike", "mike", true},
		{"Ａｌｉｃｅ", "alice", true},
		{"ALICE", "alice", false}, // the same account by name, not by look
		{"Alice", "Alicia", false},
		{"Zoë", "Zoe", false},
		{"Bob", "Rob", false},
		// Whole-script look-alikes: a Cyrillic palochka drawn as l, and
		// small letters read as their capitals (Βοβ is ΒΟΒ, BOB).
		{"Аӏісе", "Alice", true},
		{"АӀІСЕ", "alice", false},
		{"Βοβ", "Bob", true},
		{"Вов", "Bob", true},
		{"Тот", "Tot", true},
		{"Ann", "Anna", false},
		{"Kai", "Kal", false}, // a dotted i isn't an l
		{"Eli", "Ell", false},
		{"Вова", "Bob", false},
		{"Ольга", "Olga", false},
	}
	for _, tt := range tests {
		if same := Key(tt.a) == Key(tt.b); same != tt.same {
			t.Errorf("Key(%q) == Key(%q): got %v, want %v (%+q, %+q)", tt.a, tt.b, same, tt.same, Key(tt.a), Key(tt.b))
		}
	}
}

func TestRestrictive(t *testing.T) {
	tests := []struct {
		name   string
		ok     bool
		mixing [2]string
	}{
		{"Alice", true, [2]string{}},
		{"Zoë 😀 #1", true, [2]string{}},
		{"Ольга", true, [2]string{}},
		{"Σοφία", true, [2]string{}},
		{"田中さん", true, [2]string{}},
		{"李 Lee", true, [2]string{}},
		{"서울 Seoul", true, [2]string{}},
		{"ひらがなカタカナ漢字 ok", true, [2]string{}},
		{"שלום", true, [2]string{}},
		{"٣ علي", true, [2]string{}},
		{"123", true, [2]string{}},
		{"Ann שלום", true, [2]string{}},
		{"Priya प्रिया", true, [2]string{}},
		{"Аlice", false, [2]string{"Latin", "Cyrillic"}},
		{"Alіce", false, [2]string{"Latin", "Cyrillic"}},
		{"Bοb", false, [2]string{"Latin", "Greek"}},
		{"Ana Паша", false, [2]string{"Latin", "Cyrillic"}},
		{"ᎠᎡ Cherokee", false, [2]string{"Latin", "Cherokee"}},
		{"서울 さん", false, [2]string{"Hangul", "Hiragana"}},
		{"Ann שלום علي", false, [2]string{"Hebrew", "Arabic"}},
		{"Ольга Σοφία", false, [2]string{"Cyrillic", "Greek"}},
	}
	for _, tt := range tests {
		if got := Restrictive(tt.name); got != tt.ok {
			t.Errorf("Restrictive(%q): got %v, want %v", tt.name, got, tt.ok)
		}
		if a, b := Mixed(tt.name); a != tt.mixing[0] || b != tt.mixing[1] {
			t.Errorf("Mixed(%q): got %q and %q, want %q and %q", tt.name, a, b, tt.mixing[0], tt.mixing[1])
		}
	}
}

func TestUncommon(t *testing.T) {
	for _, r := range []rune{'ᴀ', 'ɑ', 'ɡ', 'ʔ', 'ǀ', 'ŉ'} {
		if !Uncommon(r) {
			t.Errorf("Uncommon(%q U+%04X): got false, want true", r, r)
		}
	}
	for _, r := range []rune{'a', 'é', 'ß', 'ı', 'ʻ', 'а', 'α', 'א', 'ا', 'क', '中', 'あ', '가', 'Ꭰ', '𞤀', '1', '-', '😀', ' '} {
		if Uncommon(r) {
			t.Errorf("Uncommon(%q U+%04X): got true, want false", r, r)
		}
	}
}

// TestTablesMatchGo: the tables are of the Unicode version Go's own tables
// are, which every other rule for names uses.
func TestTablesMatchGo(t *testing.T) {
	if Version != unicode.Version {
		t.Errorf("the tables are Unicode %s, Go's %s: regenerate them from that version's files (see gen)", Version, unicode.Version)
	}
}

// TestReadAs: the letters read otherwise than their prototypes say, and
// some that keep their own.
func TestReadAs(t *testing.T) {
	for r, want := range map[rune]rune{'ӏ': 'l', 'β': 'b', 'в': 'b', 'м': 'm', 'н': 'h', 'т': 't', 'к': 'k'} {
		if got, ok := readAs[r]; !ok || got != want {
			t.Errorf("readAs[%q U+%04X]: got %q (%v), want %q", r, r, got, ok, want)
		}
	}
	for _, r := range []rune{'ι', 'і', 'ı', 'ο', 'ν', 'ρ', 'а', 'о', 'с', 'у', 'Β', 'В', 'Ӏ'} {
		if got, ok := readAs[r]; ok {
			t.Errorf("readAs[%q U+%04X]: got %q, want none", r, r, got)
		}
	}
}
