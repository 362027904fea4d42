//go:build race

package engine

// raceEnabled: the race detector slows the engine several times over and has
// nothing to find in it (it starts no goroutines), so the long random-game
// tests play fewer games under it.
const raceEnabled = true
