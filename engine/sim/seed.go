package sim

import "errors"

var errNothing = errors.New("a deciding seat's bot had nothing to do")

// mix derives a well-spread seed from a run's seed and an index, so that
// each game's seed depends only on them (SplitMix64's finaliser).
func mix(seed, i uint64) uint64 {
	x := seed ^ (i * 0x9e3779b97f4a7c15)
	x += 0x9e3779b97f4a7c15
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9
	x = (x ^ (x >> 27)) * 0x94d049bb133111eb
	return x ^ (x >> 31)
}
