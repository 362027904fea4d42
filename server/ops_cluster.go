package server

import (
	"context"

	"bullshit/live"
	"bullshit/ops"
)

// clusterOperations adds to a node's metrics and readiness what the tables
// report of themselves and the cluster: their readiness (recovered and, in
// a cluster, the lease held), whether the node is full, and the ownership's
// counts. On a single node only the
// readiness applies, and the counts stay out of the scrape rather than sit
// at 0. The mesh adds NATS's (Mesh.operate).
func clusterOperations(metrics *ops.Metrics, ready *ops.Ready, mgr *live.Manager, mesh *Mesh) {
	ready.Add("tables", func(context.Context) error { return mgr.Ready() })
	// A full node is not ready, so a balancer sends new tables elsewhere;
	// its tables' own requests still reach it by their game's address.
	ready.Add("capacity", func(context.Context) error { return mgr.Capacity() })
	metrics.Gauge("full", "1 while the node is full: its tables' timers or writes run later than its limit, and it refuses new tables and joins.",
		func() int64 {
			if mgr.Capacity() != nil {
				return 1
			}
			return 0
		})
	metrics.Counter("refused_full_total", "New tables and joins refused because the node was full.",
		func() int64 { return mgr.Stats().RefusedFull })
	if mesh == nil {
		return
	}
	metrics.Counter("claims_total", "Games this node claimed from a node whose lease had run out (or took back).",
		func() int64 { return mgr.Stats().Claims })
	metrics.Counter("fenced_writes_total", "Writes of this node's tables the fence refused: the game had moved to another node.",
		func() int64 { return mgr.Stats().Fenced })
	metrics.Counter("lease_renewals_late_total", "Lease renewals that failed, were skipped, started more than a period late or took longer than the time between two.",
		func() int64 { return mgr.Stats().LateRenewals })
}
