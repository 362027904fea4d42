package api

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"testing"

	"bullshit/errcode"
	"bullshit/players"
	"bullshit/store"
	"bullshit/store/storetest"
)

// TestThrottledSignInAnswer fails a sign-in five times and checks how the
// sixth's refusal leaves through the API's error handler: 429, a plain
// message, and Retry-After in whole seconds.
func TestThrottledSignInAnswer(t *testing.T) {
	ctx := context.Background()
	st, err := store.Open(ctx, storetest.URL(t))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	svc, err := players.New(players.Config{Store: st, Params: players.Params{Memory: 64, Time: 1, Threads: 1, SaltLen: 16, KeyLen: 32}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := svc.SignUp(ctx, "Ann", "correct horse", "192.0.2.1"); err != nil {
		t.Fatal(err)
	}
	for range players.NameFailures {
		if _, err := svc.SignIn(ctx, "Ann", "wrong horse", "192.0.2.2"); err == nil {
			t.Fatal("a wrong password signed in")
		}
	}
	_, err = svc.SignIn(ctx, "Ann", "correct horse", "192.0.2.2")

	srv := New(Config{})
	rec := httptest.NewRecorder()
	c := srv.echo.NewContext(httptest.NewRequest(http.MethodPost, "/", nil), rec)
	srv.HandleError(err, c)
	var p Problem
	if jerr := json.Unmarshal(rec.Body.Bytes(), &p); jerr != nil {
		t.Fatalf("the answer isn't a Problem: %v: %s", jerr, rec.Body)
	}
	if rec.Code != http.StatusTooManyRequests || p.Code != string(errcode.RateLimited) {
		t.Errorf("the 6th sign-in: got %d %q, want %d %q", rec.Code, p.Code, http.StatusTooManyRequests, errcode.RateLimited)
	}
	if want := "Too many failed sign-ins: try again in 1 second."; p.Error != want {
		t.Errorf("message: got %q, want %q", p.Error, want)
	}
	if got := rec.Header().Get("Retry-After"); got != "1" {
		t.Errorf("Retry-After: got %q, want 1", got)
	}
}
