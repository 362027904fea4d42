package storetest

import (
	"bytes"
	"encoding/binary"
	"errors"
	"io"
	"net"
	"net/url"
	"sync"
	"sync/atomic"
	"testing"
)

// Proxy forwards TCP connections to a PostgreSQL server and cuts them as
// the network would: armed with a piece of a query (CutAfter), it forwards
// the next query that holds it, lets the server answer (so it has
// committed), drops the answer and resets every connection; it can then
// reset each new connection at once, until restored.
type Proxy struct {
	tb     testing.TB
	ln     net.Listener
	target string
	wg     sync.WaitGroup

	mu    sync.Mutex
	conns map[*net.TCPConn]bool
	down  bool
	arm   string
	// stayDown: the cut takes the server down, not just the connections.
	stayDown bool
	cut      chan struct{} // closed when the armed query was cut
}

// NewProxy listens on a port of its own for connections to target (a
// host:port), until tb ends.
func NewProxy(tb testing.TB, target string) *Proxy {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		tb.Fatal(err)
	}
	p := &Proxy{tb: tb, ln: ln, target: target, conns: map[*net.TCPConn]bool{}}
	p.wg.Go(p.accept)
	tb.Cleanup(func() {
		ln.Close()
		p.resetAll()
		p.wg.Wait()
	})
	return p
}

// URL is the database URL u with the proxy in place of its host.
func (p *Proxy) URL(u string) string {
	parsed, err := url.Parse(u)
	if err != nil {
		p.tb.Fatal(err)
	}
	parsed.Host = p.ln.Addr().String()
	return parsed.String()
}

// CutAfter arms the proxy: the next query holding query is cut once
// answered, and with down every connection after it is refused until
// Restore. The channel is closed when the cut is made.
func (p *Proxy) CutAfter(query string, down bool) <-chan struct{} {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.arm, p.stayDown, p.cut = query, down, make(chan struct{})
	return p.cut
}

// Cut resets every connection now and refuses new ones until Restore: the
// database is out of reach.
func (p *Proxy) Cut() {
	p.mu.Lock()
	p.down = true
	p.mu.Unlock()
	p.resetAll()
}

// Restore lets connections through again.
func (p *Proxy) Restore() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.down = false
}

func (p *Proxy) accept() {
	for {
		c, err := p.ln.Accept()
		if err != nil {
			return
		}
		client := c.(*net.TCPConn)
		p.mu.Lock()
		down := p.down
		if !down {
			p.conns[client] = true
		}
		p.mu.Unlock()
		if down {
			client.SetLinger(0)
			client.Close()
			continue
		}
		p.wg.Go(func() { p.forward(client) })
	}
}

// forward carries one client's connection to the server and back.
func (p *Proxy) forward(client *net.TCPConn) {
	defer p.drop(client)
	s, err := net.Dial("tcp", p.target)
	if err != nil {
		return
	}
	server := s.(*net.TCPConn)
	p.mu.Lock()
	p.conns[server] = true
	p.mu.Unlock()
	defer p.drop(server)

	var doomed atomic.Bool
	p.wg.Go(func() {
		defer p.drop(client)
		// The server's messages: a type byte and a length. Once the armed
		// query is on its way, its answer is dropped, and the server's
		// ready-for-query says it has finished with it: the cut.
		for {
			typ, msg, err := readMessage(server, true)
			if err != nil {
				return
			}
			if !doomed.Load() {
				if _, err := client.Write(msg); err != nil {
					return
				}
				continue
			}
			if typ == 'Z' {
				p.cutNow()
				return
			}
		}
	})
	// The client's: a startup message without a type byte, then typed.
	typed := false
	for {
		typ, msg, err := readMessage(client, typed)
		if err != nil {
			return
		}
		typed = true
		if typ == 'Q' && p.armedFor(msg) {
			doomed.Store(true)
		}
		if _, err := server.Write(msg); err != nil {
			return
		}
	}
}

// armedFor reports whether a query message is the armed one, disarming.
func (p *Proxy) armedFor(msg []byte) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.arm == "" || !bytes.Contains(msg, []byte(p.arm)) {
		return false
	}
	p.arm = ""
	return true
}

// cutNow resets every connection, and refuses new ones when armed so.
func (p *Proxy) cutNow() {
	p.mu.Lock()
	p.down = p.stayDown
	close(p.cut)
	p.mu.Unlock()
	p.resetAll()
}

func (p *Proxy) resetAll() {
	p.mu.Lock()
	defer p.mu.Unlock()
	for c := range p.conns {
		c.SetLinger(0)
		c.Close()
	}
	clear(p.conns)
}

func (p *Proxy) drop(c *net.TCPConn) {
	p.mu.Lock()
	delete(p.conns, c)
	p.mu.Unlock()
	c.Close()
}

// readMessage reads one message of PostgreSQL's protocol, whole, with its
// type byte when typed.
func readMessage(r io.Reader, typed bool) (typ byte, msg []byte, err error) {
	head := 4
	if typed {
		head = 5
	}
	msg = make([]byte, head)
	if _, err := io.ReadFull(r, msg); err != nil {
		return 0, nil, err
	}
	n := int(binary.BigEndian.Uint32(msg[head-4:]))
	if n < 4 {
		return 0, nil, errors.New("bad message length")
	}
	msg = append(msg, make([]byte, n-4)...)
	if _, err := io.ReadFull(r, msg[head:]); err != nil {
		return 0, nil, err
	}
	if typed {
		typ = msg[0]
	}
	return typ, msg, nil
}
