package players

import (
	"fmt"
	"testing"
	"time"

	"bullshit/errcode"
	"bullshit/store"
)

func TestLeaderboard(t *testing.T) {
	f := newFixture(t)
	now := f.clock.Now()
	ratings := []struct {
		name      string
		bot       bool
		rating    float64
		deviation float64
		away      time.Duration
	}{
		{"Ann", false, 1600, 60, 0},
		{"Robo", true, 1550, 60, 0},
		// Rated highest, but not settled: below every settled rating.
		{"Cy", false, 1700, 200, 400 * 24 * time.Hour},
		{"Di", false, 1400, 200, 0},
		// Settled at her last game, long ago: settled on the leaderboard,
		// which goes by the last game, provisional on her page.
		{"Eve", false, 1300, 60, 400 * 24 * time.Hour},
	}
	var rows []store.Rating
	for _, r := range ratings {
		ns := f.signUp(t, r.name, "correct horse battery")
		if r.bot {
			if err := f.svc.SetBot(f.ctx, ns.Account.ID, true); err != nil {
				t.Fatal(err)
			}
		}
		rows = append(rows, store.Rating{PlayerID: ns.Account.ID, Rating: r.rating, Deviation: r.deviation, Volatility: 0.06,
			Games: 7, RatedAt: now.Add(-r.away)})
	}
	if _, err := f.st.DB().NewInsert().Model(&rows).Exec(f.ctx); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		show       string
		page, size int
		want       string
		more       bool
	}{
		{"", 1, 0, "[1 Ann 2 Robo(bot) 3 Eve 4 Cy? 5 Di?]", false},
		{"people", 1, 0, "[1 Ann 2 Eve 3 Cy? 4 Di?]", false},
		{"programs", 1, 0, "[1 Robo(bot)]", false},
		{"all", 2, 1, "[2 Robo(bot)]", true},
		{"all", 1, 4, "[1 Ann 2 Robo(bot) 3 Eve 4 Cy?]", true},
		{"all", 2, 4, "[5 Di?]", false},
		{"all", 4, 1, "[4 Cy?]", true},
		{"all", 5, 1, "[5 Di?]", false},
		{"all", 6, 1, "[]", false},
	}
	for _, tt := range tests {
		b, err := f.svc.Leaderboard(f.ctx, tt.show, tt.page, tt.size)
		if err != nil {
			t.Fatalf("%q page %d of %d: %v", tt.show, tt.page, tt.size, err)
		}
		var got []string
		for _, l := range b.Lines {
			s := fmt.Sprint(l.Rank, " ", l.Name)
			if l.Bot {
				s += "(bot)"
			}
			if l.Provisional {
				s += "?"
			}
			got = append(got, s)
		}
		if fmt.Sprint(got) != tt.want || b.More != tt.more {
			t.Errorf("%q page %d of %d: got %v more %v, want %v more %v", tt.show, tt.page, tt.size, got, b.More, tt.want, tt.more)
		}
	}
	eve, err := f.svc.Profile(f.ctx, "Eve")
	if err != nil || eve.Deviation <= 60 || !eve.Provisional || eve.Rating != 1300 {
		t.Errorf("Eve's page after 400 days away: got %v ± %v provisional %v (%v), want 1300, the deviation grown, provisional",
			eve.Rating, eve.Deviation, eve.Provisional, err)
	}
	for _, bad := range []struct {
		show       string
		page, size int
	}{{"robots", 1, 0}, {"all", 0, 0}, {"all", 1, MaxPerPage + 1}, {"all", 1, -1}, {"all", maxPage + 1, 1}} {
		if _, err := f.svc.Leaderboard(f.ctx, bad.show, bad.page, bad.size); code(err) != errcode.Invalid {
			t.Errorf("Leaderboard(%q, %d, %d): got %v, want invalid", bad.show, bad.page, bad.size, err)
		}
	}
}

func TestProfileOfANewAccount(t *testing.T) {
	f := newFixture(t)
	f.signUp(t, "Ann", "correct horse battery")
	p, err := f.svc.Profile(f.ctx, "ANN")
	if err != nil {
		t.Fatal(err)
	}
	if p.Name != "Ann" || p.Rating != 1500 || p.Deviation != 350 || !p.Provisional || p.Games != 0 ||
		p.History == nil || p.Recent == nil || p.Places == nil {
		t.Errorf("a new account's page: got %+v, want 1500 ± 350, provisional, empty lists", p)
	}
	for _, name := range []string{"Nobody", "", "\x00"} {
		if _, err := f.svc.Profile(f.ctx, name); code(err) != errcode.NotFound {
			t.Errorf("Profile(%q): got %v, want not_found", name, err)
		}
	}
}
