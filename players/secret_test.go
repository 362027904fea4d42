package players

import (
	"strings"
	"testing"
)

func TestTokenFormat(t *testing.T) {
	tok, hash, err := newToken()
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(tok, TokenPrefix) || len(tok) != len(TokenPrefix)+32 {
		t.Errorf("newToken: got %q, want %q and 32 characters", tok, TokenPrefix)
	}
	secret, ok := parseToken(tok)
	if !ok {
		t.Fatalf("parseToken(%q): not a token", tok)
	}
	if got := secretHash(secret); string(got) != string(hash) {
		t.Errorf("hash of the parsed token: got %x, want %x", got, hash)
	}
	body := strings.TrimPrefix(tok, TokenPrefix)
	for _, bad := range []string{
		"", TokenPrefix, body, "bsb_" + body, TokenPrefix + body[1:], tok + "a",
		TokenPrefix + strings.ToUpper(body), TokenPrefix + body[:31] + "1", " " + tok,
	} {
		if _, ok := parseToken(bad); ok {
			t.Errorf("parseToken(%q): got a token, want none", bad)
		}
	}
}

func TestCookieFormat(t *testing.T) {
	c, hash, err := newCookie()
	if err != nil {
		t.Fatal(err)
	}
	id, ok := parseCookie(c)
	if !ok || string(secretHash(id)) != string(hash) {
		t.Fatalf("parseCookie(%q): got %x, %v; want the id hashing to %x", c, id, ok, hash)
	}
	for _, bad := range []string{"", c[1:], c + "A", c[:42] + "=", c[:42] + "+", strings.Repeat("A", 42) + "B"} {
		if _, ok := parseCookie(bad); ok {
			t.Errorf("parseCookie(%q): got an id, want none", bad)
		}
	}
}

// FuzzParseToken checks that anything read as a token is one spelling of
// one secret: it writes back as itself.
func FuzzParseToken(f *testing.F) {
	tok, _, _ := newToken()
	f.Add(tok)
	f.Add(TokenPrefix)
	f.Add("bsa_" + strings.Repeat("a", 32))
	f.Add("bsa_" + strings.Repeat("7", 33))
	f.Fuzz(func(t *testing.T, s string) {
		secret, ok := parseToken(s)
		if !ok {
			return
		}
		if len(secret) != tokenBytes {
			t.Fatalf("parseToken(%q): %d bytes, want %d", s, len(secret), tokenBytes)
		}
		if again := TokenPrefix + tokenEncoding.EncodeToString(secret); again != s {
			t.Fatalf("parseToken(%q) writes back as %q", s, again)
		}
	})
}

// FuzzParseCookie checks the same of a session cookie's value.
func FuzzParseCookie(f *testing.F) {
	c, _, _ := newCookie()
	f.Add(c)
	f.Add(strings.Repeat("A", 43))
	f.Add(strings.Repeat("_", 44))
	f.Fuzz(func(t *testing.T, s string) {
		id, ok := parseCookie(s)
		if !ok {
			return
		}
		if len(id) != cookieBytes {
			t.Fatalf("parseCookie(%q): %d bytes, want %d", s, len(id), cookieBytes)
		}
		if again := cookieEncoding.EncodeToString(id); again != s {
			t.Fatalf("parseCookie(%q) writes back as %q", s, again)
		}
	})
}
