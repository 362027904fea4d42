package cluster

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"
)

// NATSConfig says how a node reaches NATS: by URL, or through a server it
// embeds. Exactly one of URL and Listen is set.
type NATSConfig struct {
	// Name names the node to NATS (its server's and its connection's name).
	Name string
	// URL is an existing NATS server or cluster to connect to
	// (nats://host:4222, comma-separated for several).
	URL string
	// Listen is the embedded server's cluster address (host:port; port 0
	// picks one), where its peers' routes connect; Routes are the peers'
	// cluster addresses (nats-route://host:port or host:port). A node's own
	// address among them is harmless, so every node may be given the same
	// list.
	Listen string
	Routes []string
	// ClientListen is the embedded server's client address, on loopback by
	// default (a free port). Only this process connects to it, in-process,
	// with a user and password made afresh at every start, so no other
	// process can; it listens at all because a server with no client
	// listener forms no routes (nats-server issue #5174).
	ClientListen string

	// RouteSecret is the password every route of the embedded server
	// presents and requires: the peers share it (docs/cluster.md).
	RouteSecret string
	// TLS is the certificate and key files this node proves itself with
	// and the CA file it checks its peers' by: on the embedded server's
	// routes, mutual TLS (a route with no certificate of the CA's is
	// refused); with URL, the connection's client certificate and the CA
	// it trusts. Any of the three may be empty with URL.
	TLS TLSFiles
	// CredsFile and NKeyFile are a credentials file or an NKey seed file
	// the node signs in with to the NATS at URL.
	CredsFile, NKeyFile string
	// Insecure lets the embedded server's route port take any route, with
	// neither RouteSecret nor TLS: anyone who reaches the port joins the
	// mesh. Without it such a server refuses to start.
	Insecure bool

	Logger *slog.Logger
}

// TLSFiles are PEM files: a certificate, its key and a CA.
type TLSFiles struct{ Cert, Key, CA string }

func (f TLSFiles) set() bool { return f.Cert != "" || f.Key != "" || f.CA != "" }

// ErrOpenRoutes refuses an embedded server whose route port would let
// anyone join the mesh.
var ErrOpenRoutes = errors.New("cluster: the NATS route port would take routes from anyone who reaches it: " +
	"give the peers a shared secret (BULLSHIT_NATS_ROUTE_SECRET) or certificates of a cluster CA (--nats-tls-*), or say --nats-insecure")

// NATS is a node's connection to the mesh, with the server it embeds if it
// embeds one. It closes when the context it was started with ends, or on
// Close.
type NATS struct {
	// Conn is the node's one connection: requests, replies and frames.
	Conn *nats.Conn
	srv  *server.Server
	log  *slog.Logger

	stop     func() bool
	once     sync.Once
	closed   chan struct{}
	slowMu   sync.Mutex
	slowSubs int
}

// connectWait bounds the start: the embedded server taking connections, or
// the first connection to a URL.
const connectWait = 10 * time.Second

// StartNATS embeds a server or connects to one, as cfg says.
func StartNATS(ctx context.Context, cfg NATSConfig) (*NATS, error) {
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	if (cfg.URL == "") == (cfg.Listen == "") {
		return nil, errors.New("cluster: give either a NATS URL or an address for the embedded server")
	}
	n := &NATS{log: cfg.Logger, closed: make(chan struct{})}
	// NoEcho: a node never needs its own frames back, nor its own calls
	// (it runs those tables itself).
	opts := []nats.Option{nats.Name(cfg.Name), nats.NoEcho(), nats.MaxReconnects(-1), nats.ReconnectWait(250 * time.Millisecond),
		nats.ErrorHandler(n.asyncError),
		nats.DisconnectErrHandler(func(_ *nats.Conn, err error) {
			if err != nil { // nil: closed on purpose
				n.log.Warn("NATS disconnected", "err", err)
			}
		}),
		nats.ReconnectHandler(func(c *nats.Conn) { n.log.Info("NATS reconnected", "url", c.ConnectedUrlRedacted()) }),
	}
	url := cfg.URL
	if cfg.Listen != "" {
		user, pass, err := clientLogin()
		if err != nil {
			return nil, err
		}
		srv, err := embed(cfg, user, pass)
		if err != nil {
			return nil, err
		}
		n.srv = srv
		opts = append(opts, nats.InProcessServer(srv), nats.UserInfo(user, pass))
		url = ""
	} else {
		signIn, err := urlSignIn(cfg)
		if err != nil {
			return nil, err
		}
		opts = append(opts, nats.Timeout(connectWait), nats.RetryOnFailedConnect(false))
		opts = append(opts, signIn...)
	}
	conn, err := nats.Connect(url, opts...)
	if err != nil {
		n.shutdownServer()
		return nil, fmt.Errorf("cluster: connecting to NATS: %w", err)
	}
	n.Conn = conn
	n.stop = context.AfterFunc(ctx, n.close)
	return n, nil
}

