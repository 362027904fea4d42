package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"strings"

	"bullshit/cluster"
)

func init() {
	register(command{name: "cluster-certs", summary: "make the cluster's CA and a node's certificate for mutual TLS on the NATS routes", run: clusterCerts})
}

// clusterCerts makes a node's certificate, and the cluster's CA the first
// time (cluster.WriteCerts), and prints the flags that use them.
func clusterCerts(_ context.Context, args []string) error {
	fs := flag.NewFlagSet("cluster-certs", flag.ContinueOnError)
	dir := fs.String("dir", "certs", "the folder for the CA and the nodes' certificates")
	node := fs.String("node", "", "the node's name (its --node)")
	hosts := fs.String("hosts", "", "comma-separated host names and IP addresses its peers reach its --nats-listen at")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *node == "" || *hosts == "" {
		return errors.New("give --node and --hosts")
	}
	files, err := cluster.WriteCerts(*dir, *node, strings.Split(*hosts, ","))
	if err != nil {
		return err
	}
	fmt.Printf("--nats-tls-cert %s --nats-tls-key %s --nats-tls-ca %s\n", files.Cert, files.Key, files.CA)
	return nil
}
