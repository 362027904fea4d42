package clustertest

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"bullshit/api/client"
	"bullshit/engine"
	"bullshit/engine/bot"
	"bullshit/internal/clocks"
	"bullshit/store"
	"bullshit/store/storetest"
)

// The run's settings: a short lease so a failure is noticed in seconds,
// tables' clocks twice as fast as real time so a four-seat game of bots
// (about 2.3 minutes at the brisk pace) lasts a little over a minute, long
// enough for every fault to fall on live tables.
const (
	nodes     = 3
	lease     = 2 * time.Second
	speed     = 3.0
	botTables = 12
	apiTables = 3
	// replayAllowance bounds the rebuilding of a claimed table (a few
	// dozen actions through the engine, and a resume written) on a
	// machine shared by several: a table is owned again within
	// lease + claimEvery + replayAllowance of its owner's death.
	replayAllowance = 3 * time.Second
	// claimEvery is how often a node looks for orphans: the serve
	// command's default for a lease of 2 s.
	claimEvery = lease / 2
)

// fencedLog is the words of a write the fence refused, as a node logs them.
var fencedLog = store.ErrFenced.Error()

var (
	levels = []string{"medium", "hard"}
	styles = []string{"cautious", "bold", "caller"}
)

func bots(i, n int) []client.Bot {
	var bs []client.Bot
	for j := range n {
		bs = append(bs, client.Bot{Level: levels[(i+j)%len(levels)], Style: styles[(i+2*j)%len(styles)]})
	}
	return bs
}