// embed starts the embedded server and waits until it takes connections:
// clients only as user with pass, routes only with the route secret or a
// certificate of the cluster's CA (or from anyone, if cfg says Insecure).
func embed(cfg NATSConfig, user, pass string) (*server.Server, error) {
	if cfg.RouteSecret == "" && !cfg.TLS.set() && !cfg.Insecure {
		return nil, ErrOpenRoutes
	}
	host, port, err := splitAddr(cfg.Listen)
	if err != nil {
		return nil, fmt.Errorf("cluster: the NATS listen address: %w", err)
	}
	client := cfg.ClientListen
	if client == "" {
		client = "127.0.0.1:0"
	}
	chost, cport, err := splitAddr(client)
	if err != nil {
		return nil, fmt.Errorf("cluster: the NATS client address: %w", err)
	}
	routes, err := routeURLs(cfg.Routes, cfg.RouteSecret)
	if err != nil {
		return nil, err
	}
	opts := &server.Options{
		ServerName: cfg.Name,
		Host:       chost, Port: cport,
		Username: user, Password: pass,
		NoSigs: true, NoLog: true,
		Cluster: server.ClusterOpts{Name: "bullshit", Host: host, Port: port},
		Routes:  routes,
	}
	if cfg.RouteSecret != "" {
		opts.Cluster.Username, opts.Cluster.Password = routeUser, cfg.RouteSecret
	}
	if cfg.TLS.set() {
		tc, err := mutualTLS(cfg.TLS)
		if err != nil {
			return nil, err
		}
		opts.Cluster.TLSConfig, opts.Cluster.TLSTimeout = tc, connectWait.Seconds()
	}
	srv, err := server.NewServer(opts)
	if err != nil {
		return nil, fmt.Errorf("cluster: the embedded NATS server: %w", err)
	}
	srv.Start()
	if !srv.ReadyForConnections(connectWait) {
		srv.Shutdown()
		srv.WaitForShutdown()
		return nil, errors.New("cluster: the embedded NATS server didn't start listening")
	}
	return srv, nil
}

// splitAddr reads host:port, where port 0 picks a free one.
func splitAddr(addr string) (string, int, error) {
	host, p, err := net.SplitHostPort(addr)
	if err != nil {
		return "", 0, err
	}
	port, err := strconv.Atoi(p)
	if err != nil || port < 0 || port > 65535 {
		return "", 0, fmt.Errorf("%q: the port is 0 to 65535", addr)
	}
	if port == 0 {
		port = server.RANDOM_PORT
	}
	return host, port, nil
}

// routeUser is the user every route signs in as; the secret is its
// password.
const routeUser = "bullshit"

// routeURLs reads the peers' cluster addresses, with or without a scheme,
// signing each in with secret when there is one.
func routeURLs(routes []string, secret string) ([]*url.URL, error) {
	var out []*url.URL
	for _, r := range routes {
		r = strings.TrimSpace(r)
		if r == "" {
			continue
		}
		if !strings.Contains(r, "://") {
			r = "nats-route://" + r
		}
		u, err := url.Parse(r)
		if err != nil || u.Host == "" {
			return nil, fmt.Errorf("cluster: %q is not a route (host:port)", r)
		}
		if secret != "" && u.User == nil {
			u.User = url.UserPassword(routeUser, secret)
		}
		out = append(out, u)
	}
	return out, nil
}

// ClusterAddr is the embedded server's cluster address, where its peers'
// routes connect; "" when the node connects by URL.
func (n *NATS) ClusterAddr() string {
	if n.srv == nil {
		return ""
	}
	if a := n.srv.ClusterAddr(); a != nil {
		return a.String()
	}
	return ""
}

// Interested is RelayConfig's Interested: whether any node subscribes to a
// subject, by the embedded server's interest, which takes in its routes'.
// Nil when the node connects by URL: the server it reaches is another's,
// and its own sign-in keeps strangers off it.
func (n *NATS) Interested() func(subject string) bool {
	if n.srv == nil {
		return nil
	}
	acc := n.srv.GlobalAccount()
	return acc.SubscriptionInterest
}

// Routes is how many routes the embedded server has to its peers.
func (n *NATS) Routes() int {
	if n.srv == nil {
		return 0
	}
	return n.srv.NumRoutes()
}

// Ready is nil while the node is connected to NATS: /readyz reports it.
func (n *NATS) Ready() error {
	if n.Conn == nil || !n.Conn.IsConnected() {
		return errors.New("not connected to NATS")
	}
	return nil
}

// Done is closed once the connection and the embedded server are closed.
func (n *NATS) Done() <-chan struct{} { return n.closed }

// Close closes the connection, then the embedded server, and waits for
// both.
func (n *NATS) Close() {
	if n.stop != nil {
		n.stop()
	}
	n.close()
}

func (n *NATS) close() {
	n.once.Do(func() {
		// Drain would wait for every subscriber's callback; the node is
		// stopping, so what is queued is dropped (the store is the truth).
		n.Conn.Close()
		n.shutdownServer()
		close(n.closed)
	})
}

func (n *NATS) shutdownServer() {
	if n.srv != nil {
		n.srv.Shutdown()
		n.srv.WaitForShutdown()
	}
}

// asyncError logs the connection's asynchronous errors; a slow consumer is
// a subscriber whose messages were dropped, counted for the operator.
func (n *NATS) asyncError(_ *nats.Conn, sub *nats.Subscription, err error) {
	if errors.Is(err, nats.ErrSlowConsumer) {
		n.slowMu.Lock()
		n.slowSubs++
		n.slowMu.Unlock()
		subject := ""
		if sub != nil {
			subject = sub.Subject
		}
		n.log.Warn("NATS dropped messages for a slow subscriber", "subject", subject)
		return
	}
	n.log.Warn("NATS error", "err", err)
}

// SlowConsumers counts the times NATS dropped messages for a subscriber
// that fell behind.
func (n *NATS) SlowConsumers() int {
	n.slowMu.Lock()
	defer n.slowMu.Unlock()
	return n.slowSubs
}
