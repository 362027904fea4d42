package engine

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"
)

// The rules document's tables are written from the code's values: a change to
// one without the other fails here, and the failure prints the table as the
// code has it, ready to paste.
func TestRulesDocumentMatchesCode(t *testing.T) {
	b, err := os.ReadFile("../docs/rules.md")
	if err != nil {
		t.Fatal(err)
	}
	doc := string(b)
	for _, tt := range []struct{ name, want string }{
		{"hand buckets", bucketTable(HandKind)},
		{"pile buckets", bucketTable(PileKind)},
		{"reveal beats", beatTable()},
		{"think times", thinkTable()},
		{"limits and timings", limitsTable()},
		{"sneaks from a hand", sneakTable()},
	} {
		if !strings.Contains(doc, tt.want) {
			t.Errorf("docs/rules.md: the %s table is not the code's; the code says:\n%s", tt.name, tt.want)
		}
	}
}

// bucketTable lists what each count of a hand or the pile looks like.
func bucketTable(k Kind) string {
	exact, what := HandExact, "hand"
	if k == PileKind {
		exact, what = PileExact, "pile"
	}
	var sb strings.Builder
	fmt.Fprintf(&sb, "| cards in the %s | looks like |\n|---|---|\n", what)
	fmt.Fprintf(&sb, "| 0 to %d | the exact count |\n", exact)
	for _, r := range Buckets(k) {
		switch {
		case r.Hi == Open:
			fmt.Fprintf(&sb, "| %d or more | %s |\n", r.Lo, r)
		default:
			fmt.Fprintf(&sb, "| %d to %d | %s |\n", r.Lo, r.Hi, r)
		}
	}
	return sb.String()
}

func beatTable() string {
	var sb strings.Builder
	sb.WriteString("| beat | lasts |\n|---|---|\n")
	var total time.Duration
	for _, c := range []Cue{CueShout, CueFlip, CueVerdict, CueTake} {
		fmt.Fprintf(&sb, "| %s | %s |\n", c, secs(RevealBeats[c]))
		total += RevealBeats[c]
	}
	fmt.Fprintf(&sb, "| the whole reveal | %s |\n", secs(total))
	return sb.String()
}

func thinkTable() string {
	var sb strings.Builder
	sb.WriteString("| decision | brisk | relaxed |\n|---|---|---|\n")
	for _, k := range []Think{ThinkTurn, ThinkGive, Listen0, Listen1, Listen2, Listen3} {
		fmt.Fprintf(&sb, "| %s | %s | %s |\n", k, secs(ThinkTime(k, Brisk)), secs(ThinkTime(k, Relaxed)))
	}
	return sb.String()
}

func limitsTable() string {
	var windows []string
	for _, w := range Windows {
		windows = append(windows, secs(w))
	}
	one, two := Standard(MinSeats), Standard(MaxSeats)
	rows := [][2]string{
		{"players", fmt.Sprintf("%d to %d", MinSeats, MaxSeats)},
		{"decks", fmt.Sprintf("%d up to 6 players, %d from 7", one.Decks(), two.Decks())},
		{"most cards claimed in a play", fmt.Sprintf("%d with one deck, %d with two", one.MaxClaim(), two.MaxClaim())},
		{"most cards sneaked under a play", fmt.Sprintf("0 (off) to %d; standard %d", MaxSneakLimit, StandardSneak)},
		{"time to call", fmt.Sprintf("%s; standard %s", strings.Join(windows, ", "), secs(StandardWindow))},
		{"time to hand over", secs(GiveTime)},
		{"penalty for a caught sneak", fmt.Sprintf("%d card of the caller's choosing, however many were sneaked", StandardPenalty.Cards)},
		{"hand counted exactly up to", fmt.Sprintf("%d cards", HandExact)},
		{"pile counted exactly up to", fmt.Sprintf("%d cards", PileExact)},
		{"play cap", fmt.Sprintf("%d plays", PlayCap)},
		{"grace for calls made together", fmt.Sprintf("0 (first come) to %d ms; standard %d ms", MaxGrace.Milliseconds(), StandardGrace.Milliseconds())},
		{"playing on for places", "off or on; standard off"},
		{"practice table (a chosen deal)", "off or on; standard off; never rated"},
	}
	var sb strings.Builder
	sb.WriteString("| what | value |\n|---|---|\n")
	for _, r := range rows {
		fmt.Fprintf(&sb, "| %s | %s |\n", r[0], r[1])
	}
	return sb.String()
}

// secs writes a duration in seconds, as the document does: "0.7 s".
func secs(d time.Duration) string {
	return strconv.FormatFloat(d.Seconds(), 'f', -1, 64) + " s"
}

// sneakTable says, for each hand size from the first rough count to the open
// one, whether a sneak shows in the hand's count (the pile is judged the same
// way, and can give away a sneak the hand hides).
func sneakTable() string {
	plays := [][2]int{{1, 1}, {2, 1}, {1, 2}, {2, 2}}
	var sb strings.Builder
	sb.WriteString("| hand | claim 1, sneak 1 | claim 2, sneak 1 | claim 1, sneak 2 | claim 2, sneak 2 |\n|---|---|---|---|---|\n")
	for n := HandExact - 1; n <= sneakTableTop; n++ {
		fmt.Fprintf(&sb, "| %d |", n)
		for _, p := range plays {
			word := "hides"
			if handShows(n, p[0], p[1]) {
				word = "shows"
			}
			fmt.Fprintf(&sb, " %s |", word)
		}
		sb.WriteString("\n")
	}
	return sb.String()
}

// sneakTableTop is the biggest hand in the document's sneak table: above it,
// as the document says, no sneak of one or two under a claim of one or two
// shows in the hand's count.
const sneakTableTop = 14

func handShows(n, claim, sneak int) bool {
	return !LooksClean(Seen(n, HandKind), Seen(n-claim-sneak, HandKind), claim, HandKind)
}

func TestNoSneakShowsInABigHand(t *testing.T) {
	for n := sneakTableTop + 1; n <= 104; n++ {
		for claim := 1; claim <= 2; claim++ {
			for sneak := 1; sneak <= 2; sneak++ {
				if handShows(n, claim, sneak) {
					t.Errorf("a hand of %d, claim %d, sneak %d: got it showing, want hidden", n, claim, sneak)
				}
			}
		}
	}
}
