package ops_test

import (
	"net/http"
	"net/http/httptest"
	"testing"

	"bullshit/ops"
)

// BenchmarkRequests is what the request metrics add to a request: the
// router's own cost is in both, so compare with BenchmarkUncounted.
func BenchmarkRequests(b *testing.B) {
	benchRouter(b, ops.NewMetrics(ops.Config{}), true)
}

func BenchmarkUncounted(b *testing.B) {
	benchRouter(b, ops.NewMetrics(ops.Config{}), false)
}

func benchRouter(b *testing.B, m *ops.Metrics, counted bool) {
	e := router(m, ops.NewReady(nil))
	if !counted {
		e = uncountedRouter()
	}
	req := httptest.NewRequest(http.MethodGet, "/games/abc", nil)
	b.ReportAllocs()
	for b.Loop() {
		e.ServeHTTP(discard{}, req)
	}
}

// BenchmarkScrape is one scrape of the registry with the Go and process
// collectors and a few hundred request series.
func BenchmarkScrape(b *testing.B) {
	m := ops.NewMetrics(ops.Config{})
	m.Watch(&fakeRuntime{open: 100, playing: 20000})
	m.Streams(func() int { return 40000 })
	e := router(m, ops.NewReady(nil))
	for range 100 {
		e.ServeHTTP(discard{}, httptest.NewRequest(http.MethodGet, "/games/abc", nil))
		e.ServeHTTP(discard{}, httptest.NewRequest(http.MethodPost, "/games/abc/play", nil))
	}
	req := httptest.NewRequest(http.MethodGet, ops.PathMetrics, nil)
	b.ReportAllocs()
	for b.Loop() {
		e.ServeHTTP(discard{}, req)
	}
}

type discard struct{}

func (discard) Header() http.Header         { return http.Header{} }
func (discard) Write(p []byte) (int, error) { return len(p), nil }
func (discard) WriteHeader(int)             {}
