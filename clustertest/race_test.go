//go:build race

package clustertest

// raced says the test binary has the race detector on: the failover test
// then skips, as make test runs it so and make cluster-test runs it
// without (the server processes it starts are never raced).
const raced = true
