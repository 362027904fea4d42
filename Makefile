# The two set-up commands are `make run` and `make test` (see README.md).
GO ?= go
DATA ?= data
ADDR ?= 127.0.0.1:8080

.PHONY: run test test-quick test-browser cluster-test lint generate check-generated bench report loadtest fuzz transfer screenshots

run:
	$(GO) run ./cmd/bullshit serve --addr $(ADDR) --data $(DATA)

# The race detector slows the engine's property tests tenfold, so they play
# fewer games under it; the last line plays them at full size without it.
# The browser tests (web/browser) play whole games in Chromium against the
# server in the test, timed by its clock: they run without the race detector,
# which slows the server tenfold under them (the server's own packages are
# raced on the first line).
test:
	$(GO) test -race -count=1 $$($(GO) list ./... | grep -v /web/browser)
	$(GO) test -count=1 -timeout 30m ./web/browser
	$(GO) test -count=1 -run 'TestRandomGamesKeepInvariants|TestViewKeepsSecrets' ./engine

# Every package but the browser's, without the race detector: the quick
# check while working. make test is what must pass.
test-quick:
	$(GO) test -count=1 $$($(GO) list ./... | grep -v /web/browser)

# The browser tests alone, naming each as it runs.
test-browser:
	$(GO) test -count=1 -timeout 40m -v ./web/browser

# The failover test of the real binary (clustertest/): three serve processes
# on one PostgreSQL, killed, paused, restarted and cut off while bots and API
# players play, then every stored game checked. It needs
# BULLSHIT_TEST_POSTGRES (it skips without, and fails if the binary lacks
# any part of the cluster it checks) and takes a few minutes; make
# test's raced run skips it, as its processes are built without the race
# detector anyway.
cluster-test:
	$(GO) test -count=1 -timeout 10m -run 'Failover|Intruders' ./clustertest

# The engine imports only the standard library, and the API client only the
# engine (and its driver's rule) besides, so a bot's program pulls in nothing of the server's.
# The pages import nothing of the API; the store, the accounts, the cluster,
# the API, the pages and the streams nothing of the tables' runtime (they
# speak game/, which live implements).
# go mod tidy -diff prints what tidying would change and fails if anything
# would, so a dependency is never left marked wrongly in go.mod.
lint:
	@$(GO) mod tidy -diff || (echo "go.mod or go.sum is untidy: run go mod tidy and commit"; exit 1)
	@out=$$(gofmt -l $$(git ls-files '*.go')); if [ -n "$$out" ]; then echo "gofmt would change:"; echo "$$out"; exit 1; fi
	$(GO) vet ./...
	@deps=$$($(GO) list -deps -f '{{if not .Standard}}{{.ImportPath}}{{end}}' ./engine/... | grep -v '^bullshit/engine'); \
	 if [ -n "$$deps" ]; then echo "engine imports outside the standard library:"; echo "$$deps"; exit 1; fi
	@deps=$$($(GO) list -deps -f '{{if not .Standard}}{{.ImportPath}}{{end}}' ./arena | grep -v '^bullshit/arena$$'); \
	 if [ -n "$$deps" ]; then echo "arena imports outside the standard library:"; echo "$$deps"; exit 1; fi
	@deps=$$($(GO) list -deps -f '{{if not .Standard}}{{.ImportPath}}{{end}}' ./api/client | grep -v '^bullshit/\(engine\|engine/drive\|api/client\)$$'); \
	 if [ -n "$$deps" ]; then echo "the API client imports more than the engine and the standard library:"; echo "$$deps"; exit 1; fi
	@deps=$$($(GO) list -deps ./web | grep '^bullshit/api\(/\|$$\)'); \
	 if [ -n "$$deps" ]; then echo "the pages import the API (what both need is in internal/httpx):"; echo "$$deps"; exit 1; fi
	@deps=$$($(GO) list -deps ./cmd/... | grep '^bullshit/internal/clocks/fakeclock$$'); \
	 if [ -n "$$deps" ]; then echo "a command imports the tests' clock (fakeclock)"; exit 1; fi
	@for p in store players cluster api web push; do \
	   if $(GO) list -deps ./$$p | grep -q '^bullshit/live$$'; then echo "$$p imports the tables' runtime (live): what it needs of a game is in game/"; exit 1; fi; done

# templ turns views/*.templ into the committed views/*_templ.go.
generate:
	$(GO) tool templ generate
	$(GO) generate ./...

# Fails when regenerating would change a committed file.
check-generated: generate
	@git diff --exit-code --stat -- . || (echo "generated files are stale: run make generate and commit"; exit 1)

bench:
	$(GO) test -run '^$$' -bench . -benchmem ./...

fuzz:
	$(GO) test -run '^$$' -fuzz FuzzActions -fuzztime 30s -fuzzminimizetime 100x ./engine

# Regenerates the measured sections and charts of docs/bullshit.md; the wall
# time of each run is printed on stderr.
report:
	$(GO) run ./cmd/bullshit sim -games 800 -knob-games 600 -option-games 400 -people-games 800 -doc docs/bullshit.md -charts docs/bullshit
	$(GO) run ./cmd/bullshit anchors -games 1000 -doc docs/bullshit.md

# Runs all-bot tables through the live runtime with the real SQLite store
# (or PostgreSQL, with POSTGRES=<url>: a schema of its own, dropped after)
# and clock, and prints the time to start them, actions a second, lateness,
# memory and goroutines per table, publish latency and the time to rebuild
# them after a restart: make loadtest TABLES=20000 for the issue's figure.
# STREAMS=html (or json) also follows every seat over its event stream and
# times the events (go run ./cmd/loadtest -h: -listen and -read read them
# from a second process). NODES=3 (with POSTGRES) runs the tables on three
# cluster nodes in the one process, figures per node and in all; TAKEOVER=1
# then stops the first node as kill -9 would and times its tables' takeover.
TABLES ?= 1000
DURATION ?= 60s
POSTGRES ?=
STREAMS ?=
NODES ?=
TAKEOVER ?=
loadtest:
	$(GO) run ./cmd/loadtest -tables $(TABLES) -duration $(DURATION) $(if $(POSTGRES),-postgres '$(POSTGRES)') $(if $(STREAMS),-streams $(STREAMS)) $(if $(NODES),-nodes $(NODES)) $(if $(TAKEOVER),-takeover)

# Plays the pages in headless Chromium and writes screenshots of the lobby,
# the waiting room, the table, a reveal, a hand-over and the result sheet, at
# 390x844 and 1280x800, to docs/screens (make test never writes them).
screenshots:
	BULLSHIT_SCREENSHOTS=$(CURDIR)/docs/screens $(GO) test -count=1 -run 'TestBrowserScreenshots|TestBrowserReviewSteps|TestBrowserWholeHandAboveTheDock' -v ./web/browser

# Sums the table page's first-load transfer, gzipped, every asset included.
transfer:
	$(GO) test -count=1 -run TestTableTransfer -v ./web | grep -E 'transfer|ok|FAIL'
