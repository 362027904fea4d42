package players

import (
	"bullshit/errcode"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"
)

func TestTokens(t *testing.T) {
	f := newFixture(t)
	ann := f.signUp(t, "Ann", "correct horse").Account
	bea := f.signUp(t, "Bea", "battery staple").Account

	secret, tok, err := f.svc.CreateToken(f.ctx, ann.ID, " arena bot ")
	if err != nil {
		t.Fatalf("CreateToken: %v", err)
	}
	if !strings.HasPrefix(secret, TokenPrefix) || tok.Name != "arena bot" || !tok.LastUsed.IsZero() {
		t.Errorf("CreateToken: got %q, %+v; want a %s token named \"arena bot\", never used", secret, tok, TokenPrefix)
	}
	for _, tt := range []struct {
		name string
		want errcode.Code
	}{{"arena bot", errcode.Conflict}, {"", errcode.Invalid}, {"two\nlines", errcode.Invalid}, {strings.Repeat("n", MaxTokenName+1), errcode.Invalid}} {
		if _, _, err := f.svc.CreateToken(f.ctx, ann.ID, tt.name); code(err) != tt.want {
			t.Errorf("CreateToken(%q): got %v, want code %s", tt.name, err, tt.want)
		}
	}
	if _, _, err := f.svc.CreateToken(f.ctx, bea.ID, "arena bot"); err != nil {
		t.Errorf("Bea's token with Ann's token's name: %v", err)
	}

	got, err := f.svc.TokenAccount(f.ctx, secret)
	if err != nil || got != ann {
		t.Fatalf("TokenAccount: got %+v, %v; want %+v", got, err, ann)
	}

	// The list never holds the token, in any form.
	list, err := f.svc.Tokens(f.ctx, ann.ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(list) != 1 || list[0].ID != tok.ID || !list[0].LastUsed.Equal(f.clock.Now()) {
		t.Errorf("Tokens: got %+v, want the one token, last used now", list)
	}
	b, _ := json.Marshal(list)
	if body := strings.TrimPrefix(secret, TokenPrefix); strings.Contains(string(b), body) || strings.Contains(string(b), TokenPrefix) {
		t.Errorf("the list holds the token: %s", b)
	}

	// The last use is written at most once a minute.
	used := f.clock.Now()
	f.clock.advance(30 * time.Second)
	f.svc.TokenAccount(f.ctx, secret)
	if list, _ := f.svc.Tokens(f.ctx, ann.ID); !list[0].LastUsed.Equal(used) {
		t.Errorf("LastUsed after a use 30 s later: got %v, want %v", list[0].LastUsed, used)
	}
	f.clock.advance(31 * time.Second)
	f.svc.TokenAccount(f.ctx, secret)
	if list, _ := f.svc.Tokens(f.ctx, ann.ID); !list[0].LastUsed.Equal(f.clock.Now()) {
		t.Errorf("LastUsed after a use 61 s later: got %v, want %v", list[0].LastUsed, f.clock.Now())
	}

	if err := f.svc.RevokeToken(f.ctx, bea.ID, tok.ID); code(err) != errcode.NotFound {
		t.Errorf("Bea revoking Ann's token: got %v, want code %s", err, errcode.NotFound)
	}
	if err := f.svc.RevokeToken(f.ctx, ann.ID, tok.ID); err != nil {
		t.Fatalf("RevokeToken: %v", err)
	}
	// Refused at once: nothing is cached.
	if _, err := f.svc.TokenAccount(f.ctx, secret); !errors.Is(err, ErrBadToken) {
		t.Errorf("TokenAccount of a revoked token: got %v, want %v", err, ErrBadToken)
	}
	for _, bad := range []string{"", "bsa_", secret[:len(secret)-1], strings.ToUpper(secret)} {
		if _, err := f.svc.TokenAccount(f.ctx, bad); !errors.Is(err, ErrBadToken) {
			t.Errorf("TokenAccount(%q): got %v, want %v", bad, err, ErrBadToken)
		}
	}
}

func TestSetBot(t *testing.T) {
	f := newFixture(t)
	ann := f.signUp(t, "Ann", "correct horse").Account
	if err := f.svc.SetBot(f.ctx, ann.ID, true); err != nil {
		t.Fatalf("SetBot: %v", err)
	}
	got, err := f.svc.Account(f.ctx, ann.ID)
	if err != nil || !got.Bot {
		t.Errorf("Account after SetBot(true): got %+v, %v; want a bot account", got, err)
	}
}
