package ops

import "time"

// RoutesAt is Routes with the allowance timed by now.
var RoutesAt = routes

// SetClock times the readiness's cache by now.
func (r *Ready) SetClock(now func() time.Time) { r.now = now }
