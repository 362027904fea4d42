package main

import (
	"bufio"
	"context"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"bullshit/api/client"
	"bullshit/store/storetest"
)

// counter reads one unlabelled sample of the server's /metrics.
func counter(t *testing.T, base, name string) float64 {
	t.Helper()
	resp, err := http.Get(base + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), name+" "); ok {
			f, err := strconv.ParseFloat(v, 64)
			if err != nil {
				t.Fatal(err)
			}
			return f
		}
	}
	t.Fatalf("%s/metrics has no %s", base, name)
	return 0
}

// TestClusterNodeDrains stops one of two cluster nodes with SIGTERM while
// it runs a bot table: it hands the table over and exits with success, and
// the table plays on at the other node, which claimed it.
func TestClusterNodeDrains(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the server")
	}
	if !storetest.HavePostgres() {
		t.Skipf("%s is not set to a PostgreSQL URL: a cluster needs one", storetest.PostgresEnv)
	}
	url := storetest.PostgresURL(t)
	bin := buildBinary(t)
	natsA, natsB := freeAddr(t), freeAddr(t)
	secret := filepath.Join(t.TempDir(), "route-secret")
	if err := os.WriteFile(secret, []byte("a-secret-the-two-nodes-share\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	node := func(name, nats string) *process {
		return startServer(t, bin, freeAddr(t), t.TempDir(), "--db", url, "--cluster", "--node", name,
			"--nats-listen", nats, "--nats-routes", natsA+","+natsB, "--nats-route-secret-file", secret,
			"--lease", "2s", "--drain-wait", "500ms")
	}
	a := node("a", natsA)
	b := node("b", natsB)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()

	ca, cb := client.New(a.base, nil), client.New(b.base, nil)
	host, err := ca.Create(ctx, client.CreateBody{Seats: 3, Name: "Ann", FillBots: true})
	if err != nil {
		t.Fatal(err)
	}
	id := host.Game.ID
	if _, err := ca.WithToken(host.Token).Start(ctx, id); err != nil {
		t.Fatal(err)
	}
	// Bots play the other seats, and the host's once it is away (in
	// seconds at this speed), so the table plays by itself.
	claimed := counter(t, b.base, "bullshit_claims_total")

	if err := a.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	if err := a.cmd.Wait(); err != nil {
		t.Errorf("the drained node exited with %v, want success", err)
	}
	for counter(t, b.base, "bullshit_claims_total") == claimed {
		if ctx.Err() != nil {
			t.Fatal("node b never claimed the table node a handed over")
		}
		time.Sleep(50 * time.Millisecond)
	}
	before, err := cb.View(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	for {
		v, err := cb.View(ctx, id)
		if err != nil {
			t.Fatalf("reading the game at node b: %v", err)
		}
		if v.Version > before.Version {
			break
		}
		if ctx.Err() != nil {
			t.Fatalf("the game stays at version %d on node b", v.Version)
		}
		time.Sleep(50 * time.Millisecond)
	}
	if !strings.Contains(a.logs.tail(), "handed over") {
		t.Errorf("node a's log doesn't say it handed its tables over:\n%s", a.logs.tail())
	}
}
