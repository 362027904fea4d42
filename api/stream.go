package api

import (
	"encoding/json"
	"strconv"
	"time"

	"bullshit/game"
	"bullshit/push"
)

// FormatJSON is the event streams' format for programs: each event is a
// seat's view as JSON, its id the view's version.
const FormatJSON = "json"

// JSONEncoder encodes a frame's view for the API's event stream. A frame
// without a view (before the start) has nothing to send, and one whose view
// did not move on (an away mark, a join) is ordered with the one before it,
// so it is not sent again.
var JSONEncoder = push.EncoderFunc(func(f game.Frame, _ time.Time) (push.Event, bool, error) {
	if f.View == nil {
		return push.Event{}, false, nil
	}
	data, err := json.Marshal(f.View)
	if err != nil {
		return push.Event{}, false, err
	}
	return push.Event{ID: strconv.Itoa(f.View.Version), Key: f.View.Version, Data: data}, true, nil
})
