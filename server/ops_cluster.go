package server

import (
	"context"

	"bullshit/live"
	"bullshit/ops"
)

// clusterOperations adds to a node's metrics and readiness what the lease
// and the mesh report: the tables' readiness (recovered and, in a cluster,
// the lease held), NATS's connection, and the cluster's counts. On a single
// node only the tables' readiness applies, and the cluster's counts stay
// out of the scrape rather than sit at 0.
func clusterOperations(metrics *ops.Metrics, ready *ops.Ready, mgr *live.Manager, mesh *Mesh) {
	ready.Add("tables", func(context.Context) error { return mgr.Ready() })
	if mesh == nil {
		return
	}
	ready.Add("nats", func(context.Context) error { return mesh.Ready() })
	metrics.Counter("claims_total", "Games this node claimed from a node whose lease had run out (or took back).",
		func() int64 { return mgr.Stats().Claims })
	metrics.Counter("fenced_writes_total", "Writes of this node's tables the fence refused: the game had moved to another node.",
		func() int64 { return mgr.Stats().Fenced })
	metrics.Counter("lease_renewals_late_total", "Lease renewals that failed, were skipped or took longer than the time between two.",
		func() int64 { return mgr.Stats().LateRenewals })
	metrics.Counter("nats_requests_total", "Calls about a table sent over NATS to the node running it.",
		func() int64 { return mesh.Tables.Stats().Forwarded })
	metrics.Counter("nats_request_retries_total", "Calls over NATS tried again: no responders, a timeout, or the table moved.",
		func() int64 { return mesh.Tables.Stats().Retried })
	metrics.Counter("nats_request_failures_total", "Calls over NATS given up: the caller's time ran out.",
		func() int64 { return mesh.Tables.Stats().Failed })
	metrics.Counter("nats_frames_published_total", "Frames published over NATS for the streams on other nodes.",
		func() int64 { return mesh.Frames.Stats().Published })
	metrics.Counter("nats_frames_received_total", "Frames received over NATS for this node's streams.",
		func() int64 { return mesh.Frames.Stats().Received })
	metrics.Counter("nats_frames_stale_total", "Frames received over NATS and dropped as older than one sent already.",
		func() int64 { return mesh.Frames.Stats().Stale })
	metrics.Counter("nats_frame_reads_total", "Fresh frames asked of a table's owner after a gap or a change of owner.",
		func() int64 { return mesh.Frames.Stats().Reads })
	metrics.Counter("nats_slow_consumer_drops_total", "Times NATS dropped messages for a subscriber of this node that fell behind.",
		func() int64 { return int64(mesh.NATS.SlowConsumers()) })
}
