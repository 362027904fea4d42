package players

import (
	"crypto/rand"
	"crypto/subtle"
	"encoding/base64"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"golang.org/x/crypto/argon2"
)

// Params are argon2id's costs. A hash carries the parameters it was made
// with, so they can be raised later: old hashes still verify, and are
// replaced at the next sign-in.
type Params struct {
	// Memory is in KiB.
	Memory uint32
	// Time is the number of passes over the memory.
	Time uint32
	// Threads is argon2's parallelism (lanes).
	Threads uint8
	// SaltLen and KeyLen are in bytes.
	SaltLen uint32
	KeyLen  uint32
}

// DefaultParams are OWASP's first recommended argon2id setting: 19 MiB,
// two passes, one lane (see docs/decisions.md for why).
var DefaultParams = Params{Memory: 19 * 1024, Time: 2, Threads: 1, SaltLen: 16, KeyLen: 32}

// The bounds a decoded hash must keep, so that a damaged row can't make a
// sign-in allocate without limit.
const (
	maxMemory  = 1 << 20 // KiB: 1 GiB
	maxTime    = 64
	minSaltLen = 8
	maxSaltLen = 64
	minKeyLen  = 16
	maxKeyLen  = 64
)

var b64 = base64.RawStdEncoding

// hashPassword hashes a password with a new random salt and encodes the
// result in the PHC string format:
//
//	$argon2id$v=19$m=19456,t=2,p=1$<salt>$<key>
func hashPassword(password string, p Params) (string, error) {
	salt := make([]byte, p.SaltLen)
	if _, err := rand.Read(salt); err != nil {
		return "", err
	}
	key := argon2.IDKey([]byte(password), salt, p.Time, p.Memory, p.Threads, p.KeyLen)
	return encodeHash(p, salt, key), nil
}

func encodeHash(p Params, salt, key []byte) string {
	return fmt.Sprintf("$argon2id$v=%d$m=%d,t=%d,p=%d$%s$%s",
		argon2.Version, p.Memory, p.Time, p.Threads, b64.EncodeToString(salt), b64.EncodeToString(key))
}

// decodedHash is an encoded hash taken apart.
type decodedHash struct {
	params Params
	salt   []byte
	key    []byte
}

var errBadHash = errors.New("not an argon2id hash this server can read")

// decodeHash parses a hash written by encodeHash, refusing anything else,
// parameters out of bounds included.
func decodeHash(s string) (decodedHash, error) {
	parts := strings.Split(s, "$")
	if len(parts) != 6 || parts[0] != "" || parts[1] != "argon2id" || parts[2] != "v="+strconv.Itoa(argon2.Version) {
		return decodedHash{}, errBadHash
	}
	var d decodedHash
	fields := strings.Split(parts[3], ",")
	if len(fields) != 3 {
		return decodedHash{}, errBadHash
	}
	m, okM := param(fields[0], "m=", maxMemory)
	t, okT := param(fields[1], "t=", maxTime)
	p, okP := param(fields[2], "p=", 255)
	if !okM || !okT || !okP || t < 1 || p < 1 || m < 8*p {
		return decodedHash{}, errBadHash
	}
	d.params = Params{Memory: uint32(m), Time: uint32(t), Threads: uint8(p)}
	var ok bool
	if d.salt, ok = canonicalBase64(parts[4]); !ok || len(d.salt) < minSaltLen || len(d.salt) > maxSaltLen {
		return decodedHash{}, errBadHash
	}
	if d.key, ok = canonicalBase64(parts[5]); !ok || len(d.key) < minKeyLen || len(d.key) > maxKeyLen {
		return decodedHash{}, errBadHash
	}
	d.params.SaltLen, d.params.KeyLen = uint32(len(d.salt)), uint32(len(d.key))
	return d, nil
}

// canonicalBase64 decodes s only if it is exactly how encodeHash writes
// those bytes: Go's decoder skips CR and LF even in strict mode, so a stored
// hash with a line break inside would otherwise verify and write back as
// another string.
func canonicalBase64(s string) ([]byte, bool) {
	b, err := b64.Strict().DecodeString(s)
	if err != nil || b64.EncodeToString(b) != s {
		return nil, false
	}
	return b, true
}

// param reads "<name><decimal>" with the decimal at most max, in its one
// canonical spelling (no sign, no leading zeros).
func param(s, name string, max uint64) (uint64, bool) {
	digits, ok := strings.CutPrefix(s, name)
	if !ok || digits == "" || len(digits) > 10 || (len(digits) > 1 && digits[0] == '0') {
		return 0, false
	}
	n, err := strconv.ParseUint(digits, 10, 64)
	if err != nil || n > max {
		return 0, false
	}
	return n, true
}

// verifyPassword reports whether password is the one hashed in encoded.
// A hash it can't read never matches.
func verifyPassword(encoded, password string) bool {
	d, err := decodeHash(encoded)
	if err != nil {
		return false
	}
	key := argon2.IDKey([]byte(password), d.salt, d.params.Time, d.params.Memory, d.params.Threads, uint32(len(d.key)))
	return subtle.ConstantTimeCompare(key, d.key) == 1
}

// outdated reports whether encoded was made with parameters other than p.
func outdated(encoded string, p Params) bool {
	d, err := decodeHash(encoded)
	return err != nil || d.params != p
}
