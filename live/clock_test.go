package live

import (
	"testing"
	"time"
)

func TestHistogramQuantiles(t *testing.T) {
	tests := []struct {
		name          string
		values        []time.Duration
		p50, p99, max time.Duration
	}{
		{"empty", nil, 0, 0, 0},
		{"one", []time.Duration{5 * time.Microsecond}, 5 * time.Microsecond, 5 * time.Microsecond, 5 * time.Microsecond},
		{"negative counts as zero", []time.Duration{-time.Second}, 0, 0, 0},
		// Quantiles read the top of their bucket: 500µs lies in 480-511µs.
		{"spread", spread(1000), 511 * time.Microsecond, 1000 * time.Microsecond, 1000 * time.Microsecond},
	}
	for _, tt := range tests {
		var h histogram
		for _, v := range tt.values {
			h.record(v)
		}
		l := h.latency()
		if l.Count != int64(len(tt.values)) || l.P50 != tt.p50 || l.P99 != tt.p99 || l.Max != tt.max {
			t.Errorf("%s: got %+v, want count %d p50 %v p99 %v max %v", tt.name, l, len(tt.values), tt.p50, tt.p99, tt.max)
		}
	}
}

// spread is 1µs, 2µs, ... n µs.
func spread(n int) []time.Duration {
	out := make([]time.Duration, n)
	for i := range out {
		out[i] = time.Duration(i+1) * time.Microsecond
	}
	return out
}
