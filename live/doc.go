// Package live runs the tables being played: one goroutine owns each table's
// engine state, wakes at the engine's deadline or a bot's think time, stores
// every action before acknowledging it, and pushes each seat's new view to a
// Publisher. It rebuilds unfinished games from the store on start. As one
// node of a cluster on PostgreSQL (Config.Node) it runs only the tables
// it holds: it holds its lease as a lease.Session, a new one after a lapse
// (lease.go), claims the games of nodes whose lease ran out, and fences
// every write on the epoch it claimed them at (claims.go). The Manager is the game.Service of a single server, and the
// local one a cluster node's Tables send calls to.
package live

import "bullshit/game"

var _ game.Service = (*Manager)(nil)
