package main

import (
	"context"
	"os"
	"testing"
	"time"

	"bullshit/live"
	"bullshit/store/storetest"
)

// TestClusterRunTakesOver: a short cluster run on PostgreSQL plays on every
// node, and after the first node is stopped abruptly its peers run every
// one of its tables and store a move at each, by the figures it reports.
func TestClusterRunTakesOver(t *testing.T) {
	url := os.Getenv(storetest.PostgresEnv)
	if url == "" {
		t.Skipf("%s is not set to a PostgreSQL URL: the cluster mode runs its nodes on PostgreSQL", storetest.PostgresEnv)
	}
	o := clusterOpts{nodes: 3, tables: 6, seats: 3, window: 4 * time.Second, warmup: 2 * time.Second, duration: 2 * time.Second,
		lease: time.Second, postgres: url, takeover: true, quiet: true}
	r, err := runCluster(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.nodes) != o.nodes {
		t.Fatalf("nodes reported: got %d, want %d", len(r.nodes), o.nodes)
	}
	for i, s := range r.nodes {
		if s.Actions == 0 {
			t.Errorf("node %s: got no actions stored, want some", r.names[i])
		}
	}
	if n := r.all[live.TimeCommits].Count; n == 0 {
		t.Errorf("commits in all: got %d, want some", n)
	}
	to := r.takeover
	if to == nil {
		t.Fatal("got no takeover figures, want them")
	}
	if to.tables == 0 {
		t.Fatal("tables on the stopped node: got 0, want some")
	}
	if to.notRunning != 0 || to.noMove != 0 {
		t.Errorf("of %d tables taken over: got %d not running again and %d without a move, want 0 and 0", to.tables, to.notRunning, to.noMove)
	}
	if got := int(to.moved.Count) + to.over; got != to.tables {
		t.Errorf("tables timed to a move or over at the stop: got %d, want %d", got, to.tables)
	}
	var claims int64
	for _, n := range to.claims {
		claims += n
	}
	if claims < int64(to.tables) {
		t.Errorf("claims by the peers: got %d, want at least %d", claims, to.tables)
	}
}
