// Package lease holds a cluster node's lease: the database's word that the
// node is alive, which its games' ownership rests on (see store/nodes.go).
//
// A Session is one unbroken hold of it. Grant takes it with a renewal; the
// session renews it every TTL/4 until it is released or its context ends,
// and ends by itself (Done) once a renewal has not come in time by the
// local clock, a margin before the database could see the lease run out. A
// node whose session ended grants a new one: what it ran under the old one
// must stop, since a peer may have claimed it meanwhile.
package lease

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"time"
)

// Store is what a session needs of the database.
type Store interface {
	RenewLease(ctx context.Context, node string, ttl time.Duration) (time.Time, error)
	ReleaseLease(ctx context.Context, node string) error
}

// Config is a session's node and lease time.
type Config struct {
	// Node names the node that holds the lease.
	Node string
	// TTL is how long a renewal holds the lease.
	TTL time.Duration
	// Renewed, if set, is told of every renewal: err is nil when the
	// database held the lease, late says the renewal started or was
	// answered more than TTL/4 after it was due (the process was stalled, or
	// the database slow); and, with ErrLapsed and late, of the renewal that
	// never came when the session lapses. It is called from the session's
	// goroutines, or from Grant's.
	Renewed func(err error, late bool)
	// Freeze, for tests, is asked before each renewal: true skips it, as if
	// the database did not answer.
	Freeze func() bool
	// IgnoreDeadline, for tests, keeps the session going when its renewals
	// are overdue, as a paused process does whose timers have not yet
	// fired: only the fence on its writes stops what it runs.
	IgnoreDeadline bool
}

// Why a renewal did not hold the lease.
var (
	ErrFrozen   = errors.New("lease: the renewal is frozen (a test's fault)")
	ErrReleased = errors.New("lease: the session is released")
	// ErrLapsed is told when the session ends because no renewal came in
	// time: a renewal late past the deadline (the process was stalled,
	// the database did not answer) is never made.
	ErrLapsed = errors.New("lease: no renewal came in time")
)

// Session is one unbroken hold of a node's lease.
type Session struct {
	cfg    Config
	st     Store
	margin time.Duration
	// base and deadline are by the local monotonic clock: the lease is held
	// until base+deadline, which is a renewal's sending time plus the TTL
	// less the margin, so the session ends before the lease can in the
	// database.
	base     time.Time
	deadline atomic.Int64

	ctx    context.Context
	cancel context.CancelFunc
	done   chan struct{}
	ending sync.Once
	wg     sync.WaitGroup

	// renewing is held by a renewal under way, so a release never comes
	// before a renewal that would hold the lease again.
	renewing sync.Mutex
	released bool
}

// Grant takes node's lease with one renewal and keeps it from then on,
// until ctx ends, the session is released, or a renewal does not come in
// time. The session's goroutines end with it (End waits for them).
func Grant(ctx context.Context, st Store, cfg Config) (*Session, error) {
	switch {
	case cfg.Node == "":
		return nil, errors.New("lease: a node needs a name")
	case cfg.TTL <= 0:
		return nil, errors.New("lease: a lease needs a time")
	}
	s := &Session{cfg: cfg, st: st, margin: cfg.TTL / 4, base: time.Now(), done: make(chan struct{})}
	s.ctx, s.cancel = context.WithCancel(ctx)
	if err := s.renew(false); err != nil {
		s.cancel()
		return nil, err
	}
	if s.Left() <= 0 {
		s.cancel()
		return nil, errors.New("lease: the renewal was answered too late to hold the lease")
	}
	s.wg.Add(2)
	go s.keepAlive()
	go s.watch()
	return s, nil
}

// Done is closed when the session ends: it lapsed, was released or ended,
// or its context ended.
func (s *Session) Done() <-chan struct{} { return s.done }

// Left is how long the lease is still held by the local clock.
func (s *Session) Left() time.Duration {
	return time.Duration(s.deadline.Load()) - time.Since(s.base)
}

// Lapsed reports that the lease may soon run out in the database, or the
// session has ended: what runs under it must acknowledge nothing more.
func (s *Session) Lapsed() bool {
	select {
	case <-s.done:
		return true
	default:
	}
	return !s.cfg.IgnoreDeadline && s.Left() <= 0
}

// End stops the session's renewals and waits for its goroutines, leaving
// the lease in the database to run out by itself (as a crash would; a node
// restarted under its name takes its games back at once).
func (s *Session) End() {
	s.end()
	s.wg.Wait()
}

// Release ends the session and the lease now, after any renewal under way
// and before none, so that the node's peers may claim its games at once.
func (s *Session) Release(ctx context.Context) error {
	s.renewing.Lock()
	s.released = true
	s.renewing.Unlock()
	s.End()
	return s.st.ReleaseLease(ctx, s.cfg.Node)
}

func (s *Session) end() {
	s.ending.Do(func() {
		close(s.done)
		s.cancel()
	})
}

// renew renews the lease once; startedLate says it comes more than a
// period after it was due.
func (s *Session) renew(startedLate bool) error {
	s.renewing.Lock()
	defer s.renewing.Unlock()
	if s.released {
		return ErrReleased
	}
	if s.cfg.Freeze != nil && s.cfg.Freeze() {
		s.told(ErrFrozen, true)
		return ErrFrozen
	}
	sent := time.Since(s.base)
	ctx, cancel := context.WithTimeout(s.ctx, s.cfg.TTL)
	_, err := s.st.RenewLease(ctx, s.cfg.Node, s.cfg.TTL)
	cancel()
	if err != nil {
		s.told(err, true)
		return err
	}
	// Only ever later: a slow answer to an earlier renewal must not cut
	// short what a later one holds.
	until := int64(sent + s.cfg.TTL - s.margin)
	for {
		old := s.deadline.Load()
		if old >= until || s.deadline.CompareAndSwap(old, until) {
			break
		}
	}
	s.told(nil, startedLate || time.Since(s.base)-sent > s.cfg.TTL/4)
	return nil
}

func (s *Session) told(err error, late bool) {
	if s.cfg.Renewed != nil {
		s.cfg.Renewed(err, late)
	}
}

// keepAlive renews the lease every TTL/4 while the session lasts.
func (s *Session) keepAlive() {
	defer s.wg.Done()
	every := s.cfg.TTL / 4
	due := time.Now().Add(every)
	timer := time.NewTimer(every)
	defer timer.Stop()
	for {
		select {
		case <-s.ctx.Done():
			return
		case <-timer.C:
		}
		_ = s.renew(time.Since(due) > every)
		due = time.Now().Add(every)
		timer.Reset(every)
	}
}

// watch ends the session once the lease is about to run out by the local
// clock, whatever the renewals are doing (one may hang on a database that
// doesn't answer).
func (s *Session) watch() {
	defer s.wg.Done()
	timer := time.NewTimer(max(s.Left(), time.Millisecond))
	defer timer.Stop()
	for {
		select {
		case <-s.ctx.Done():
			s.end()
			return
		case <-timer.C:
		}
		switch left := s.Left(); {
		case left > 0:
			timer.Reset(left)
		case s.cfg.IgnoreDeadline:
			timer.Reset(s.cfg.TTL / 4)
		default:
			s.told(ErrLapsed, true)
			s.end()
			return
		}
	}
}