// TestFailover runs three serve processes on one PostgreSQL schema with bot
// tables and API players, kills, pauses, restarts and cuts off nodes one
// after another, then checks what was stored against what the clients were
// told (see the package's doc).
func TestFailover(t *testing.T) {
	if !storetest.HavePostgres() {
		t.Skipf("the failover test needs PostgreSQL: set %s (for example postgres://postgres@127.0.0.1:5432/test?sslmode=disable)",
			storetest.PostgresEnv)
	}
	if raced {
		t.Skip("the failover test runs without the race detector (make cluster-test): its server processes are not raced, and a raced test process only slows their clients")
	}
	dbURL := storetest.PostgresURL(t)
	c := newCluster(t, dbURL, nodes, lease, speed)
	if missing := c.missingFlags(); len(missing) > 0 {
		t.Fatalf("the serve command has no %s flags", strings.Join(missing, ", "))
	}
	for _, nd := range c.nodes {
		c.start(nd)
	}
	for _, nd := range c.nodes {
		c.waitReady(nd, time.Minute)
	}
	st, err := store.Open(t.Context(), dbURL)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if _, err := st.DB().ExecContext(t.Context(), "SELECT owner, epoch FROM games LIMIT 0"); err != nil {
		t.Fatalf("the games have no owner and epoch: %v", err)
	}
	var leases int
	if err := st.DB().QueryRowContext(t.Context(), "SELECT count(*) FROM nodes").Scan(&leases); err != nil || leases == 0 {
		t.Fatalf("no node holds a lease (%d, %v): the nodes don't run as a cluster", leases, err)
	}
	ctx, cancel := context.WithCancel(t.Context())
	var wg sync.WaitGroup
	defer wg.Wait()
	defer cancel()
	own := newOwners(st.DB().DB)
	wg.Go(func() { own.run(ctx, 50*time.Millisecond) })
	// The tables' clock, to turn a stored action's time into real time.
	scaled := clocks.Scaled{Speed: speed}
	realRef, scaledRef := time.Now(), scaled.Now()
	wall := func(at time.Time) time.Time { return realRef.Add(time.Duration(float64(at.Sub(scaledRef)) / speed)) }

	tr := startTraffic(ctx, t, c, &wg)
	games := tr.games
	waitFor(t, 30*time.Second, "every game owned and under way", func() bool {
		now := own.now()
		for _, g := range games {
			if w := now[g]; w.Owner == "" || w.Seq < 3 {
				return false
			}
		}
		return true
	}, own.describe)

	// Fault 1: kill -9 the node owning most tables.
	victim, vgames, epochs := c.busiest(own)
	killAt := time.Now()
	victim.kill()
	took, err := own.waitOwnedAgain(ctx, vgames, victim.name, epochs, killAt, 30*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	withinBound(t, "killed", took)
	takeover := firstMoves(ctx, t, st, vgames, killAt, wall)
	t.Logf("kill -9 %s (%d tables): owned again after %s; first move by the new owner after %s",
		victim.name, len(vgames), spread(took), spread(takeover))

	// Fault 2: pause an owner past twice its lease, then let it go on.
	paused, pgames, epochs := c.busiest(own)
	fencedBefore, metricErr := metric(ctx, paused, "fenced")
	lateBefore, lateErr := metric(ctx, paused, "lease_renewals_late")
	if lateErr != nil {
		t.Fatal(lateErr)
	}
	logBefore := paused.logLines(fencedLog)
	pauseAt := time.Now()
	paused.signal(t, syscall.SIGSTOP)
	took, err = own.waitOwnedAgain(ctx, pgames, paused.name, epochs, pauseAt, 30*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	withinBound(t, "paused", took)
	time.Sleep(time.Until(pauseAt.Add(2*lease + 500*time.Millisecond)))
	paused.signal(t, syscall.SIGCONT)
	c.waitReady(paused, 30*time.Second)
	// The stall shows in its renewals, however fast the database answers
	// once it runs again.
	if late, err := metric(ctx, paused, "lease_renewals_late"); err != nil || late <= lateBefore {
		t.Errorf("%s's late lease renewals after a pause of 2 leases: got %v (%v), want more than %v", paused.name, late, err, lateBefore)
	}
	time.Sleep(lease) // what it had under way when paused is tried, and fenced
	fenced := fmt.Sprintf("%d log lines", paused.logLines(fencedLog)-logBefore)
	if metricErr == nil {
		after, err := metric(ctx, paused, "fenced")
		if err == nil {
			fenced = fmt.Sprintf("%v by /metrics, %s", after-fencedBefore, fenced)
		}
	}
	t.Logf("kill -STOP %s (%d tables) for %v: owned again after %s; writes refused by the fence after kill -CONT: %s",
		paused.name, len(pgames), time.Since(pauseAt).Round(time.Millisecond), spread(took), fenced)

	// Fault 3: the killed node comes back.
	c.start(victim)
	c.waitReady(victim, time.Minute)

	// Fault 4: cut a node off the database, then let it back. The cut
	// falls just after one of its appends commits, its answer lost: the
	// node can't tell whether the move is stored (it is), and has its
	// lease from its last renewal at most.
	cutNode, cgames, epochs := c.busiest(own)
	cut := cutNode.proxy.CutAfter("INSERT INTO actions", true)
	select {
	case <-cut:
	case <-time.After(3 * lease):
		t.Fatalf("%s stored no action in %v", cutNode.name, 3*lease)
	}
	cutAt := time.Now()
	took, err = own.waitOwnedAgain(ctx, cgames, cutNode.name, epochs, cutAt, 30*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	withinBound(t, "cut off", took)
	time.Sleep(time.Until(cutAt.Add(2 * lease)))
	cutNode.proxy.Restore()
	c.waitReady(cutNode, 30*time.Second)
	t.Logf("cut %s off the database (%d tables): owned again after %s", cutNode.name, len(cgames), spread(took))

	waitFor(t, 5*time.Minute, "every game over", func() bool {
		now := own.now()
		for _, g := range games {
			if s := now[g].Status; s == "open" || s == "live" {
				return false
			}
		}
		return true
	}, own.describe)
	cancel()
	wg.Wait()
	tr.playErrs.Range(func(k, v any) bool {
		t.Errorf("API player %s: %v", k, v)
		return true
	})
	check(t, st, games, tr.rec.all(), own, tr.sw)
	byOwner, byOther := moveTimes(tr.rec, own)
	t.Logf("acknowledged API moves through the node running their table: %s; through another node: %s",
		spread(byOwner), spread(byOther))
}

// moveTimes are the round trips of the acknowledged API moves sent to the
// node that owned their table, by the database, when they were sent and
// when they were answered, and of those sent to another node.
func moveTimes(rec *recorder, own *owners) (byOwner, byOther []time.Duration) {
	for _, o := range rec.all() {
		if o.Outcome != ok {
			continue
		}
		sent, sentOK := own.ownerAt(o.Game, rec.start.Add(o.Call))
		answered, answeredOK := own.ownerAt(o.Game, rec.start.Add(o.Return))
		switch {
		case !sentOK || !answeredOK || sent != answered || sent == "":
			// The table moved meanwhile: a takeover's wait, measured apart.
		case sent == o.Node:
			byOwner = append(byOwner, o.Return-o.Call)
		default:
			byOther = append(byOther, o.Return-o.Call)
		}
	}
	return byOwner, byOther
}

// traffic is the run's tables, their API players and the streams that
// follow them.
type traffic struct {
	games    []string
	rec      *recorder
	sw       *streams
	playErrs sync.Map // by seat: an API player's error, if it stopped early
}

// startTraffic makes the tables through random nodes, then starts an API
// player for each API seat and a spectator stream of every game on every
// node, each ending with ctx or its game.
func startTraffic(ctx context.Context, t *testing.T, c *cluster, wg *sync.WaitGroup) *traffic {
	t.Helper()
	tr := &traffic{rec: newRecorder(), sw: &streams{seen: map[string]int{}}}
	cl, hc := c.client(tr.rec)
	var tables []table
	for i := range botTables + apiTables {
		var tb table
		var err error
		if i < botTables {
			tb, err = botTable(ctx, cl, hc, bots(i, 3))
		} else {
			tb, err = apiTable(ctx, cl, tr.rec, bots(i, 2))
		}
		if err != nil {
			t.Fatal(err)
		}
		tables = append(tables, tb)
		tr.games = append(tr.games, tb.id)
	}
	for _, g := range tr.games {
		for _, nd := range c.nodes {
			wg.Go(func() { tr.sw.follow(ctx, nd, g) })
		}
	}
	for i, tb := range tables {
		for seat, token := range tb.tokens {
			ch, err := bot.New(bot.Medium, bot.Style(styles[(i+seat)%len(styles)]), uint64(1000*i+seat))
			if err != nil {
				t.Fatal(err)
			}
			wg.Go(func() {
				_, err := cl.WithToken(token).Play(ctx, tb.id, ch, client.PlayOptions{Poll: time.Second,
					Think: func(k engine.Think, p engine.Pace) time.Duration {
						return time.Duration(float64(engine.ThinkTime(k, p)) / speed)
					}})
				if err != nil && ctx.Err() == nil {
					tr.playErrs.Store(fmt.Sprintf("%s seat %d", tb.id, seat), err)
				}
			})
		}
	}
	return tr
}

// check judges the stored games against what the clients saw.
func check(t *testing.T, st *store.Store, games []string, ops []op, own *owners, sw *streams) {
	byGame := map[string][]op{}
	for _, o := range ops {
		byGame[o.Game] = append(byGame[o.Game], o)
	}
	counts := map[outcome]int{}
	for _, g := range games {
		s, err := loadGame(context.Background(), st, g)
		if err != nil {
			t.Errorf("%s: %v", g, err)
			continue
		}
		for _, bad := range append(checkStored(s), checkOnce(s, byGame[g])...) {
			t.Error(bad)
		}
		if err := checkLinear(s, byGame[g], 30*time.Second); err != nil {
			t.Error(err)
		}
		for _, o := range byGame[g] {
			counts[o.Outcome]++
		}
	}
	for _, bad := range own.epochsBack() {
		t.Error(bad)
	}
	sw.mu.Lock()
	defer sw.mu.Unlock()
	for _, bad := range sw.broken {
		t.Errorf("a stream went back: %s", bad)
	}
	views := 0
	for _, n := range sw.seen {
		views += n
	}
	if counts[ok] == 0 || views == 0 {
		t.Errorf("nothing was exercised: %d moves acknowledged, %d views streamed", counts[ok], views)
	}
	t.Logf("%d games; API moves: %d acknowledged, %d refused, %d unknown; %d views streamed on %d streams",
		len(games), counts[ok], counts[refused], counts[unknown], views, len(sw.seen))
}

// withinBound checks that each table was owned again within lease + claim
// interval + replay of its owner's fault: the lease then held ran out at
// most a lease after it (a cut is made just after a renewal committed), a
// peer's claim loop comes round within its interval, and the rebuild takes
// the replay allowance at most.
func withinBound(t *testing.T, fault string, took map[string]time.Duration) {
	t.Helper()
	bound := lease + claimEvery + replayAllowance
	for g, d := range took {
		if d > bound {
			t.Errorf("%s owned again %v after its owner was %s, more than lease + claim interval + replay (%v)",
				g, d, fault, bound)
		}
	}
}

// busiest is the running, unpaused node owning the most live games, with
// those games and their epochs.
func (c *cluster) busiest(own *owners) (*node, []string, map[string]int64) {
	by := own.playing()
	var best *node
	for _, nd := range c.nodes {
		if nd.running() && !nd.isPaused() && (best == nil || len(by[nd.name]) > len(by[best.name])) {
			best = nd
		}
	}
	if best == nil || len(by[best.name]) == 0 {
		c.t.Fatalf("no node owns a live game: %v", by)
	}
	now := own.now()
	epochs := map[string]int64{}
	for _, g := range by[best.name] {
		epochs[g] = now[g].Epoch
	}
	return best, by[best.name], epochs
}

func (nd *node) isPaused() bool {
	nd.mu.Lock()
	defer nd.mu.Unlock()
	return nd.paused
}

// firstMoves waits for each game's first move made after since (a seat's
// move, not the resume the new owner writes) and returns how long after
// since each was made, by the tables' clock turned into real time (wall).
// A move is acknowledged once stored, a few milliseconds after it is made.
func firstMoves(ctx context.Context, t *testing.T, st *store.Store, games []string, since time.Time,
	wall func(time.Time) time.Time) map[string]time.Duration {
	t.Helper()
	took := map[string]time.Duration{}
	over := map[string]bool{} // over with no move after since: nothing to measure
	waitFor(t, 30*time.Second, "a move by the new owner at every table", func() bool {
		for _, g := range games {
			if _, done := took[g]; done || over[g] {
				continue
			}
			actions, err := st.Actions(ctx, g)
			if err != nil {
				continue
			}
			for _, a := range actions {
				if a.Action.Kind != engine.ActResume && wall(a.At).After(since) {
					took[g] = wall(a.At).Sub(since)
					break
				}
			}
			if _, done := took[g]; !done {
				if gs, _, err := st.Game(ctx, g); err == nil && gs.Status != "live" {
					over[g] = true
				}
			}
		}
		return len(took)+len(over) == len(games)
	})
	return took
}

// spread is the p50 and p99 (and the count) of a set of durations, given
// as a slice or as the values of a map.
func spread[D map[string]time.Duration | []time.Duration](set D) string {
	var ds []time.Duration
	switch set := any(set).(type) {
	case map[string]time.Duration:
		ds = slices.Collect(maps.Values(set))
	case []time.Duration:
		ds = slices.Clone(set)
	}
	if len(ds) == 0 {
		return "none measured"
	}
	slices.Sort(ds)
	at := func(p float64) time.Duration { return ds[int(p*float64(len(ds)-1)+0.5)] }
	return fmt.Sprintf("p50 %v p99 %v (n=%d)", at(0.5).Round(time.Millisecond), at(0.99).Round(time.Millisecond), len(ds))
}

// waitFor waits for cond, checked every 100 ms, failing the test after
// within with what the describers say.
func waitFor(t *testing.T, within time.Duration, what string, cond func() bool, describe ...func() string) {
	t.Helper()
	deadline := time.Now().Add(within)
	for !cond() {
		if time.Now().After(deadline) {
			var b strings.Builder
			for _, d := range describe {
				b.WriteString("\n" + d())
			}
			t.Fatalf("no %s after %v%s", what, within, b.String())
		}
		time.Sleep(100 * time.Millisecond)
	}
}
