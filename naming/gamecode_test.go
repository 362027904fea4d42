package naming

import (
	"strings"
	"testing"
)

func TestValidGameID(t *testing.T) {
	for range 1000 {
		id, err := NewGameID()
		if err != nil {
			t.Fatal(err)
		}
		if !ValidGameID(id) {
			t.Fatalf("got ValidGameID(%q) false for a code NewGameID made, want true", id)
		}
	}
	for _, id := range []string{"", "abcdefg", "abcdefghi", "abcdefg\x00", "\x00", "abcdefg1", "abcdefg8", "ABCDEFGH", "abcdefg-", "abcdefé", strings.Repeat("a", 1000)} {
		if ValidGameID(id) {
			t.Errorf("got ValidGameID(%q) true, want false", id)
		}
	}
}
