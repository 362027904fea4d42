package cluster

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"errors"
	"fmt"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// How long the certificates made here last: the CA longer, so a node's
// certificate made late in its life is still signed by a valid one.
const (
	nodeCertLife = 2 * 365 * 24 * time.Hour
	caCertLife   = 5 * 365 * 24 * time.Hour
)

// WriteCerts makes dir/ca.pem and dir/ca-key.pem when they are not there
// yet, then dir/<node>.pem and dir/<node>-key.pem signed by that CA, for
// the hosts (names or IP addresses) the node's peers reach its routes at,
// and returns the node's files. The CA's key stays with whoever makes the
// certificates; each node is given ca.pem and its own pair.
func WriteCerts(dir, node string, hosts []string) (TLSFiles, error) {
	name := strings.TrimSpace(node)
	if name == "" || strings.ContainsAny(name, `/\`) {
		return TLSFiles{}, errors.New("cluster: a certificate's node has a name, without slashes")
	}
	var dns []string
	var ips []net.IP
	for _, h := range hosts {
		h = strings.TrimSpace(h)
		switch ip := net.ParseIP(h); {
		case h == "":
		case ip != nil:
			ips = append(ips, ip)
		default:
			dns = append(dns, h)
		}
	}
	if len(dns)+len(ips) == 0 {
		return TLSFiles{}, errors.New("cluster: a node's certificate names at least one host or IP address its peers reach it at")
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return TLSFiles{}, err
	}
	ca, caKey, err := loadOrMakeCA(dir)
	if err != nil {
		return TLSFiles{}, err
	}
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return TLSFiles{}, err
	}
	now := time.Now()
	tmpl := &x509.Certificate{
		SerialNumber: serial(),
		Subject:      pkix.Name{CommonName: name, Organization: []string{"bullshit cluster"}},
		NotBefore:    now.Add(-time.Hour), NotAfter: now.Add(nodeCertLife),
		KeyUsage: x509.KeyUsageDigitalSignature,
		// A route is a client of the peer it dials and a server to the
		// peer that dials it.
		ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth, x509.ExtKeyUsageClientAuth},
		DNSNames:    dns, IPAddresses: ips,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, ca, &key.PublicKey, caKey)
	if err != nil {
		return TLSFiles{}, err
	}
	certFile := filepath.Join(dir, name+".pem")
	keyFile := filepath.Join(dir, name+"-key.pem")
	if err := writePEM(certFile, "CERTIFICATE", der, 0o644); err != nil {
		return TLSFiles{}, err
	}
	if err := writeKey(keyFile, key); err != nil {
		return TLSFiles{}, err
	}
	return TLSFiles{Cert: certFile, Key: keyFile, CA: filepath.Join(dir, "ca.pem")}, nil
}

// loadOrMakeCA reads the CA in dir, or makes one there.
func loadOrMakeCA(dir string) (*x509.Certificate, *ecdsa.PrivateKey, error) {
	certFile, keyFile := filepath.Join(dir, "ca.pem"), filepath.Join(dir, "ca-key.pem")
	if certPEM, err := os.ReadFile(certFile); err == nil {
		keyPEM, err := os.ReadFile(keyFile)
		if err != nil {
			return nil, nil, fmt.Errorf("the CA's key: %w", err)
		}
		cb, _ := pem.Decode(certPEM)
		kb, _ := pem.Decode(keyPEM)
		if cb == nil || kb == nil {
			return nil, nil, fmt.Errorf("%s or %s is not PEM", certFile, keyFile)
		}
		cert, err := x509.ParseCertificate(cb.Bytes)
		if err != nil {
			return nil, nil, err
		}
		key, err := x509.ParseECPrivateKey(kb.Bytes)
		if err != nil {
			return nil, nil, err
		}
		return cert, key, nil
	} else if !errors.Is(err, os.ErrNotExist) {
		return nil, nil, err
	}
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, nil, err
	}
	now := time.Now()
	tmpl := &x509.Certificate{
		SerialNumber: serial(),
		Subject:      pkix.Name{CommonName: "bullshit cluster CA"},
		NotBefore:    now.Add(-time.Hour), NotAfter: now.Add(caCertLife),
		IsCA: true, BasicConstraintsValid: true, MaxPathLenZero: true,
		KeyUsage: x509.KeyUsageCertSign | x509.KeyUsageCRLSign,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		return nil, nil, err
	}
	if err := writePEM(certFile, "CERTIFICATE", der, 0o644); err != nil {
		return nil, nil, err
	}
	if err := writeKey(keyFile, key); err != nil {
		return nil, nil, err
	}
	cert, err := x509.ParseCertificate(der)
	return cert, key, err
}

func serial() *big.Int {
	n, err := rand.Int(rand.Reader, new(big.Int).Lsh(big.NewInt(1), 127))
	if err != nil {
		panic(err) // crypto/rand does not fail on a supported system
	}
	return n
}

func writeKey(file string, key *ecdsa.PrivateKey) error {
	der, err := x509.MarshalECPrivateKey(key)
	if err != nil {
		return err
	}
	return writePEM(file, "EC PRIVATE KEY", der, 0o600)
}

func writePEM(file, kind string, der []byte, mode os.FileMode) error {
	return os.WriteFile(file, pem.EncodeToMemory(&pem.Block{Type: kind, Bytes: der}), mode)
}
