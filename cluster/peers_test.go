package cluster

import (
	"context"
	"testing"
	"time"

	"bullshit/store"
)

func TestInMesh(t *testing.T) {
	at := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	live := func(ids ...string) []store.LiveNode {
		var out []store.LiveNode
		for i, id := range ids {
			out = append(out, store.LiveNode{ID: id, Since: at.Add(time.Duration(i) * time.Second)})
		}
		return out
	}
	tests := []struct {
		name     string
		nodes    []store.LiveNode // longest-held first
		answered []bool
		in       bool
	}{
		{"alone", live("a"), []bool{true}, true},
		{"alone, before its lease is in the store", nil, nil, true},
		{"three, all reached", live("a", "b", "self"), []bool{true, true, true}, true},
		{"three, one dead", live("a", "b", "self"), []bool{true, false, true}, true},
		{"three, cut off", live("a", "b", "self"), []bool{false, false, true}, false},
		{"an island beside three", live("a", "b", "c", "self"), []bool{false, false, false, true}, false},
		{"three beside an island", live("a", "self", "b", "island"), []bool{true, true, true, false}, true},
		{"a pair cut in two, the older side", live("self", "b"), []bool{true, false}, true},
		{"a pair cut in two, the newer side", live("a", "self"), []bool{false, true}, false},
		{"four cut in two, with the oldest", live("a", "self", "c", "d"), []bool{true, true, false, false}, true},
		{"four cut in two, without the oldest", live("a", "b", "self", "d"), []bool{false, false, true, true}, false},
		{"its own lease lapsed, the others live", live("a", "b"), []bool{false, false}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := inMesh("self", tt.nodes, tt.answered)
			if got := err == nil; got != tt.in {
				t.Errorf("inMesh: got in %v (%v), want %v", got, err, tt.in)
			}
		})
	}
}

// TestPeersFindAnIsland: a node whose routes reach nobody is out of the
// mesh while its peers, which reach each other, are in.
func TestPeersFindAnIsland(t *testing.T) {
	nodes := startMesh(t, 2)
	island, err := StartNATS(t.Context(), NATSConfig{Name: "island", Listen: "127.0.0.1:0", RouteSecret: testSecret,
		Routes: []string{"127.0.0.1:1"}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(island.Close)
	alive := []store.LiveNode{{ID: "node0"}, {ID: "node1"}, {ID: "island"}}
	liveNodes := func(context.Context) ([]store.LiveNode, error) { return alive, nil }
	start := func(name string, n *NATS) *Peers {
		ctx, cancel := context.WithCancel(t.Context())
		p := NewPeers(PeersConfig{Node: name, Conn: n.Conn, Live: liveNodes, Every: 20 * time.Millisecond, Wait: 200 * time.Millisecond})
		if err := p.Start(ctx); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { cancel(); p.Wait() })
		return p
	}
	a, b, i := start("node0", nodes[0]), start("node1", nodes[1]), start("island", island)
	waitFor(t, "the checks", func() bool {
		return a.Ready() != errNotChecked && b.Ready() != errNotChecked && i.Ready() != errNotChecked
	})
	waitFor(t, "the routed nodes in the mesh", func() bool { return a.In() && b.In() })
	if err := i.Ready(); err == nil {
		t.Errorf("the island's Ready: got nil, want it out of the mesh")
	}
}
