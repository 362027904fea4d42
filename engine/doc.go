// Package engine is the complete rules of Bullshit (also called Cheat or
// I Doubt It) with the sneak: a pure, deterministic state machine.
//
// The rules in a paragraph: 3 to 10 players share every card of one deck (two
// from seven seats). Ranks are called in turn, aces to kings and round again,
// one per play. On your turn you put cards face down and claim some of them
// are the rank called; anything beyond the claim is sneaked under it, up to
// the table's limit. Everyone else then has a short call window to shout
// "Bullshit!". A called play is turned up: a lie (a wrong card, or any sneak)
// and its player takes the pile, the truth and the caller does; a caught
// sneaker is also handed cards of the caller's choosing. Hand sizes are shown
// only as roughly as a table would see them (Seen), so a sneak shows only when
// the counts give it away. The first player out wins, if their last play
// survives the call; the rest are placed by cards left.
//
// Use: New deals a game from Options and a seed. Apply makes a move at a
// given time and returns an *Error, with a message for the player, when the
// move is refused. Deadline says when the state next needs a Tick; Tick(now)
// settles every deadline due; End ends a game early, as a host may. A resume
// action (ActResume) is the server coming back after being down: every
// running clock moves on by the time it was down. Deciding names who may act
// now. View(seat) is the only way a secret leaves the state: what that seat
// may see, and what bots decide from (ViewInto fills the same view into a
// caller's arrays, for drivers that ask before every decision). Log(seat) is the game's log as that
// seat may read it.
//
// The package reads no clock (time is always passed in), does no I/O, starts
// no goroutines and imports only the standard library: a game is fully
// determined by its options, its seed and its actions with their times.
package engine
