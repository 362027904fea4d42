package main

import (
	"context"
	"os"
	"testing"
	"time"

	"bullshit/live"
	"bullshit/store/storetest"
)

// TestMain lets the process mode start this test binary as a node: a child
// is told so by its route secret in the environment.
func TestMain(m *testing.M) {
	if os.Getenv(childEnv) != "" {
		main()
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// TestProcessRunPlaysOnEveryNode: a short run of two nodes in processes of
// their own on one PostgreSQL schema stores moves on each and reports
// every node's timings, gathered into the whole run's.
func TestProcessRunPlaysOnEveryNode(t *testing.T) {
	url := os.Getenv(storetest.PostgresEnv)
	if url == "" {
		t.Skipf("%s is not set to a PostgreSQL URL: the process mode runs its nodes on PostgreSQL", storetest.PostgresEnv)
	}
	o := clusterOpts{nodes: 2, tables: 6, seats: 3, window: 4 * time.Second, warmup: 2 * time.Second, duration: 3 * time.Second,
		lease: time.Second, postgres: url, quiet: true}
	r, err := runProcs(context.Background(), o, 0)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := r.names, []string{"n0", "n1"}; len(got) != len(want) || got[0] != want[0] || got[1] != want[1] {
		t.Fatalf("nodes reported: got %v, want %v", got, want)
	}
	var most int64
	for i, s := range r.nodes {
		if s.Actions == 0 {
			t.Errorf("node %s: got no actions stored, want some", r.names[i])
		}
		most = max(most, s.Queued.Count)
	}
	// Each node's own timings are in the gathered ones.
	if got := r.all[live.TimeQueued].Count; got <= most {
		t.Errorf("writer queue timings gathered: got %d, want more than the busiest node's %d", got, most)
	}
	if r.cpu <= 0 || r.elapsed <= 0 {
		t.Errorf("CPU and elapsed: got %v and %v, want both above zero", r.cpu, r.elapsed)
	}
}
