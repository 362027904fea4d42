package clustertest

import (
	"bufio"
	"crypto/tls"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats.go"

	"bullshit/store/storetest"
)

// TestIntruders plays the local user who finds the nodes' ports with
// `ss -ltnp`: on every port a node listens on but its HTTP one, a NATS
// client with no credentials is refused, and so is a NATS server's route
// with none, with the wrong secret, or with TLS but no certificate of the
// cluster's CA. Refused there, it can read no frame, view no hand, store no
// move, end no game and forge no frame.
func TestIntruders(t *testing.T) {
	if !storetest.HavePostgres() {
		t.Skipf("the intruder test needs PostgreSQL: set %s", storetest.PostgresEnv)
	}
	if raced {
		t.Skip("runs without the race detector (make cluster-test), as the failover test does")
	}
	c := newCluster(t, storetest.PostgresURL(t), nodes, lease, speed)
	for _, nd := range c.nodes {
		c.start(nd)
	}
	for _, nd := range c.nodes {
		c.waitReady(nd, time.Minute)
	}
	for _, nd := range c.nodes {
		ports := listening(t, nd.pid())
		var probed int
		for _, port := range ports {
			addr := net.JoinHostPort("127.0.0.1", strconv.Itoa(port))
			if addr == nd.addr {
				continue
			}
			probed++
			t.Run(fmt.Sprintf("%s:%d", nd.name, port), func(t *testing.T) { probe(t, addr) })
		}
		// The route port and the client port.
		if probed < 2 {
			t.Errorf("%s: got %d ports besides HTTP (%v), want the NATS route and client ports", nd.name, probed, ports)
		}
	}
}

// probe tries every way in on addr, and checks each is refused.
func probe(t *testing.T, addr string) {
	conn, err := net.DialTimeout("tcp", addr, 5*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	_ = conn.SetReadDeadline(time.Now().Add(2 * time.Second))
	r := bufio.NewReader(conn)
	info, err := r.ReadString('\n')
	if err != nil {
		// Nothing said first: the route port, which starts with TLS.
		tc := tls.Client(conn, &tls.Config{InsecureSkipVerify: true}) //nolint:gosec // the intruder checks nothing
		_ = tc.SetDeadline(time.Now().Add(10 * time.Second))
		line, err := bufio.NewReader(tc).ReadString('\n')
		if err == nil {
			t.Errorf("a TLS route with no certificate: got %q, want the handshake refused", line)
		}
		return
	}
	if !strings.HasPrefix(info, "INFO ") {
		t.Fatalf("the first line: got %q, want NATS's INFO", info)
	}
	_ = conn.SetReadDeadline(time.Time{})
	// The client port: a stock client with no credentials, then a guessed
	// user, then the route's user with a guessed secret.
	for _, opts := range [][]nats.Option{nil, {nats.UserInfo("node", "")}, {nats.UserInfo("bullshit", "guess")}} {
		nc, err := nats.Connect("nats://"+addr, append(opts, nats.Timeout(5*time.Second))...)
		if err == nil {
			nc.Close()
			t.Errorf("a NATS client on %s: got a connection, want it refused", addr)
			continue
		}
		if !strings.Contains(strings.ToLower(err.Error()), "authorization") {
			t.Errorf("a NATS client on %s: got %v, want an authorization violation", addr, err)
		}
	}
	// The same port as a route, as a foreign server would connect: it
	// subscribes to every frame and call and pings.
	for _, creds := range []string{"", `"user":"bullshit","pass":"guess",`} {
		rc, err := net.DialTimeout("tcp", addr, 5*time.Second)
		if err != nil {
			t.Fatal(err)
		}
		rr := bufio.NewReader(rc)
		_ = rc.SetReadDeadline(time.Now().Add(10 * time.Second))
		if _, err := rr.ReadString('\n'); err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(rc, "CONNECT {%s\"verbose\":false,\"name\":\"intruder\",\"cluster\":\"bullshit\"}\r\nSUB bullshit.> 1\r\nPING\r\n", creds)
		var got strings.Builder
		for {
			line, err := rr.ReadString('\n')
			got.WriteString(line)
			if err != nil {
				break
			}
		}
		rc.Close()
		if s := got.String(); !strings.Contains(s, "Authorization Violation") || strings.Contains(s, "PONG") {
			t.Errorf("a route-like CONNECT (%q) on %s: got %q, want an authorization violation and no PONG", creds, addr, s)
		}
	}
}

// pid is the node's current process.
func (nd *node) pid() int {
	nd.mu.Lock()
	defer nd.mu.Unlock()
	return nd.cmd.Process.Pid
}

// listening is the TCP ports the process listens on, found as ss -ltnp
// finds them: its sockets' inodes among /proc/net/tcp's listeners.
func listening(t *testing.T, pid int) []int {
	t.Helper()
	fds, err := os.ReadDir(filepath.Join("/proc", strconv.Itoa(pid), "fd"))
	if err != nil {
		t.Skipf("the process's sockets can't be read here: %v", err)
	}
	inodes := map[string]bool{}
	for _, fd := range fds {
		link, err := os.Readlink(filepath.Join("/proc", strconv.Itoa(pid), "fd", fd.Name()))
		if err == nil && strings.HasPrefix(link, "socket:[") {
			inodes[strings.TrimSuffix(strings.TrimPrefix(link, "socket:["), "]")] = true
		}
	}
	var ports []int
	for _, table := range []string{"/proc/net/tcp", "/proc/net/tcp6"} {
		b, err := os.ReadFile(table)
		if err != nil {
			continue
		}
		for _, line := range strings.Split(string(b), "\n")[1:] {
			f := strings.Fields(line)
			// local_address, state (0A is LISTEN), inode.
			if len(f) < 10 || f[3] != "0A" || !inodes[f[9]] {
				continue
			}
			_, hexPort, _ := strings.Cut(f[1], ":")
			if p, err := strconv.ParseInt(hexPort, 16, 32); err == nil {
				ports = append(ports, int(p))
			}
		}
	}
	return ports
}
