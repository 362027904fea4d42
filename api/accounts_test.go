package api_test

import (
	"context"
	"log/slog"
	"net/http"
	"slices"
	"strings"
	"testing"

	"bullshit/api/client"
	"bullshit/players"
)

// account signs up name and makes an API token for it.
func (w *world) account(name string) (players.Account, string, players.Token) {
	w.t.Helper()
	ctx := context.Background()
	ns, err := w.players.SignUp(ctx, name, "correct horse battery", "192.0.2.1")
	if err != nil {
		w.t.Fatalf("SignUp(%s): %v", name, err)
	}
	secret, tok, err := w.players.CreateToken(ctx, ns.Account.ID, "arena")
	if err != nil {
		w.t.Fatalf("CreateToken: %v", err)
	}
	return ns.Account, secret, tok
}

func playerIDs(s client.Game) []int64 {
	var out []int64
	for _, seat := range s.Seats {
		out = append(out, seat.Player)
	}
	return out
}

func TestAccountSeats(t *testing.T) {
	w := newWorld(t, worldOptions{})
	ctx := context.Background()
	ann, annToken, _ := w.account("Ann")
	bea, beaToken, _ := w.account("Bea")

	me, err := w.client(annToken).Me(ctx)
	if err != nil || me.ID != ann.ID || me.Name != ann.Name || !me.CreatedAt.Equal(ann.CreatedAt) {
		t.Fatalf("Me: got %+v, %v; want %+v", me, err, ann)
	}

	// Ann creates a table with her token and no name: the seat is hers,
	// under her name, and its own token plays it.
	host, err := w.client(annToken).Create(ctx, client.CreateBody{Seats: 4})
	if err != nil {
		t.Fatalf("Create with an account's token: %v", err)
	}
	id := host.Game.ID
	if got := host.Game.Seats[0]; got.Player != ann.ID || got.Name != "Ann" {
		t.Errorf("the host's seat: got %+v, want Ann's (account %d)", got, ann.ID)
	}
	if host.Token == "" || strings.HasPrefix(host.Token, players.TokenPrefix) {
		t.Errorf("the host's seat token: got %q, want the seat's own", host.Token)
	}

	if _, err := w.client(annToken).Join(ctx, id, ""); client.ErrorCode(err) != "conflict" {
		t.Errorf("Ann joining her own table again: got %v, want conflict", err)
	}
	if _, err := w.client(beaToken).Join(ctx, id, "Somebody Else"); client.ErrorCode(err) != "invalid" {
		t.Errorf("Bea joining under another name: got %v, want invalid", err)
	}
	if _, err := w.client(beaToken).Join(ctx, id, "Bea"); err != nil {
		t.Errorf("Bea joining under her own name: %v", err)
	}
	// A guest joins as ever; a seat's token sent along changes nothing.
	guest, err := w.client(host.Token).Join(ctx, id, "Guest")
	if err != nil {
		t.Fatalf("a guest joining: %v", err)
	}
	if got, want := playerIDs(guest.Game), []int64{ann.ID, bea.ID, 0, 0}; !slices.Equal(got, want) {
		t.Errorf("the seats' accounts: got %v, want %v", got, want)
	}

	if _, err := w.client(host.Token).Start(ctx, id); err != nil {
		t.Fatalf("the host's seat token starting the game: %v", err)
	}
	if v, err := w.client(host.Token).View(ctx, id); err != nil || v.Seat != 0 {
		t.Errorf("the host's seat token reading its view: got seat %d, %v; want seat 0", v.Seat, err)
	}

	// Without a name and without an account's token there's no seat.
	open, err := w.client("").Create(ctx, client.CreateBody{Seats: 3, Name: "Cy"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.client("").Join(ctx, open.Game.ID, ""); client.ErrorCode(err) != "invalid" {
		t.Errorf("a guest joining without a name: got %v, want invalid", err)
	}
	for _, tt := range []struct{ name, token string }{
		{"a seat's token", host.Token},
		{"no token", ""},
		{"a made-up account token", players.TokenPrefix + strings.Repeat("a", 32)},
	} {
		if _, err := w.client(tt.token).Me(ctx); client.ErrorCode(err) != "unauthorized" {
			t.Errorf("Me with %s: got %v, want unauthorized", tt.name, err)
		}
	}
}

func TestRevokedTokenRefusedAtOnce(t *testing.T) {
	w := newWorld(t, worldOptions{})
	ctx := context.Background()
	ann, secret, tok := w.account("Ann")
	c := w.client(secret)
	if _, err := c.Me(ctx); err != nil {
		t.Fatalf("Me before revoking: %v", err)
	}
	if err := w.players.RevokeToken(ctx, ann.ID, tok.ID); err != nil {
		t.Fatalf("RevokeToken: %v", err)
	}
	if _, err := c.Me(ctx); client.ErrorCode(err) != "unauthorized" {
		t.Errorf("Me right after revoking: got %v, want unauthorized", err)
	}
	if _, err := c.Create(ctx, client.CreateBody{Seats: 3}); client.ErrorCode(err) != "unauthorized" {
		t.Errorf("Create right after revoking: got %v, want unauthorized", err)
	}
}

// TestTokenNeverLogged makes, uses, lists and revokes a token, uses it once
// revoked and once mangled, with the server logging everything down to
// debug, and looks for the token in the log.
func TestTokenNeverLogged(t *testing.T) {
	var logs syncBuffer
	logger := slog.New(slog.NewJSONHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	w := newWorld(t, worldOptions{logger: logger})
	ctx := context.Background()
	ann, secret, tok := w.account("Ann")

	c := w.client(secret)
	j, err := c.Create(ctx, client.CreateBody{Seats: 3, FillBots: true})
	if err != nil {
		t.Fatalf("Create: %v", err)
	}
	if _, err := c.Me(ctx); err != nil {
		t.Fatalf("Me: %v", err)
	}
	other, err := w.client("").Create(ctx, client.CreateBody{Seats: 3, Name: "Host"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Join(ctx, other.Game.ID, ""); err != nil {
		t.Fatalf("Join: %v", err)
	}
	if _, err := w.client(j.Token).Start(ctx, j.Game.ID); err != nil {
		t.Fatalf("Start: %v", err)
	}
	list, err := w.players.Tokens(ctx, ann.ID)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.players.RevokeToken(ctx, ann.ID, tok.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Me(ctx); client.ErrorCode(err) != "unauthorized" {
		t.Errorf("Me once revoked: got %v, want unauthorized", err)
	}
	mangled := secret[:len(secret)-1] + "b"
	w.do(http.MethodGet, "/api/v1/me", mangled, "")
	w.do(http.MethodPost, "/api/v1/games", secret, `{"seats": 3}`)

	body := strings.TrimPrefix(secret, players.TokenPrefix)
	log := logs.String()
	if !strings.Contains(log, `"route":"/api/v1/me"`) {
		t.Fatalf("the log has no line for /api/v1/me, so this test sees nothing:\n%s", log)
	}
	for _, s := range []string{body, body[:16], body[16:], strings.TrimPrefix(mangled, players.TokenPrefix)} {
		if strings.Contains(log, s) {
			t.Errorf("the log holds the token (or part of it, %q):\n%s", s, log)
		}
	}
	for _, tk := range list {
		if strings.Contains(tk.Name+tk.CreatedAt.String(), body) {
			t.Errorf("the token list holds the token: %+v", tk)
		}
	}
}
