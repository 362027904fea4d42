package clustertest

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	mesh "bullshit/cluster"
	"bullshit/store/storetest"
)

// cluster is the test's three serve processes and what it knows of them.
type cluster struct {
	t     *testing.T
	bin   string
	dir   string
	lease time.Duration
	speed float64
	nodes []*node
	// plain runs the nodes' routes with no secret and no TLS
	// (--nats-insecure), to compare with the secure set-up: see newCluster.
	plain bool
}

// routeSecret is the secret every node's routes share in the test.
const routeSecret = "the-clustertest-route-secret"

// node is one serve process, restarted with the same ports and proxy.
type node struct {
	name   string
	tls    mesh.TLSFiles // the node's certificate for its routes
	addr   string        // the HTTP address, 127.0.0.1:port
	nats   string        // the embedded NATS server's cluster address
	proxy  *storetest.Proxy
	db     string // the database URL through the proxy
	routes string

	mu     sync.Mutex
	cmd    *exec.Cmd
	exited chan struct{} // closed when the current process has exited
	paused bool
	runs   int
	logs   []string
}

// buildBinary builds ./cmd/bullshit once into dir.
func buildBinary(t *testing.T, dir string) string {
	t.Helper()
	bin := filepath.Join(dir, "bullshit")
	gobin, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("the go command, to build the server: %v", err)
	}
	cmd := exec.Command(gobin, "build", "-o", bin, "bullshit/cmd/bullshit")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("building the server: %v\n%s", err, out)
	}
	return bin
}

// freePorts finds n free loopback ports. A port found free may be taken
// before the node binds it; on this machine that is rare enough, and a node
// that can't listen fails the test with its log.
func freePorts(t *testing.T, n int) []int {
	t.Helper()
	var ports []int
	var lns []net.Listener
	for range n {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		lns = append(lns, ln)
		ports = append(ports, ln.Addr().(*net.TCPAddr).Port)
	}
	for _, ln := range lns {
		ln.Close()
	}
	return ports
}

// newCluster prepares n nodes on the database at dbURL, each through a
// proxy of its own, and arranges that every process is killed and, if the
// test failed, every node's logs printed when the test ends. The nodes'
// routes take the secure set-up docs/cluster.md shows first, a shared
// secret and mutual TLS with the cluster's CA; BULLSHIT_CLUSTERTEST_PLAIN=1
// runs them open instead, for a side-by-side measure of what TLS costs.
func newCluster(t *testing.T, dbURL string, n int, lease time.Duration, speed float64) *cluster {
	dir := t.TempDir()
	c := &cluster{t: t, bin: buildBinary(t, dir), dir: dir, lease: lease, speed: speed,
		plain: os.Getenv("BULLSHIT_CLUSTERTEST_PLAIN") == "1"}
	parsed, err := url.Parse(dbURL)
	if err != nil {
		t.Fatal(err)
	}
	host := parsed.Host
	ports := freePorts(t, 2*n)
	var routes []string
	for i := range n {
		routes = append(routes, fmt.Sprintf("nats-route://127.0.0.1:%d", ports[n+i]))
	}
	for i := range n {
		p := storetest.NewProxy(t, host)
		name := fmt.Sprintf("n%d", i+1)
		files, err := mesh.WriteCerts(filepath.Join(dir, "certs"), name, []string{"127.0.0.1"})
		if err != nil {
			t.Fatal(err)
		}
		c.nodes = append(c.nodes, &node{
			name:   name,
			tls:    files,
			addr:   fmt.Sprintf("127.0.0.1:%d", ports[i]),
			nats:   fmt.Sprintf("127.0.0.1:%d", ports[n+i]),
			proxy:  p,
			db:     p.URL(dbURL),
			routes: strings.Join(routes, ","),
		})
	}
	// Cleanups run last first: the logs are printed after the processes
	// are killed, so they are whole.
	t.Cleanup(func() {
		if t.Failed() {
			for _, nd := range c.nodes {
				nd.printLogs(t)
			}
		}
	})
	t.Cleanup(func() {
		for _, nd := range c.nodes {
			nd.kill()
		}
	})
	return c
}

// clusterFlags are the serve flags the test runs nodes with.
var clusterFlags = []string{"-cluster", "-node", "-nats-listen", "-nats-routes", "-lease",
	"-nats-tls-cert", "-nats-tls-key", "-nats-tls-ca", "-nats-insecure"}

// missingFlags are the cluster flags the built serve command doesn't know.
func (c *cluster) missingFlags() []string {
	out, _ := exec.Command(c.bin, "serve", "-h").CombinedOutput()
	var missing []string
	for _, f := range clusterFlags {
		if !regexp.MustCompile(`(?m)^\s+` + f + `(\s|$)`).Match(out) {
			missing = append(missing, f)
		}
	}
	return missing
}

// args are the serve command's flags for the node.
func (c *cluster) args(nd *node) []string {
	args := []string{"serve",
		"--addr", nd.addr,
		"--db", nd.db,
		"--speed", strconv.FormatFloat(c.speed, 'f', -1, 64),
		"--cluster", "--node", nd.name,
		"--nats-listen", nd.nats,
		"--nats-routes", nd.routes,
		"--lease", c.lease.String(),
	}
	if c.plain {
		return append(args, "--nats-insecure")
	}
	return append(args, "--nats-tls-cert", nd.tls.Cert, "--nats-tls-key", nd.tls.Key, "--nats-tls-ca", nd.tls.CA)
}

