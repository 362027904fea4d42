package players

import (
	"fmt"
	"strings"
	"sync"
	"testing"

	"bullshit/errcode"
)

// TestSignUpRefusesLookalikes: with Alice and Bob signed up, the issue's
// look-alike names are refused, as mixing scripts or using a letter for
// technical writing, or (written in one script) as looking like an
// account's name; a name that only resembles one is taken.
func TestSignUpRefusesLookalikes(t *testing.T) {
	f := newFixture(t)
	f.signUp(t, "Alice", "correct horse")
	f.signUp(t, "Bob", "correct horse")
	tests := []struct {
		name string
		code errcode.Code
		says string
	}{
		{"Аlice", errcode.Invalid, "can't mix Latin and Cyrillic"}, // Cyrillic А
		{"Alіce", errcode.Invalid, "can't mix Latin and Cyrillic"}, // Cyrillic і
		{"Bοb", errcode.Invalid, "can't mix Latin and Greek"},      // Greek ο
		{"Bоb", errcode.Invalid, "can't mix Latin and Cyrillic"},   // Cyrillic о
		{"ᴀlice", errcode.Invalid, "technical or historic writing"},
		{"AIice", errcode.Conflict, `looks too much like "Alice"`}, // a capital I for the l
		{"A1ice", errcode.Conflict, `looks too much like "Alice"`},
		{"B0B", errcode.Conflict, `looks too much like "Bob"`},
		{"Аӏісе", errcode.Conflict, `looks too much like "Alice"`}, // all Cyrillic, a palochka for the l
		{"Βοβ", errcode.Conflict, `looks too much like "Bob"`},     // all Greek
		{"Вов", errcode.Conflict, `looks too much like "Bob"`},     // all Cyrillic
	}
	for i, tt := range tests {
		_, err := f.svc.SignUp(f.ctx, tt.name, "correct horse", fmt.Sprintf("10.3.0.%d", i))
		code, msg, ok := errcode.Of(err)
		if !ok || code != tt.code || !strings.Contains(msg, tt.says) {
			t.Errorf("signing up %q: got %v, want %s saying %q", tt.name, err, tt.code, tt.says)
		}
	}
	for _, name := range []string{"Alicia", "Bobby", "Rob", "Ann", "Anna", "Ольга", "Вова", "Ann שלום"} {
		f.signUp(t, name, "correct horse")
	}
}

// TestSignUpLookalikesTogether: two look-alike names signed up at once make
// one account; the store's unique key refuses the other.
func TestSignUpLookalikesTogether(t *testing.T) {
	f := newFixture(t)
	names := []string{"Carol", "CaroI", "Caro1", "CAROI"}
	errs := make([]error, len(names))
	var wg sync.WaitGroup
	for i, name := range names {
		wg.Go(func() { _, errs[i] = f.svc.SignUp(f.ctx, name, "correct horse", fmt.Sprintf("10.4.0.%d", i)) })
	}
	wg.Wait()
	made := 0
	for i, err := range errs {
		code, _, _ := errcode.Of(err)
		switch {
		case err == nil:
			made++
		case code == errcode.Conflict:
		default:
			t.Errorf("signing up %q: got %v, want an account or a refusal as taken", names[i], err)
		}
	}
	if made != 1 {
		t.Errorf("accounts made: got %d, want 1", made)
	}
}
