package live

import (
	"context"
	"errors"

	"bullshit/naming"
	"bullshit/naming/lookalike"
	"bullshit/store"
)

// guestName refuses a guest's name that is an account's (by naming.Key) or
// looks like one (by lookalike.Key): only the account may play under it.
func (m *Manager) guestName(ctx context.Context, name string) error {
	a, err := m.st.AccountByLookalike(ctx, lookalike.Key(name))
	if errors.Is(err, store.ErrNotFound) {
		if key, kerr := naming.Key(name); kerr == nil {
			a, err = m.st.AccountByName(ctx, key)
		}
	}
	switch {
	case errors.Is(err, store.ErrNotFound):
		return nil
	case err != nil:
		return m.unsaved("", err)
	}
	return naming.LooksLike(name, a.Name)
}
