package httpx

import (
	"net/http/httptest"
	"net/netip"
	"slices"
	"testing"
)

func TestClientIP(t *testing.T) {
	proxies, err := ParseTrustedProxies("10.0.0.0/8, 2001:db8:ffff::/48, 192.0.2.9")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name    string
		trusted []netip.Prefix
		peer    string
		xff     []string
		want    string
	}{
		{"no proxies trusted: forged hops ignored", nil, "203.0.113.5:4000", []string{"198.51.100.1"}, "203.0.113.5"},
		{"untrusted peer: forged hops ignored", proxies, "203.0.113.5:4000", []string{"198.51.100.1"}, "203.0.113.5"},
		{"trusted peer, no header", proxies, "10.1.2.3:4000", nil, "10.1.2.3"},
		{"trusted peer: the hop it added", proxies, "10.1.2.3:4000", []string{"198.51.100.1"}, "198.51.100.1"},
		{"the rightmost untrusted hop, not the forged leftmost", proxies, "10.1.2.3:4000", []string{"1.2.3.4, 198.51.100.1"}, "198.51.100.1"},
		{"past a chain of trusted proxies", proxies, "10.1.2.3:4000", []string{"1.2.3.4, 198.51.100.1, 10.9.9.9", "192.0.2.9"}, "198.51.100.1"},
		{"every hop trusted: the leftmost", proxies, "10.1.2.3:4000", []string{"10.0.0.7, 10.0.0.8"}, "10.0.0.7"},
		{"garbage stops the walk at the last trusted hop", proxies, "10.1.2.3:4000", []string{"bogus, 10.0.0.8"}, "10.0.0.8"},
		{"a hop with a port", proxies, "10.1.2.3:4000", []string{"198.51.100.1:5555"}, "198.51.100.1"},
		{"an IPv6 hop with a port", proxies, "10.1.2.3:4000", []string{"[2001:db8::7]:5555"}, "2001:db8::7"},
		{"a trusted IPv6 peer", proxies, "[2001:db8:ffff::1]:4000", []string{"2001:db8::7"}, "2001:db8::7"},
		{"an IPv4-mapped peer is matched as IPv4", proxies, "[::ffff:10.1.2.3]:4000", []string{"198.51.100.1"}, "198.51.100.1"},
		{"a single trusted address", proxies, "192.0.2.9:4000", []string{"198.51.100.1"}, "198.51.100.1"},
		{"next to a single trusted address", proxies, "192.0.2.10:4000", []string{"198.51.100.1"}, "192.0.2.10"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := httptest.NewRequest("GET", "/", nil)
			r.RemoteAddr = tt.peer
			for _, h := range tt.xff {
				r.Header.Add("X-Forwarded-For", h)
			}
			if got := ClientIP(tt.trusted)(r); got != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}

func TestParseTrustedProxies(t *testing.T) {
	tests := []struct {
		in      string
		want    []string
		wantErr bool
	}{
		{"", nil, false},
		{" 10.0.0.0/8 ,, 192.0.2.1 ", []string{"10.0.0.0/8", "192.0.2.1/32"}, false},
		{"10.1.2.3/8", []string{"10.0.0.0/8"}, false},
		{"2001:db8::/32,::1", []string{"2001:db8::/32", "::1/128"}, false},
		{"::ffff:10.0.0.0/104", []string{"10.0.0.0/8"}, false},
		{"10.0.0.0/33", nil, true},
		{"example.com", nil, true},
	}
	for _, tt := range tests {
		got, err := ParseTrustedProxies(tt.in)
		if (err != nil) != tt.wantErr {
			t.Errorf("ParseTrustedProxies(%q): got error %v, want one: %v", tt.in, err, tt.wantErr)
			continue
		}
		var gotS []string
		for _, p := range got {
			gotS = append(gotS, p.String())
		}
		if !slices.Equal(gotS, tt.want) {
			t.Errorf("ParseTrustedProxies(%q): got %v, want %v", tt.in, gotS, tt.want)
		}
	}
}
