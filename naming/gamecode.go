package naming

import (
	"crypto/rand"
	"encoding/base32"
	"strings"
)

// gameIDLen is the length of a game code NewGameID makes.
const gameIDLen = 8

var gameIDEncoding = base32.StdEncoding.WithPadding(base32.NoPadding)

// NewGameID is a game code: 40 random bits as 8 lowercase base32 characters.
func NewGameID() (string, error) {
	var b [5]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", err
	}
	return strings.ToLower(gameIDEncoding.EncodeToString(b[:])), nil
}

// ValidGameID reports whether id could be a game code NewGameID made: 8
// characters of the lowercase base32 alphabet. A caller checks it before any
// look-up, so anything else (a NUL byte, a path's worth of text) is "no such
// game" without reaching the store.
func ValidGameID(id string) bool {
	if len(id) != gameIDLen {
		return false
	}
	for _, c := range []byte(id) {
		if (c < 'a' || c > 'z') && (c < '2' || c > '7') {
			return false
		}
	}
	return true
}
