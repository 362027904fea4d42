package httpx

import (
	"errors"
	"fmt"
	"net/http"
	"testing"
	"time"

	"bullshit/errcode"
)

func TestSetRetryAfter(t *testing.T) {
	tests := []struct {
		name string
		err  error
		want string
	}{
		{"a wait, rounded up to whole seconds", &Error{Code: errcode.RateLimited, Message: "Slow down.", Wait: 1500 * time.Millisecond}, "2"},
		{"a wait wrapped", fmt.Errorf("asking: %w", &Error{Code: errcode.Busy, Message: "Busy.", Wait: 5 * time.Second}), "5"},
		{"a refusal without a wait", &Error{Code: errcode.Invalid, Message: "Unreadable."}, ""},
		{"no refusal", errors.New("a fault"), ""},
	}
	for _, tt := range tests {
		h := http.Header{}
		SetRetryAfter(h, tt.err)
		if got := h.Get("Retry-After"); got != tt.want {
			t.Errorf("%s: got Retry-After %q, want %q", tt.name, got, tt.want)
		}
	}
}
