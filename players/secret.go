package players

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/base32"
	"encoding/base64"
	"strings"
)

// TokenPrefix starts every API token, so that one is recognisable in a
// program's settings, a log or a secret scanner's findings.
const TokenPrefix = "bsa_"

// The secrets' sizes, in random bytes.
const (
	tokenBytes  = 20 // 160 bits
	cookieBytes = 32 // 256 bits
)

// tokenEncoding is lowercase base32 without padding: 20 bytes make 32
// characters a double click selects whole. 160 bits are exactly 32
// characters, so no spare bits could make two spellings of one token.
var tokenEncoding = base32.NewEncoding("abcdefghijklmnopqrstuvwxyz234567").WithPadding(base32.NoPadding)

// cookieEncoding is URL-safe base64 without padding, safe in a cookie.
var cookieEncoding = base64.RawURLEncoding.Strict()

// newToken is a new API token and the hash it is stored by.
func newToken() (token string, hash []byte, err error) {
	b := make([]byte, tokenBytes)
	if _, err := rand.Read(b); err != nil {
		return "", nil, err
	}
	return TokenPrefix + tokenEncoding.EncodeToString(b), secretHash(b), nil
}

// parseToken reads an API token, giving its secret bytes; ok is false for
// anything newToken could not have made.
func parseToken(s string) (secret []byte, ok bool) {
	body, found := strings.CutPrefix(s, TokenPrefix)
	if !found || len(body) != tokenEncoding.EncodedLen(tokenBytes) {
		return nil, false
	}
	b, err := tokenEncoding.DecodeString(body)
	if err != nil || len(b) != tokenBytes {
		return nil, false
	}
	return b, true
}

// IsToken reports whether s has the form of an API token (not whether one
// was ever issued): callers use it to tell an account's token from a seat's.
func IsToken(s string) bool { return strings.HasPrefix(s, TokenPrefix) }

// newCookie is a new session id, as the cookie carries it, and the hash it
// is stored by.
func newCookie() (cookie string, hash []byte, err error) {
	b := make([]byte, cookieBytes)
	if _, err := rand.Read(b); err != nil {
		return "", nil, err
	}
	return cookieEncoding.EncodeToString(b), secretHash(b), nil
}

// parseCookie reads a session cookie's value, giving the session id's bytes;
// ok is false for anything newCookie could not have made.
func parseCookie(s string) (id []byte, ok bool) {
	if len(s) != cookieEncoding.EncodedLen(cookieBytes) {
		return nil, false
	}
	b, err := cookieEncoding.DecodeString(s)
	if err != nil || len(b) != cookieBytes {
		return nil, false
	}
	return b, true
}

// secretHash is what a token or session is stored by. The secrets are long
// and random, so one fast hash is enough: there is nothing to guess.
func secretHash(secret []byte) []byte {
	h := sha256.Sum256(secret)
	return h[:]
}
