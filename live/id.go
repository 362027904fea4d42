package live

// idLen is the length of a game code newID makes.
const idLen = 8

// ValidID reports whether id could be a game code newID made: 8 characters of
// the lowercase base32 alphabet. A caller checks it before any look-up, so
// anything else (a NUL byte, a path's worth of text) is "no such game"
// without reaching the store.
func ValidID(id string) bool {
	if len(id) != idLen {
		return false
	}
	for _, c := range []byte(id) {
		if (c < 'a' || c > 'z') && (c < '2' || c > '7') {
			return false
		}
	}
	return true
}
