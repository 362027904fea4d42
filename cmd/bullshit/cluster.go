package main

import (
	"errors"
	"flag"
	"os"
	"strings"
	"time"

	"bullshit/cluster"
	router "bullshit/server"
)

// clusterFlags adds serve's cluster flags to fs; the returned func reads
// them once parsed: nil settings for a single node.
func clusterFlags(fs *flag.FlagSet) func(db string) (*router.Cluster, error) {
	on := fs.Bool("cluster", false, "run as one node of several on one PostgreSQL (--db), joined over NATS (see docs/cluster.md)")
	host, _ := os.Hostname()
	node := fs.String("node", host, "with --cluster, this node's name, unique in the cluster")
	url := fs.String("nats", "", "with --cluster, the URL of a NATS server or cluster to join (nats://host:4222), instead of embedding one")
	listen := fs.String("nats-listen", "", "with --cluster, embed a NATS server whose routes listen here (host:port), instead of --nats")
	routes := fs.String("nats-routes", "", "with --nats-listen, comma-separated host:port of the peers' --nats-listen (the same list on every node will do)")
	lease := fs.Duration("lease", router.DefaultLease, "with --cluster, how long a node's hold on its tables lasts unrenewed: a dead node's tables wait about that long")
	return func(db string) (*router.Cluster, error) {
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
		return &router.Cluster{Node: strings.TrimSpace(*node), Lease: *lease,
			NATS: cluster.NATSConfig{URL: *url, Listen: *listen, Routes: peers}}, nil
	}
}
