package players

import (
	"strings"
	"testing"
)

func TestPasswordHash(t *testing.T) {
	for _, p := range []Params{cheap, DefaultParams} {
		h, err := hashPassword("correct horse", p)
		if err != nil {
			t.Fatal(err)
		}
		if !verifyPassword(h, "correct horse") {
			t.Errorf("verifyPassword(%q, right password): got false, want true", h)
		}
		if verifyPassword(h, "correct hors") {
			t.Errorf("verifyPassword(%q, wrong password): got true, want false", h)
		}
		if outdated(h, p) {
			t.Errorf("outdated(%q, its own params): got true, want false", h)
		}
		d, err := decodeHash(h)
		if err != nil || d.params != p {
			t.Errorf("decodeHash(%q): got %+v, %v; want %+v", h, d.params, err, p)
		}
	}
	h, _ := hashPassword("correct horse", cheap)
	if !outdated(h, DefaultParams) {
		t.Errorf("outdated(a cheap hash, the default params): got false, want true")
	}
	if h2, _ := hashPassword("correct horse", cheap); h2 == h {
		t.Errorf("two hashes of one password are the same (%q): the salt isn't random", h)
	}
}

func TestDecodeHashRefuses(t *testing.T) {
	good, _ := hashPassword("x", cheap)
	parts := strings.Split(good, "$")
	salt, key := parts[4], parts[5]
	tests := []string{
		"",
		"plain text",
		strings.Replace(good, "argon2id", "argon2i", 1),
		strings.Replace(good, "v=19", "v=16", 1),
		"$argon2id$v=19$m=64,t=1$" + salt + "$" + key,
		"$argon2id$v=19$m=064,t=1,p=1$" + salt + "$" + key,
		"$argon2id$v=19$m=64,t=0,p=1$" + salt + "$" + key,
		"$argon2id$v=19$m=64,t=1,p=0$" + salt + "$" + key,
		"$argon2id$v=19$m=4,t=1,p=1$" + salt + "$" + key,
		"$argon2id$v=19$m=99999999999,t=1,p=1$" + salt + "$" + key,
		"$argon2id$v=19$m=64,t=1,p=1$" + salt + "=$" + key,
		"$argon2id$v=19$m=64,t=1,p=1$" + "c2FsdA" + "$" + key,
		"$argon2id$v=19$m=64,t=1,p=1$" + salt + "$" + key[:10],
		good + "$",
	}
	for _, s := range tests {
		if _, err := decodeHash(s); err == nil {
			t.Errorf("decodeHash(%q): got no error, want one", s)
		}
		if verifyPassword(s, "x") {
			t.Errorf("verifyPassword(%q): got true, want false", s)
		}
	}
}

// FuzzDecodeHash checks that a hash read back is in bounds and writes back
// as itself.
func FuzzDecodeHash(f *testing.F) {
	good, _ := hashPassword("x", cheap)
	f.Add(good)
	f.Add("$argon2id$v=19$m=19456,t=2,p=1$c2FsdHNhbHQ$a2V5a2V5a2V5a2V5a2V5aw")
	f.Add("$argon2id$v=19$m=1,t=1,p=1$$")
	f.Fuzz(func(t *testing.T, s string) {
		d, err := decodeHash(s)
		if err != nil {
			return
		}
		p := d.params
		if p.Memory > maxMemory || p.Time < 1 || p.Time > maxTime || p.Threads < 1 || p.Memory < 8*uint32(p.Threads) {
			t.Fatalf("decodeHash(%q): params out of bounds: %+v", s, p)
		}
		if again := encodeHash(p, d.salt, d.key); again != s {
			t.Fatalf("decodeHash(%q) writes back as %q", s, again)
		}
	})
}

// BenchmarkHashPassword measures one hash at the default costs: the work of
// a sign-in.
func BenchmarkHashPassword(b *testing.B) {
	for b.Loop() {
		if _, err := hashPassword("correct horse", DefaultParams); err != nil {
			b.Fatal(err)
		}
	}
}
