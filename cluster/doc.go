// Package cluster joins several `bullshit serve` nodes on one PostgreSQL
// into one site: NATS carries the messages between them (NATS), a call about
// a table running on another node is sent to that node by request and reply
// (Service), and the frames a table publishes reach the streams that follow it
// on every node (Relay). PostgreSQL stays the only authority on who runs a
// table (see package live): NATS is at-most-once, so everything sent over it
// is either retried until answered or stamped so a reader can tell a stale
// or missing message and read afresh.
package cluster
