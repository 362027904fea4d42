package client

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"

	"bullshit/engine"
)

// maxEvent bounds one event's size; a ten-seat view is a few KiB.
const maxEvent = 1 << 20

// Events follows the seat's event stream (the spectator's without a token),
// calling fn with each view in order, until the server ends the stream (nil),
// ctx ends, or fn returns an error (returned as is).
func (c *Client) Events(ctx context.Context, game string, fn func(engine.View) error) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, c.base+gamePath(game, "/events"), nil)
	if err != nil {
		return err
	}
	req.Header.Set("Accept", "text/event-stream")
	if c.token != "" {
		req.Header.Set("Authorization", "Bearer "+c.token)
	}
	resp, err := c.http.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode == http.StatusNoContent {
		return nil // the game is over and nothing more will come
	}
	if resp.StatusCode != http.StatusOK {
		return readError(resp)
	}
	return readEvents(resp.Body, func(id string, data []byte) error {
		var v engine.View
		if err := json.Unmarshal(data, &v); err != nil {
			return fmt.Errorf("reading event %s: %w", id, err)
		}
		return fn(v)
	})
}

// readEvents splits a text/event-stream into events, calling fn with each
// one's id and data; comments (pings) are skipped.
func readEvents(r interface{ Read([]byte) (int, error) }, fn func(id string, data []byte) error) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), maxEvent)
	var id string
	var data []byte
	for sc.Scan() {
		line := sc.Bytes()
		switch {
		case len(line) == 0:
			if data != nil {
				if err := fn(id, data); err != nil {
					return err
				}
			}
			id, data = "", nil
		case line[0] == ':':
		default:
			field, value, _ := bytes.Cut(line, []byte(":"))
			value = bytes.TrimPrefix(value, []byte(" "))
			switch string(field) {
			case "id":
				id = string(value)
			case "data":
				if data != nil {
					data = append(data, '\n')
				}
				data = append(data, value...)
			}
		}
	}
	return sc.Err()
}
