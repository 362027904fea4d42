// Package arena is the pure core of arenas: timed events of table after
// table, entrants paired again as soon as they are free, points by place
// and live standings. It scores results, computes standings from them, and
// pairs a pool of waiting entrants into tables.
//
// Scoring: a place earns Base, Win times the share of the table beaten (a
// tie counting half), so a win is 100 at any size, last is 0 and the middle
// 50. The share is each player's mean result against every other seat, so
// a player of a given strength expects the same points a game at four seats
// as at ten: waiting for a bigger or a smaller table earns nothing but a
// longer wait. A result in the top half is good, the bottom half bad, the
// exact middle of an odd table neither; after Fire good results in a row
// each good result scores double, until a bad one. A game the entrant left
// scores nothing and breaks its streak. Score applies the rule to one
// result; Standings and Total apply it to an arena's results in the order
// they were recorded, so the standings are a pure function of the stored
// results, the same on every node and after a crash.
//
// Pairing: Pair takes the pool (each entrant with its points, rating, when
// it began to wait and its last tablemates), the Rules (table sizes, house
// bots, the wait for a full table, the end) and the time, and returns the
// tables to open, seated at random from a seed, and who waits on. Full
// tables form at once, gathering entrants near each other in points;
// smaller ones, and bots, only once someone has waited Rules.Wait. Seats
// are exchanged to part last tablemates wherever the pool allows.
//
// The package reads no clock (time is passed in), does no I/O, starts no
// goroutines and imports only the standard library. Package arenasim plays
// whole simulated arenas by it to measure that the scoring rewards nothing
// but playing well; docs/arena.md has the rule, its reasons and the
// measurements.
package arena
