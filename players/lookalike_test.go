package players

import (
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"

	"bullshit/live"
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
		code live.Code
		says string
	}{
		{"Аlice", live.CodeInvalid, "can't mix Latin and Cyrillic"}, // Cyrillic А
		{"Alіce", live.CodeInvalid, "can't mix Latin and Cyrillic"}, // Cyrillic і
		{"Bοb", live.CodeInvalid, "can't mix Latin and Greek"},      // Greek ο
		{"Bоb", live.CodeInvalid, "can't mix Latin and Cyrillic"},   // Cyrillic о
		{"ᴀlice", live.CodeInvalid, "technical or historic writing"},
		{"AIice", live.CodeConflict, `looks too much like "Alice"`}, // a capital I for the l
		{"A1ice", live.CodeConflict, `looks too much like "Alice"`},
		{"B0B", live.CodeConflict, `looks too much like "Bob"`},
	}
	for i, tt := range tests {
		_, err := f.svc.SignUp(f.ctx, tt.name, "correct horse", fmt.Sprintf("10.3.0.%d", i))
		var le *live.Error
		if !errors.As(err, &le) || le.Code != tt.code || !strings.Contains(le.Message, tt.says) {
			t.Errorf("signing up %q: got %v, want %s saying %q", tt.name, err, tt.code, tt.says)
		}
	}
	for _, name := range []string{"Alicia", "Bobby", "Ольга", "Ann שלום"} {
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
		var le *live.Error
		var pe *Error
		switch {
		case err == nil:
			made++
		case errors.As(err, &le) && le.Code == live.CodeConflict, errors.As(err, &pe) && pe.Code == CodeConflict:
		default:
			t.Errorf("signing up %q: got %v, want an account or a refusal as taken", names[i], err)
		}
	}
	if made != 1 {
		t.Errorf("accounts made: got %d, want 1", made)
	}
}
