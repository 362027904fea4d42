package live

import (
	"strings"
	"testing"
)

func TestValidID(t *testing.T) {
	for range 1000 {
		id, err := newID()
		if err != nil {
			t.Fatal(err)
		}
		if !ValidID(id) {
			t.Fatalf("got ValidID(%q) false for a code newID made, want true", id)
		}
	}
	for _, id := range []string{"", "abcdefg", "abcdefghi", "abcdefg\x00", "\x00", "abcdefg1", "abcdefg8", "ABCDEFGH", "abcdefg-", "abcdefé", strings.Repeat("a", 1000)} {
		if ValidID(id) {
			t.Errorf("got ValidID(%q) true, want false", id)
		}
	}
}
