package clocks

import (
	"testing"
	"time"
)

func TestScaledRunsFaster(t *testing.T) {
	c := Scaled{Speed: 50}
	if got, want := c.Real(5*time.Second), 100*time.Millisecond; got != want {
		t.Errorf("Real(5s): got %v, want %v", got, want)
	}
	before := c.Now()
	timer := c.NewTimer(time.Second)
	<-timer.C()
	// A second of scaled time has passed once the timer fires, though only
	// about 20 ms of wall time has.
	if got := c.Now().Sub(before); got < time.Second {
		t.Errorf("scaled time passed by the timer's firing: got %v, want at least 1s", got)
	}
	timer.Reset(time.Second)
	<-timer.C()
	if got := c.Now().Sub(before); got < 2*time.Second {
		t.Errorf("scaled time passed after a reset: got %v, want at least 2s", got)
	}
}
