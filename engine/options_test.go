package engine

import (
	"encoding/json"
	"testing"
	"time"
)

func TestOptionsJSONSpeaksSeconds(t *testing.T) {
	tests := []struct {
		opts Options
		want string
	}{
		{Standard(4), `{"seats":4,"sneak":2,"window_seconds":6,"pace":"brisk","penalty":{"cards":1},"grace_seconds":0.15,"play_on":false,"practice":false}`},
		{Options{Seats: 10, Sneak: 0, Window: 4 * time.Second, Pace: Relaxed, Penalty: Penalty{Cards: 2, PerCard: true}},
			`{"seats":10,"sneak":0,"window_seconds":4,"pace":"relaxed","penalty":{"cards":2,"per_card":true},"grace_seconds":0,"play_on":false,"practice":false}`},
		{Options{Seats: 5, Sneak: 1, Window: 10 * time.Second, Pace: Brisk, Penalty: StandardPenalty, Grace: 230 * time.Millisecond,
			PlayOn: true, Practice: true},
			`{"seats":5,"sneak":1,"window_seconds":10,"pace":"brisk","penalty":{"cards":1},"grace_seconds":0.23,"play_on":true,"practice":true}`},
	}
	for _, tt := range tests {
		b, err := json.Marshal(tt.opts)
		if err != nil || string(b) != tt.want {
			t.Errorf("got %s (%v), want %s", b, err, tt.want)
		}
		var back Options
		if err := json.Unmarshal(b, &back); err != nil || back != tt.opts {
			t.Errorf("round trip got %+v (%v), want %+v", back, err, tt.opts)
		}
	}
}
