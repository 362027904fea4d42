// Package web serves the game to browsers as HTML pages rendered by the
// views package, with htmx for moves and server-sent events for the pushes.
// It holds:
//
//   - the lobby (its live lists, a new table's settings, joining by code),
//     How to play and the player's assists (lobby.go, info.go);
//   - a game's one page: the waiting room, the table and the result sheet,
//     the moves posted from it and its event stream (pages.go); the hint
//     that words a claim before it is made (hint.go); which seat a browser
//     holds (identity.go);
//   - the frame a seat sees, translated from its engine view into the
//     views' models region by region (model.go, dock.go), and its pushes:
//     only the regions that changed since the seat's last frame (frames.go,
//     renderer.go, stream.go);
//   - a finished game's review, step by step (review.go, reviewmodel.go);
//   - accounts (sign up, sign in, sessions, API tokens), the leaderboard and
//     the players' pages with their rating charts (accounts.go,
//     standings.go);
//   - the static files, embedded, hashed and gzipped, the manifest and the
//     icon (assets.go, install.go), and the per-address limits (guard.go).
//
// Its handlers only translate: every rule is the engine's (a view carries all
// a page draws) and the live tables', reached through game.Service; the accounts are
// players', reached through Accounts. The pages' words are built with
// views/words.
package web
