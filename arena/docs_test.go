package arena

import (
	"fmt"
	"os"
	"strings"
	"testing"
)

// docs/arena.md's table of points is the code's: a change to one without
// the other fails here, printing the table as the code has it.
func TestDocumentMatchesCode(t *testing.T) {
	b, err := os.ReadFile("../docs/arena.md")
	if err != nil {
		t.Fatal(err)
	}
	var want strings.Builder
	want.WriteString("| seats | 1st | 2nd | 3rd | 4th | 5th | 6th | 7th | 8th | 9th | 10th |\n")
	want.WriteString("|---|---|---|---|---|---|---|---|---|---|---|\n")
	for _, n := range []int{3, 4, 5, 6, 8, 10} {
		fmt.Fprintf(&want, "| %d |", n)
		for p := 1; p <= MaxSeats; p++ {
			if p <= n {
				fmt.Fprintf(&want, " %d |", Base(n, p, 1))
			} else {
				want.WriteString(" |")
			}
		}
		want.WriteString("\n")
	}
	if !strings.Contains(string(b), want.String()) {
		t.Errorf("docs/arena.md: the table of points is not the code's; the code says:\n%s", want.String())
	}
	// The phrases are looked for with the lines' breaks read as spaces.
	flat := strings.Join(strings.Fields(string(b)), " ")
	for _, s := range []string{fmt.Sprintf("`DefaultWait`, %v", DefaultWait), "**two good results in a row**",
		"**a middle one half as much again**"} {
		if !strings.Contains(flat, s) {
			t.Errorf("docs/arena.md does not say %q", s)
		}
	}
	if Fire != 2 {
		t.Errorf("Fire is %d; docs/arena.md says two good results in a row", Fire)
	}
}
