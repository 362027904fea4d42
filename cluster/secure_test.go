package cluster

import (
	"bufio"
	"crypto/tls"
	"errors"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
)

func TestOpenRoutesRefused(t *testing.T) {
	n, err := StartNATS(t.Context(), NATSConfig{Name: "open", Listen: "127.0.0.1:0"})
	if err == nil {
		n.Close()
	}
	if !errors.Is(err, ErrOpenRoutes) {
		t.Errorf("StartNATS with neither secret nor TLS: got %v, want %v", err, ErrOpenRoutes)
	}
}

// TestClientPortTakesOnlyTheNode: the embedded server's client port, which
// every local process can reach, takes no connection but the node's own.
func TestClientPortTakesOnlyTheNode(t *testing.T) {
	node := startMesh(t, 1)[0]
	url := node.srv.ClientURL()
	for _, tt := range []struct {
		name string
		opts []nats.Option
	}{
		{"no credentials", nil},
		{"a guessed user", []nats.Option{nats.UserInfo("node", "")}},
		{"the route secret", []nats.Option{nats.UserInfo(routeUser, testSecret)}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			opts := append([]nats.Option{nats.Timeout(5 * time.Second)}, tt.opts...)
			c, err := nats.Connect(url, opts...)
			if err == nil {
				c.Close()
				t.Fatalf("connecting to %s with %s: got a connection, want it refused", url, tt.name)
			}
			if !errors.Is(err, nats.ErrAuthorization) && !strings.Contains(strings.ToLower(err.Error()), "authorization") {
				t.Errorf("connecting with %s: got %v, want an authorization violation", tt.name, err)
			}
		})
	}
}

// TestRoutePortRefusesStrangers: a route that brings no secret, or the
// wrong one, is told it is not authorized before it can subscribe.
func TestRoutePortRefusesStrangers(t *testing.T) {
	node := startMesh(t, 1)[0]
	for _, tt := range []struct {
		name, connect string
	}{
		{"no credentials", `CONNECT {"verbose":false,"pedantic":false,"name":"intruder","cluster":"bullshit"}`},
		{"the wrong secret", `CONNECT {"verbose":false,"pedantic":false,"user":"bullshit","pass":"guess","name":"intruder","cluster":"bullshit"}`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			conn, err := net.DialTimeout("tcp", node.ClusterAddr(), 5*time.Second)
			if err != nil {
				t.Fatal(err)
			}
			defer conn.Close()
			r := bufio.NewReader(conn)
			if _, err := r.ReadString('\n'); err != nil { // the server's INFO
				t.Fatalf("reading INFO: %v", err)
			}
			if _, err := conn.Write([]byte(tt.connect + "\r\nSUB bullshit.> 1\r\nPING\r\n")); err != nil {
				t.Fatal(err)
			}
			got := readUntilClosed(t, r)
			if !strings.Contains(got, "Authorization Violation") || strings.Contains(got, "PONG") {
				t.Errorf("a route with %s: got %q, want an authorization violation and no PONG", tt.name, got)
			}
		})
	}
}

// TestTLSRoutesRefuseStrangers: with mutual TLS on the routes, a peer
// without a certificate, or with one of another CA, never gets past the
// handshake.
func TestTLSRoutesRefuseStrangers(t *testing.T) {
	dir, other := t.TempDir(), t.TempDir()
	node := startMeshWith(t, 1, func(_ int, cfg *NATSConfig) { cfg.TLS = writeCerts(t, dir, "node0") })[0]
	load := func(f TLSFiles) []tls.Certificate {
		pair, err := tls.LoadX509KeyPair(f.Cert, f.Key)
		if err != nil {
			t.Fatal(err)
		}
		return []tls.Certificate{pair}
	}
	for _, tt := range []struct {
		name  string
		certs []tls.Certificate
		in    bool
	}{
		{"no certificate", nil, false},
		{"another CA's certificate", load(writeCerts(t, other, "intruder")), false},
		{"the cluster's own certificate", load(writeCerts(t, dir, "node1")), true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			conn, err := net.DialTimeout("tcp", node.ClusterAddr(), 5*time.Second)
			if err != nil {
				t.Fatal(err)
			}
			defer conn.Close()
			// The route port starts with the TLS handshake: a stranger
			// reads not even its INFO before proving itself.
			tc := tls.Client(conn, &tls.Config{InsecureSkipVerify: true, Certificates: tt.certs}) //nolint:gosec // the test checks the node's side only
			_ = tc.SetDeadline(time.Now().Add(10 * time.Second))
			// TLS 1.3 reports a refused client certificate on the first
			// read, not in the handshake.
			line, err := bufio.NewReader(tc).ReadString('\n')
			if got := err == nil && strings.HasPrefix(line, "INFO"); got != tt.in {
				t.Errorf("a route with %s: got the INFO %v (%q, %v), want %v", tt.name, got, line, err, tt.in)
			}
		})
	}
}

// readUntilClosed reads what the server sends until it closes the
// connection (bounded: the bound guards a hang, it times nothing).
func readUntilClosed(t *testing.T, r *bufio.Reader) string {
	t.Helper()
	var b strings.Builder
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		line, err := r.ReadString('\n')
		b.WriteString(line)
		if err != nil {
			break
		}
	}
	return b.String()
}
