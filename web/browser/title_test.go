package browser

import (
	"context"
	"testing"
	"time"
)

// TestBrowserTitleFollowsTheGame: a tab opened in the waiting room names the
// table from the first frame of play, and says when the game is over, with
// no reload.
func TestBrowserTitleFollowsTheGame(t *testing.T) {
	ctx := testContext(t, 2*time.Minute)
	s := newSite(t, fastSpeed)
	b := newBrowser(ctx, t, s.base, phoneWidth, phoneHeight)
	id := createTable(b, tableSettings{name: "Ada", bots: 3})
	if got, want := eval[string](b, `document.title`), "Waiting room · Bullshit"; got != want {
		t.Errorf("in the waiting room: got title %q, want %q", got, want)
	}
	startGame(b)
	b.wait("the hand", visible("#hand"))
	if got, want := eval[string](b, `document.title`), "Table "+id+" · Bullshit"; got != want {
		t.Errorf("once the game starts: got title %q, want %q", got, want)
	}
	if err := s.mgr.End(context.Background(), id, 0); err != nil {
		t.Fatalf("ending the game: %v", err)
	}
	b.wait("the result sheet", visible("#result"))
	b.settle()
	if got, want := eval[string](b, `document.title`), "Table "+id+" · game over · Bullshit"; got != want {
		t.Errorf("once the game is over: got title %q, want %q", got, want)
	}
}
