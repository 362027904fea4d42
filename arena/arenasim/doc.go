// Package arenasim plays whole simulated arenas to measure that the arena's
// scoring rewards nothing but playing well.
//
// An arena (Config) is its rules, its length, the tables' options and its
// entrants, each a bot's level and style for its strength and a Behaviour:
// playing normally, waiting for the biggest table, leaving a losing game,
// or pausing after a win. Run plays one: everyone waits from the start,
// the director pairs the pool by arena.Pair every Tick and whenever someone
// begins to wait, each table is played out by its bots on the tables' one
// clock (package drive, as the live tables keep it), results are recorded
// as games end (a leave when the entrant leaves), and no table opens after
// the end. The Report holds every result, table and the standings.
//
// Measure plays many seeded arenas on every core and gives each level and
// behaviour's points an hour and a game, and its gain over the entrants of
// its level playing normally, with 95% intervals, under each of Rules: the
// arena's and the first rule tried. BySize gives the mean points a game at
// each table size. docs/arena.md has the commands and the figures.
//
// Like the engine, a run reads no clock and is fully determined by its
// config and seed; only Measure uses goroutines, one arena to each.
package arenasim
