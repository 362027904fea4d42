package arenasim

import "errors"

var errNothing = errors.New("arenasim: a seat named to act had nothing to do")

// mix derives a well-spread seed from a seed and an index (SplitMix64's
// finaliser), so each game's and each pairing's seed depends only on the
// arena's seed and its number.
func mix(seed, i uint64) uint64 {
	x := seed ^ (i * 0x9e3779b97f4a7c15)
	x += 0x9e3779b97f4a7c15
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9
	x = (x ^ (x >> 27)) * 0x94d049bb133111eb
	return x ^ (x >> 31)
}
