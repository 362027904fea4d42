package client

import (
	"bufio"
	"errors"
	"slices"
	"strings"
	"testing"
)

type event struct{ id, data string }

func collect(t testing.TB, stream string) ([]event, error) {
	t.Helper()
	var got []event
	err := readEvents(strings.NewReader(stream), func(id string, data []byte) error {
		got = append(got, event{id, string(data)})
		return nil
	})
	return got, err
}

func TestReadEvents(t *testing.T) {
	tests := []struct {
		name, stream string
		want         []event
	}{
		{"one event", "id: 3\ndata: {\"a\":1}\n\n", []event{{"3", `{"a":1}`}}},
		{"pings are skipped", ": ping\n\nid: 4\ndata: x\n\n: ping\n\n", []event{{"4", "x"}}},
		{"data over several lines", "data: a\ndata: b\n\n", []event{{"", "a\nb"}}},
		{"no space after the colon", "id:5\ndata:y\n\n", []event{{"5", "y"}}},
		{"an event without data is none", "id: 6\n\nid: 7\ndata: z\n\n", []event{{"7", "z"}}},
		{"an unfinished event is dropped", "id: 8\ndata: w\n", nil},
		{"unknown fields are ignored", "event: view\nretry: 10\ndata: v\n\n", []event{{"", "v"}}},
		{"CRLF line ends", "id: 9\r\ndata: u\r\n\r\n", []event{{"9", "u"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := collect(t, tt.stream)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}

func TestReadEventsStopsOnTheCallersError(t *testing.T) {
	stop := errors.New("enough")
	calls := 0
	err := readEvents(strings.NewReader("data: a\n\ndata: b\n\n"), func(string, []byte) error {
		calls++
		return stop
	})
	if !errors.Is(err, stop) || calls != 1 {
		t.Errorf("got %v after %d calls, want the caller's error after 1", err, calls)
	}
}

func TestReadEventsRefusesAGiantEvent(t *testing.T) {
	_, err := collect(t, "data: "+strings.Repeat("x", maxEvent+1)+"\n\n")
	if !errors.Is(err, bufio.ErrTooLong) {
		t.Errorf("got %v, want %v", err, bufio.ErrTooLong)
	}
}

func FuzzReadEvents(f *testing.F) {
	for _, s := range []string{"id: 3\ndata: {}\n\n", ": ping\n\n", "data: a\ndata: b\n\n", "id\n\ndata\n\n", "\r\n\r\n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, stream string) {
		got, err := collect(t, stream)
		if err != nil {
			t.Fatalf("got %v for a stream within the size limit", err)
		}
		for _, e := range got {
			if strings.Contains(e.id, "\n") {
				t.Errorf("got the id %q, want one line", e.id)
			}
		}
	})
}
