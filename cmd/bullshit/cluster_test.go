package main

import (
	"context"
	"strings"
	"testing"
)

func TestServeRefusesBadClusterFlags(t *testing.T) {
	tests := []struct {
		args []string
		want string // in the error
	}{
		{[]string{"--cluster", "--nats-listen", "127.0.0.1:0"}, "PostgreSQL"},
		{[]string{"--nats", "nats://127.0.0.1:4222"}, "need --cluster"},
		{[]string{"--nats-listen", "127.0.0.1:0"}, "need --cluster"},
		{[]string{"--cluster", "--db", "postgres://nowhere/x", "--node", "a"}, "either --nats"},
		{[]string{"--cluster", "--db", "postgres://nowhere/x", "--node", "a", "--nats", "nats://x", "--nats-listen", "127.0.0.1:0"}, "either --nats"},
		{[]string{"--cluster", "--db", "postgres://nowhere/x", "--node", "a", "--nats", "nats://x", "--nats-routes", "127.0.0.1:6222"}, "--nats-routes needs --nats-listen"},
		{[]string{"--cluster", "--db", "postgres://nowhere/x", "--node", " ", "--nats-listen", "127.0.0.1:0"}, "--node"},
		{[]string{"--cluster", "--db", "postgres://nowhere/x", "--node", "a", "--nats-listen", "127.0.0.1:0", "--lease", "10ms"}, "--lease"},
		{[]string{"--cluster", "--db", "postgres://nowhere/x", "--node", "a", "--nats", "nats://x", "--nats-insecure"}, "for --nats-listen"},
		{[]string{"--cluster", "--db", "postgres://nowhere/x", "--node", "a", "--nats-listen", "127.0.0.1:0", "--nats-creds", "x.creds"}, "are for --nats"},
		{[]string{"--cluster", "--db", "postgres://nowhere/x", "--node", "a", "--nats-listen", "127.0.0.1:0", "--nats-route-secret-file", "/nowhere/secret"}, "--nats-route-secret-file"},
	}
	for _, tt := range tests {
		t.Setenv("BULLSHIT_NATS_ROUTE_SECRET", "")
		err := serve(context.Background(), append(tt.args, "--data", t.TempDir(), "--addr", "127.0.0.1:0"))
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("serve %v: got %v, want an error saying %q", tt.args, err, tt.want)
		}
	}
}

func TestRouteSecretRefusedShort(t *testing.T) {
	t.Setenv(routeSecretEnv, "short")
	if _, err := routeSecret(""); err == nil || !strings.Contains(err.Error(), "at least 16") {
		t.Errorf("routeSecret of a 5-character secret: got %v, want it refused as too short", err)
	}
}
