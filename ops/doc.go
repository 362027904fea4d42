// Package ops is what an operator sees of a running server: /metrics in
// Prometheus's text format, on a registry of the server's own, and the
// probes /livez (the process answers) and /readyz (it can serve: a list of
// named checks others add to, failing while the node drains).
//
// The probes and /metrics are served ahead of the router's own middleware
// (see server.New): unauthenticated, never rate limited, never logged per
// request, and never counted among the requests they would report.
package ops
