package httpx

import (
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"slices"
	"strings"

	"github.com/labstack/echo/v4"
)

// ParseTrustedProxies reads a comma-separated list of CIDRs ("10.0.0.0/8")
// or single addresses ("2001:db8::1") of the proxies in front of the server,
// as the servers take them. An empty list trusts none.
func ParseTrustedProxies(s string) ([]netip.Prefix, error) {
	var out []netip.Prefix
	for part := range strings.SplitSeq(s, ",") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		if p, err := netip.ParsePrefix(part); err == nil {
			out = append(out, unmapPrefix(p).Masked())
			continue
		}
		a, err := netip.ParseAddr(part)
		if err != nil || a.Zone() != "" {
			return nil, fmt.Errorf("%q is neither a CIDR (10.0.0.0/8) nor an address", part)
		}
		a = a.Unmap()
		out = append(out, netip.PrefixFrom(a, a.BitLen()))
	}
	return out, nil
}

// unmapPrefix turns an IPv4-mapped IPv6 prefix (::ffff:10.0.0.0/104) into
// its IPv4 one, since addresses are unmapped before they are matched.
func unmapPrefix(p netip.Prefix) netip.Prefix {
	if !p.Addr().Is4In6() {
		return p
	}
	return netip.PrefixFrom(p.Addr().Unmap(), max(0, p.Bits()-96))
}

// ClientIP is the echo IPExtractor: the address of the client a request
// came from. A request straight from a client is its connection's address.
// Only when the connection comes from a trusted proxy is X-Forwarded-For
// believed, read from the right (the hop the proxy itself added) past every
// further trusted proxy to the first address that isn't one: everything to
// the left of that is the client's to forge.
func ClientIP(trusted []netip.Prefix) echo.IPExtractor {
	isTrusted := func(a netip.Addr) bool { return trustedAddr(trusted, a) }
	return func(r *http.Request) string {
		addr, host, ok := peer(r)
		if !ok {
			return host
		}
		if !isTrusted(addr) {
			return addr.String()
		}
		hops := forwardedFor(r.Header.Values("X-Forwarded-For"))
		for i := len(hops) - 1; i >= 0; i-- {
			hop, ok := parseHop(hops[i])
			if !ok {
				// Not an address: whoever wrote it is past the last hop a
				// trusted proxy vouched for.
				break
			}
			addr = hop
			if !isTrusted(addr) {
				break
			}
		}
		return addr.String()
	}
}

// peer is the address the connection comes from, unmapped; ok is false
// when the host isn't an address.
func peer(r *http.Request) (addr netip.Addr, host string, ok bool) {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		host = r.RemoteAddr
	}
	addr, err = netip.ParseAddr(host)
	if err != nil {
		return netip.Addr{}, host, false
	}
	return addr.Unmap(), host, true
}

func trustedAddr(trusted []netip.Prefix, a netip.Addr) bool {
	a = a.WithZone("")
	return slices.ContainsFunc(trusted, func(p netip.Prefix) bool { return p.Contains(a) })
}

// ForwardedHTTPS reports whether the connection comes from one of the
// trusted proxies and that proxy says the client reached it over HTTPS: the
// last X-Forwarded-Proto value, the one the proxy nearest the server wrote,
// is "https". From anyone else the header is the client's to forge, and is
// ignored.
func ForwardedHTTPS(trusted []netip.Prefix, r *http.Request) bool {
	addr, _, ok := peer(r)
	if !ok || !trustedAddr(trusted, addr) {
		return false
	}
	protos := forwardedFor(r.Header.Values("X-Forwarded-Proto"))
	return len(protos) > 0 && strings.EqualFold(protos[len(protos)-1], "https")
}

// forwardedFor splits every X-Forwarded-For (or -Proto) header into its
// hops, in order.
func forwardedFor(headers []string) []string {
	var hops []string
	for _, h := range headers {
		for hop := range strings.SplitSeq(h, ",") {
			hops = append(hops, strings.TrimSpace(hop))
		}
	}
	return hops
}

// parseHop reads one X-Forwarded-For entry: an address, perhaps with a port
// ("203.0.113.7:5000", "[2001:db8::1]:5000").
func parseHop(s string) (netip.Addr, bool) {
	if a, err := netip.ParseAddr(s); err == nil {
		return a.Unmap(), true
	}
	if ap, err := netip.ParseAddrPort(s); err == nil {
		return ap.Addr().Unmap(), true
	}
	if a, err := netip.ParseAddr(strings.TrimSuffix(strings.TrimPrefix(s, "["), "]")); err == nil {
		return a.Unmap(), true
	}
	return netip.Addr{}, false
}
