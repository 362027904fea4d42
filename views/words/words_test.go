package words

import (
	"fmt"
	"testing"
	"time"
)

func TestWords(t *testing.T) {
	tests := []struct {
		got, want string
	}{
		{Plural(1, "comes", "come"), "comes"},
		{Plural(0, "comes", "come"), "come"},
		{Plural(2, "comes", "come"), "come"},
		{Count(1, "play"), "1 play"},
		{Count(0, "card"), "0 cards"},
		{Count(42, "play"), "42 plays"},
		{Capital("bold"), "Bold"},
		{Capital(""), ""},
		{And(nil), ""},
		{And([]string{"Ada"}), "Ada"},
		{And([]string{"Ada", "Ben"}), "Ada and Ben"},
		{And([]string{"Ada", "Ben", "2 bots"}), "Ada, Ben and 2 bots"},
		{Ordinal(1), "1st"},
		{Ordinal(2), "2nd"},
		{Ordinal(3), "3rd"},
		{Ordinal(4), "4th"},
		{Ordinal(11), "11th"},
		{Ordinal(12), "12th"},
		{Ordinal(13), "13th"},
		{Ordinal(21), "21st"},
		{Ordinal(112), "112th"},
		{Seconds(7 * time.Second), "7 s"},
		{Seconds(500 * time.Millisecond), "0.5 s"},
		{Tenths(1234 * time.Millisecond), "1.2 s"},
		{Tenths(3 * time.Second), "3 s"},
	}
	for i, tt := range tests {
		if tt.got != tt.want {
			t.Errorf("%d: got %q, want %q", i, tt.got, tt.want)
		}
	}
}

func ExampleCount() {
	fmt.Println(Count(1, "play"), "·", Count(42, "play"))
	fmt.Println(And([]string{"Ada", "Ben", Count(2, "bot")}))
	// Output:
	// 1 play · 42 plays
	// Ada, Ben and 2 bots
}