// start starts the node's process, its output going to a log of its own in
// the test's folder.
func (c *cluster) start(nd *node) {
	c.t.Helper()
	nd.mu.Lock()
	defer nd.mu.Unlock()
	nd.runs++
	path := filepath.Join(c.dir, fmt.Sprintf("%s.%d.log", nd.name, nd.runs))
	f, err := os.Create(path)
	if err != nil {
		c.t.Fatal(err)
	}
	nd.logs = append(nd.logs, path)
	cmd := exec.Command(c.bin, c.args(nd)...)
	cmd.Stdout, cmd.Stderr = f, f
	if !c.plain {
		cmd.Env = append(os.Environ(), "BULLSHIT_NATS_ROUTE_SECRET="+routeSecret)
	}
	if err := cmd.Start(); err != nil {
		f.Close()
		c.t.Fatalf("starting %s: %v", nd.name, err)
	}
	exited := make(chan struct{})
	nd.cmd, nd.exited, nd.paused = cmd, exited, false
	// The process's waiter: it ends when the process does, which every
	// path of the test makes happen (kill, or the cleanup's kill).
	go func() {
		_ = cmd.Wait()
		f.Close()
		close(exited)
	}()
}

// running reports whether the node's process is alive (paused or not).
func (nd *node) running() bool {
	nd.mu.Lock()
	defer nd.mu.Unlock()
	if nd.cmd == nil {
		return false
	}
	select {
	case <-nd.exited:
		return false
	default:
		return true
	}
}

// signal sends sig to the node's process.
func (nd *node) signal(t *testing.T, sig syscall.Signal) {
	t.Helper()
	nd.mu.Lock()
	defer nd.mu.Unlock()
	if nd.cmd == nil {
		t.Fatalf("%s: no process", nd.name)
	}
	if err := nd.cmd.Process.Signal(sig); err != nil {
		t.Fatalf("%s: %v: %v", nd.name, sig, err)
	}
	switch sig {
	case syscall.SIGSTOP:
		nd.paused = true
	case syscall.SIGCONT:
		nd.paused = false
	}
}

// kill kills the node's process with SIGKILL, if it runs, and waits for it.
func (nd *node) kill() {
	nd.mu.Lock()
	cmd, exited, paused := nd.cmd, nd.exited, nd.paused
	nd.mu.Unlock()
	if cmd == nil {
		return
	}
	if paused {
		_ = cmd.Process.Signal(syscall.SIGCONT)
	}
	_ = cmd.Process.Signal(syscall.SIGKILL)
	<-exited
}

// waitReady waits for the node's /readyz to answer 200.
func (c *cluster) waitReady(nd *node, within time.Duration) {
	c.t.Helper()
	hc := &http.Client{Timeout: time.Second}
	deadline := time.Now().Add(within)
	last := "no answer"
	for time.Now().Before(deadline) {
		if !nd.running() {
			c.t.Fatalf("%s exited before it was ready", nd.name)
		}
		resp, err := hc.Get("http://" + nd.addr + "/readyz")
		if err == nil {
			b, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<10))
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return
			}
			if resp.StatusCode == http.StatusNotFound {
				c.t.Fatalf("%s has no /readyz: the test needs it to know a node is ready", nd.name)
			}
			last = fmt.Sprintf("%d %s", resp.StatusCode, strings.TrimSpace(string(b)))
		} else {
			last = err.Error()
		}
		// Inside ops.Allowance, so the probes leave room for the scrapes.
		time.Sleep(250 * time.Millisecond)
	}
	c.t.Fatalf("%s not ready after %v: %s", nd.name, within, last)
}

// metric sums the samples of the node's /metrics whose names hold part
// (a counter's whole series, whatever its labels).
func metric(ctx context.Context, nd *node, part string) (float64, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, "http://"+nd.addr+"/metrics", nil)
	if err != nil {
		return 0, err
	}
	resp, err := (&http.Client{Timeout: 3 * time.Second}).Do(req)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return 0, fmt.Errorf("%s /metrics: %s", nd.name, resp.Status)
	}
	var sum float64
	found := false
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if line == "" || line[0] == '#' {
			continue
		}
		name, rest, _ := strings.Cut(line, " ")
		if i := strings.IndexByte(name, '{'); i >= 0 {
			name = name[:i]
			_, rest, _ = strings.Cut(line[strings.IndexByte(line, '}')+1:], " ")
		}
		if !strings.Contains(name, part) {
			continue
		}
		v, err := strconv.ParseFloat(strings.Fields(rest)[0], 64)
		if err != nil {
			return 0, fmt.Errorf("%s /metrics: %q: %w", nd.name, line, err)
		}
		sum, found = sum+v, true
	}
	if err := sc.Err(); err != nil {
		return 0, err
	}
	if !found {
		return 0, fmt.Errorf("%s /metrics has no metric named like %q", nd.name, part)
	}
	return sum, nil
}

// logLines counts the lines of the node's logs, every run's, holding part.
func (nd *node) logLines(part string) int {
	nd.mu.Lock()
	logs := append([]string(nil), nd.logs...)
	nd.mu.Unlock()
	n := 0
	for _, path := range logs {
		b, err := os.ReadFile(path)
		if err != nil {
			continue
		}
		for line := range strings.Lines(string(b)) {
			if strings.Contains(line, part) {
				n++
			}
		}
	}
	return n
}

// printLogs logs the last lines of each of the node's runs.
func (nd *node) printLogs(t *testing.T) {
	const keep = 150
	for _, path := range nd.logs {
		b, err := os.ReadFile(path)
		if err != nil {
			t.Logf("%s: %v", path, err)
			continue
		}
		lines := strings.Split(strings.TrimRight(string(b), "\n"), "\n")
		if len(lines) > keep {
			lines = lines[len(lines)-keep:]
		}
		t.Logf("---- %s (last %d lines) ----\n%s", filepath.Base(path), len(lines), strings.Join(lines, "\n"))
	}
}
