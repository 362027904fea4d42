package server_test

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus/testutil"

	"bullshit/api/client"
	"bullshit/internal/clocks/fakeclock"
	"bullshit/server"
	"bullshit/store/storetest"
)

// scrape is a GET of path from the site's router.
func scrape(site *server.Site, path string) (int, string) {
	w := httptest.NewRecorder()
	site.Handler.ServeHTTP(w, httptest.NewRequest(http.MethodGet, path, nil))
	return w.Code, w.Body.String()
}

// TestClusterOperations: a node of a cluster is ready once its tables are
// and it is connected to NATS, says so check by check, and counts the calls
// it sends to the table's owner; its metrics, the cluster's included, lint
// clean.
func TestClusterOperations(t *testing.T) {
	if !storetest.HavePostgres() {
		t.Skipf("%s is not set to a PostgreSQL URL: a cluster needs one", storetest.PostgresEnv)
	}
	url := storetest.PostgresURL(t)
	clock := fakeclock.New(time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC))
	siteA, a := startNode(t, url, "a", clock)
	siteB, b := startNode(t, url, "b", clock, siteA.Mesh.NATS.ClusterAddr())
	ctx := t.Context()

	for _, site := range []*server.Site{siteA, siteB} {
		awaitReady(t, site) // b is in the mesh once its route to a is up
		status, body := scrape(site, "/readyz?verbose")
		if status != 200 || body != "[+]database\n[+]tables\n[+]capacity\n[+]nats\n[+]mesh\nok\n" {
			t.Errorf("GET /readyz?verbose: got %d %q, want 200 and every check passed", status, body)
		}
	}

	host, err := a.Create(ctx, client.CreateBody{Seats: 3, Name: "Ann"})
	if err != nil {
		t.Fatal(err)
	}
	id := host.Game.ID
	tokens := map[int]string{host.Seat: host.Token}
	for _, name := range []string{"Bob", "Cy"} {
		j, err := b.Join(ctx, id, name)
		if err != nil {
			t.Fatal(err)
		}
		tokens[j.Seat] = j.Token
	}
	if _, err := b.WithToken(host.Token).Start(ctx, id); err != nil {
		t.Fatal(err)
	}
	seat, move := nextMove(t, a, tokens, id)
	if _, err := b.WithToken(tokens[seat]).Act(ctx, id, move); err != nil {
		t.Fatal(err)
	}

	_, body := scrape(siteB, "/metrics")
	for _, name := range []string{"bullshit_claims_total", "bullshit_fenced_writes_total", "bullshit_lease_renewals_late_total",
		"bullshit_nats_request_retries_total", "bullshit_nats_frames_published_total", "bullshit_nats_slow_consumer_drops_total"} {
		if !strings.Contains(body, "\n"+name+" ") {
			t.Errorf("the scrape lacks %s", name)
		}
	}
	// Node b sent the joins, the start and the move to node a.
	if strings.Contains(body, "\nbullshit_nats_requests_total 0\n") || !strings.Contains(body, "\nbullshit_nats_requests_total ") {
		t.Errorf("node b counts no call sent to the table's owner:\n%s", grep(body, "bullshit_nats_"))
	}
	if !strings.Contains(body, "bullshit_move_ack_duration_seconds_count 1\n") {
		t.Errorf("node b doesn't count the move it acknowledged:\n%s", grep(body, "move_ack"))
	}
	problems, err := testutil.GatherAndLint(siteB.Metrics.Registry())
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range problems {
		t.Errorf("lint: %s: %s", p.Metric, p.Text)
	}

	siteB.Ready.Drain()
	if status, body := scrape(siteB, "/readyz"); status != 503 || body != "not ready: draining\n" {
		t.Errorf("GET /readyz while draining: got %d %q, want 503 \"not ready: draining\\n\"", status, body)
	}
}

// grep is the lines of text that hold part.
func grep(text, part string) string {
	var out []string
	for line := range strings.SplitSeq(text, "\n") {
		if strings.Contains(line, part) {
			out = append(out, line)
		}
	}
	return strings.Join(out, "\n")
}
