package server

import (
	"context"

	"bullshit/live"
	"bullshit/ops"
)

// clusterOperations adds to a node's metrics and readiness what the tables
// report of the cluster: their readiness (recovered and, in a cluster, the
// lease held), and the ownership's counts. On a single node only the
// readiness applies, and the counts stay out of the scrape rather than sit
// at 0. The mesh adds NATS's (Mesh.operate).
func clusterOperations(metrics *ops.Metrics, ready *ops.Ready, mgr *live.Manager, mesh *Mesh) {
	ready.Add("tables", func(context.Context) error { return mgr.Ready() })
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
