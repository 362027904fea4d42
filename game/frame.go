package game

import "bullshit/engine"

// Frame is one seat's whole screen at one moment: the table as anyone may
// see it (seats, names, away and covered marks, the host, the status) and,
// once the game has started, the seat's own view of the game. A table
// publishes a frame for every seat and one for spectators after every change
// it makes, the waiting room's included.
type Frame struct {
	// Revision counts the changes the table has published: it moves on with
	// every move and tick, and also on joins, leaves, bots added or removed,
	// away marks and the start, which the view's Version does not see.
	Revision int
	// Epoch is the owner epoch of the table that made the frame: in a
	// cluster it goes up each time the table moves to another node, whose
	// revisions count afresh; 0 on a single server.
	Epoch int64
	Game  Summary
	// Seat is the seat the frame was made for, or engine.Spectator.
	Seat int
	// View is the seat's view of the game; nil before the start.
	View *engine.View
	// Final is the game's last frame: its streams close after it.
	Final bool
	// Ratings are the accounts' seats' rating changes once the game is
	// stored as over (the result sheet's); empty before, and for a game
	// without accounts.
	Ratings []RatingChange
}
