package cluster

import (
	"context"
	"fmt"
	"os"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
)

// testSecret is the tests' route secret.
const testSecret = "a-route-secret-for-tests"

// startMesh starts n embedded servers routed to the first one on loopback,
// sharing the route secret, and waits until each has routes to all the
// others.
func startMesh(t testing.TB, n int) []*NATS {
	t.Helper()
	return startMeshWith(t, n, func(_ int, cfg *NATSConfig) { cfg.RouteSecret = testSecret })
}

// startMeshWith is startMesh with each node's config set by secure.
func startMeshWith(t testing.TB, n int, secure func(i int, cfg *NATSConfig)) []*NATS {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	var nodes []*NATS
	t.Cleanup(func() {
		cancel()
		for _, node := range nodes {
			node.Close()
		}
	})
	for i := range n {
		cfg := NATSConfig{Name: fmt.Sprintf("node%d", i), Listen: "127.0.0.1:0"}
		secure(i, &cfg)
		if i > 0 {
			cfg.Routes = []string{nodes[0].ClusterAddr()}
		}
		node, err := StartNATS(ctx, cfg)
		if err != nil {
			t.Fatalf("StartNATS(%s): %v", cfg.Name, err)
		}
		nodes = append(nodes, node)
	}
	waitFor(t, "every route", func() bool {
		for _, node := range nodes {
			if node.Routes() < n-1 {
				return false
			}
		}
		return true
	})
	return nodes
}

// waitFor polls cond until it holds, failing the test after a generous
// bound: the bound is a hang's guard, not a timing assertion.
func waitFor(t testing.TB, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("waiting for %s: gave up", what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func TestEmbeddedServersRouteMessages(t *testing.T) {
	certs := t.TempDir()
	for _, tt := range []struct {
		name   string
		secure func(i int, cfg *NATSConfig)
	}{
		{"secret", func(_ int, cfg *NATSConfig) { cfg.RouteSecret = testSecret }},
		{"mutual TLS", func(i int, cfg *NATSConfig) { cfg.TLS = writeCerts(t, certs, fmt.Sprintf("node%d", i)) }},
		{"both", func(i int, cfg *NATSConfig) {
			cfg.RouteSecret, cfg.TLS = testSecret, writeCerts(t, certs, fmt.Sprintf("node%d", i))
		}},
		{"insecure", func(_ int, cfg *NATSConfig) { cfg.Insecure = true }},
	} {
		t.Run(tt.name, func(t *testing.T) { checkRouted(t, startMeshWith(t, 3, tt.secure)) })
	}
}

// writeCerts makes node's certificate for loopback, and the CA in dir the
// first time.
func writeCerts(t testing.TB, dir, node string) TLSFiles {
	t.Helper()
	files, err := WriteCerts(dir, node, []string{"127.0.0.1", "localhost"})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// checkRouted checks that every node's messages reach every other node.
func checkRouted(t *testing.T, nodes []*NATS) {
	t.Helper()
	for i, from := range nodes {
		for j, to := range nodes {
			if i == j {
				continue
			}
			subject := fmt.Sprintf("test.%d.%d", i, j)
			sub, err := to.Conn.Subscribe(subject, func(m *nats.Msg) { _ = m.Respond(append([]byte("from "), m.Data...)) })
			if err != nil {
				t.Fatal(err)
			}
			// Interest spreads between servers asynchronously: a request
			// may find no responders until it has.
			var got []byte
			waitFor(t, subject, func() bool {
				m, err := from.Conn.Request(subject, []byte(fmt.Sprint(i)), time.Second)
				if err != nil {
					return false
				}
				got = m.Data
				return true
			})
			if want := fmt.Sprintf("from %d", i); string(got) != want {
				t.Errorf("%s: got %q, want %q", subject, got, want)
			}
			_ = sub.Unsubscribe()
		}
	}
	for i, node := range nodes {
		if err := node.Ready(); err != nil {
			t.Errorf("node %d Ready: got %v, want nil", i, err)
		}
	}
}

func TestClosedWithItsContext(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	n, err := StartNATS(ctx, NATSConfig{Name: "alone", Listen: "127.0.0.1:0", RouteSecret: testSecret})
	if err != nil {
		t.Fatal(err)
	}
	cancel()
	<-n.Done()
	if err := n.Ready(); err == nil {
		t.Errorf("Ready after the context ended: got nil, want an error")
	}
	n.Close() // a second close is harmless
}

func TestConnectByURL(t *testing.T) {
	url := os.Getenv("BULLSHIT_TEST_NATS")
	if url == "" {
		t.Skip("BULLSHIT_TEST_NATS is unset (say nats://127.0.0.1:4222): no NATS server to connect to")
	}
	n, err := StartNATS(t.Context(), NATSConfig{Name: "by-url", URL: url})
	if err != nil {
		t.Fatal(err)
	}
	defer n.Close()
	if err := n.Ready(); err != nil {
		t.Errorf("Ready: got %v, want nil", err)
	}
}

func TestNATSConfigRefused(t *testing.T) {
	tests := []struct {
		name string
		cfg  NATSConfig
	}{
		{"neither", NATSConfig{}},
		{"both", NATSConfig{URL: "nats://127.0.0.1:4222", Listen: "127.0.0.1:0"}},
		{"bad listen", NATSConfig{Listen: "nowhere", RouteSecret: testSecret}},
		{"bad route", NATSConfig{Listen: "127.0.0.1:0", RouteSecret: testSecret, Routes: []string{"nats-route://"}}},
		{"open routes", NATSConfig{Listen: "127.0.0.1:0"}},
		{"half the TLS", NATSConfig{Listen: "127.0.0.1:0", TLS: TLSFiles{Cert: "node.pem"}}},
		{"a route secret for a URL", NATSConfig{URL: "nats://127.0.0.1:4222", RouteSecret: testSecret}},
		{"a certificate without its key", NATSConfig{URL: "nats://127.0.0.1:4222", TLS: TLSFiles{Cert: "node.pem"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if n, err := StartNATS(t.Context(), tt.cfg); err == nil {
				n.Close()
				t.Errorf("StartNATS: got nil, want an error")
			}
		})
	}
}
