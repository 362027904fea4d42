package game

// Query picks games for a list, newest first: by status ("" for any), by a
// seat's name (matched without regard to case; "" for any), a page at a
// time (Limit 0 for all).
type Query struct {
	Status        Status
	Player        string
	Offset, Limit int
}
