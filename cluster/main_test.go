package cluster

import (
	"testing"

	"go.uber.org/goleak"
)

// TestMain fails the package's tests if any goroutine outlives them: the
// embedded servers, the connections, the followers and the calls each end
// with their context or their Close.
func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }
