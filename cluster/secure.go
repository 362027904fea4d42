package cluster

import (
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"encoding/hex"
	"errors"
	"fmt"
	"os"

	"github.com/nats-io/nats.go"
)

// clientLogin makes the embedded server's one user: only this process
// learns it, so only this process connects to the client port.
func clientLogin() (user, pass string, err error) {
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		return "", "", fmt.Errorf("cluster: making the NATS client's password: %w", err)
	}
	return "node", hex.EncodeToString(b), nil
}

// mutualTLS is the routes' TLS: this node's certificate, and its peers'
// required and checked against the cluster's CA, both ways (a route is a
// client of the peer it solicits and a server to the peer that solicits
// it).
func mutualTLS(f TLSFiles) (*tls.Config, error) {
	if f.Cert == "" || f.Key == "" || f.CA == "" {
		return nil, errors.New("cluster: TLS on the routes needs a certificate, its key and the cluster's CA")
	}
	cert, err := tls.LoadX509KeyPair(f.Cert, f.Key)
	if err != nil {
		return nil, fmt.Errorf("cluster: the node's certificate: %w", err)
	}
	pool, err := caPool(f.CA)
	if err != nil {
		return nil, err
	}
	return &tls.Config{
		MinVersion:   tls.VersionTLS12,
		Certificates: []tls.Certificate{cert},
		ClientCAs:    pool, ClientAuth: tls.RequireAndVerifyClientCert,
		RootCAs: pool,
	}, nil
}

func caPool(file string) (*x509.CertPool, error) {
	pem, err := os.ReadFile(file)
	if err != nil {
		return nil, fmt.Errorf("cluster: the cluster's CA: %w", err)
	}
	pool := x509.NewCertPool()
	if !pool.AppendCertsFromPEM(pem) {
		return nil, fmt.Errorf("cluster: %s holds no PEM certificate", file)
	}
	return pool, nil
}

// urlSignIn is how the node signs in to a NATS server it was given by URL:
// a credentials file, an NKey seed, TLS files, any that cfg names (a user
// and password go in the URL itself).
func urlSignIn(cfg NATSConfig) ([]nats.Option, error) {
	if cfg.RouteSecret != "" || cfg.Insecure {
		return nil, errors.New("cluster: a route secret and --nats-insecure are for the embedded server (--nats-listen)")
	}
	var opts []nats.Option
	if cfg.CredsFile != "" && cfg.NKeyFile != "" {
		return nil, errors.New("cluster: give a credentials file or an NKey seed, not both")
	}
	if cfg.CredsFile != "" {
		opts = append(opts, nats.UserCredentials(cfg.CredsFile))
	}
	if cfg.NKeyFile != "" {
		o, err := nats.NkeyOptionFromSeed(cfg.NKeyFile)
		if err != nil {
			return nil, fmt.Errorf("cluster: the NKey seed: %w", err)
		}
		opts = append(opts, o)
	}
	switch t := cfg.TLS; {
	case (t.Cert == "") != (t.Key == ""):
		return nil, errors.New("cluster: a client certificate needs its key, and a key its certificate")
	case t.Cert != "":
		opts = append(opts, nats.ClientCert(t.Cert, t.Key))
	}
	if cfg.TLS.CA != "" {
		opts = append(opts, nats.RootCAs(cfg.TLS.CA))
	}
	return opts, nil
}
