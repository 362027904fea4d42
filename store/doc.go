// Package store keeps the server's lasting state in a database with bun, on
// SQLite (a file, the default) or PostgreSQL, one schema for both migrated by
// bun's migrate package (migrations/). It holds:
//
//   - games: their settings and seats (Game, Seat), the log of the actions
//     the engine accepted with their times (Action, appended in order with
//     AppendAction and checked with Settle), which is all a restart needs to
//     rebuild a game by replaying it (EachRunning, Running), and their
//     results (Result, written by FinishGame with the ratings they change);
//     listed and searched for the lobby and the players' pages (ListGames,
//     SearchGames);
//   - accounts: names with password hashes and look-alike keys, browser
//     sessions and API tokens, each kept only as a hash (Account, Session,
//     APIToken);
//   - ratings: each account's current rating, every rated game's change,
//     the leaderboard and a player's history and places (Rating, Rater,
//     PlayerGame, Ranked, RatingHistory, Places);
//   - the time the server was last alive (MarkAlive), so a restart can tell
//     how long it was down;
//   - when several servers share a PostgreSQL database, each one's lease
//     and each game's owner and epoch (nodes.go: RenewLease, ClaimOrphans),
//     every write of a game by its table being fenced on them (Fence,
//     ErrFenced);
//   - arenas: timed events of tables formed one after another (Arena), their
//     entries in every state they reach (ArenaEntry), each table formed with
//     its link to the arena in one transaction (CreateArenaGame), and each
//     entrant's result written with the game's finish (ArenaResult), the
//     standings' whole input; directed by one node at a time, claimed and
//     fenced as games are (arenas.go, arena_entries.go, arena_games.go,
//     arena_claims.go).
//
// The rows are how things are written (records.go maps the engine's options
// and actions to stored words, fastaction.go reads them back quickly); the
// meaning is the engine's and live's. Writes from many tables share SQLite
// transactions through one committer (writer.go). Errors a caller can act on
// are values such as ErrNotFound, ErrNotNext and ErrFenced, matched with
// errors.Is.
package store
