package main

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"strings"
	"time"

	"bullshit/cluster"
	"bullshit/server"
)

// clusterFlags adds serve's cluster flags to fs; the returned func reads
// them once parsed: nil settings for a single node.
func clusterFlags(fs *flag.FlagSet) func(db string) (*server.Cluster, error) {
	on := fs.Bool("cluster", false, "run as one node of several on one PostgreSQL (--db), joined over NATS (see docs/cluster.md)")
	host, _ := os.Hostname()
	node := fs.String("node", host, "with --cluster, this node's name, unique in the cluster")
	url := fs.String("nats", "", "with --cluster, the URL of a NATS server or cluster to join (nats://host:4222), instead of embedding one")
	listen := fs.String("nats-listen", "", "with --cluster, embed a NATS server whose routes listen here (host:port), instead of --nats")
	routes := fs.String("nats-routes", "", "with --nats-listen, comma-separated host:port of the peers' --nats-listen (the same list on every node will do)")
	secretFile := fs.String("nats-route-secret-file", "", "with --nats-listen, a file holding the routes' shared secret (instead of $"+routeSecretEnv+"; never the secret itself on the command line)")
	cert := fs.String("nats-tls-cert", "", "with --nats-listen, this node's certificate for mutual TLS on the routes (bullshit cluster-certs makes one); with --nats, the client certificate")
	key := fs.String("nats-tls-key", "", "the key of --nats-tls-cert")
	ca := fs.String("nats-tls-ca", "", "the cluster's CA certificate: the routes' peers must hold a certificate it signed; with --nats, the CA the server's certificate is checked by")
	creds := fs.String("nats-creds", "", "with --nats, a NATS credentials file to sign in with")
	nkey := fs.String("nats-nkey", "", "with --nats, a file holding an NKey seed to sign in with")
	insecure := fs.Bool("nats-insecure", false, "with --nats-listen, let the route port take routes from anyone who reaches it, with no secret and no TLS (logged as a warning at every start)")
	lease := fs.Duration("lease", server.DefaultLease, "with --cluster, how long a node's hold on its tables lasts unrenewed: a dead node's tables wait about that long")
	return func(db string) (*server.Cluster, error) {
		if !*on {
			if *url != "" || *listen != "" || *routes != "" {
				return nil, errors.New("--nats, --nats-listen and --nats-routes need --cluster")
			}
			return nil, nil
		}
		switch {
		case db == "":
			return nil, errors.New("--cluster needs PostgreSQL (--db postgres://…): SQLite has one writer, so it runs a single node")
		case strings.TrimSpace(*node) == "":
			return nil, errors.New("--cluster needs --node, a name unique in the cluster")
		case (*url == "") == (*listen == ""):
			return nil, errors.New("--cluster needs either --nats URL or --nats-listen ADDR")
		case *routes != "" && *listen == "":
			return nil, errors.New("--nats-routes needs --nats-listen")
		case *lease < time.Second:
			return nil, errors.New("--lease is at least 1s")
		}
		var peers []string
		if *routes != "" {
			peers = strings.Split(*routes, ",")
		}
		secret, err := routeSecret(*secretFile)
		if err != nil {
			return nil, err
		}
		if *url != "" && (secret != "" || *insecure) {
			return nil, errors.New("a route secret and --nats-insecure are for --nats-listen; sign in to --nats with --nats-creds, --nats-nkey, TLS or a user in its URL")
		}
		if *listen != "" && (*creds != "" || *nkey != "") {
			return nil, errors.New("--nats-creds and --nats-nkey are for --nats")
		}
		return &server.Cluster{Node: strings.TrimSpace(*node), Lease: *lease,
			NATS: cluster.NATSConfig{URL: *url, Listen: *listen, Routes: peers, RouteSecret: secret,
				TLS: cluster.TLSFiles{Cert: *cert, Key: *key, CA: *ca}, CredsFile: *creds, NKeyFile: *nkey, Insecure: *insecure}}, nil
	}
}

// routeSecretEnv names the variable holding the routes' shared secret.
const routeSecretEnv = "BULLSHIT_NATS_ROUTE_SECRET"

// routeSecret is the routes' shared secret, from file when one is named,
// else from the environment: never a flag, which every local user reads in
// the process list.
func routeSecret(file string) (string, error) {
	secret := os.Getenv(routeSecretEnv)
	if file != "" {
		b, err := os.ReadFile(file)
		if err != nil {
			return "", fmt.Errorf("--nats-route-secret-file: %w", err)
		}
		secret = string(b)
	}
	secret = strings.TrimSpace(secret)
	if secret != "" && len(secret) < 16 {
		return "", errors.New("the routes' secret is at least 16 characters (openssl rand -hex 32 makes a good one)")
	}
	return secret, nil
}
