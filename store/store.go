package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"
	"unicode/utf8"

	// The PostgreSQL driver, registered as "pgx".
	_ "github.com/jackc/pgx/v5/stdlib"
	"github.com/uptrace/bun"
	"github.com/uptrace/bun/dialect/pgdialect"
	"github.com/uptrace/bun/dialect/sqlitedialect"
	"github.com/uptrace/bun/driver/sqliteshim"
)

// Errors a caller can act on; match them with errors.Is.
var (
	// ErrNotFound is a row that does not exist: a game, an account, a
	// session or an API token.
	ErrNotFound = errors.New("not found")
	// ErrDuplicate is a row that is already stored: a game id already taken,
	// an account name taken or an API token's name used twice by one
	// account.
	ErrDuplicate = errors.New("already stored")
	// ErrNotNext is an action appended with a sequence number that is not
	// the next of its game's log: one already used, or past the end.
	ErrNotNext = errors.New("not the next action of the game")
	// ErrNotOpen is a start of a game that is not waiting for players.
	ErrNotOpen = errors.New("game is not open")
	// ErrOver is a finish of a game that is already finished or ended.
	ErrOver = errors.New("game is already over")
)

// storable reports whether s can be in a stored text column. bun writes
// arguments into the SQL text itself, and a string with a NUL byte goes in
// as a marker the database can't parse ("?!(bun: string contains a NUL
// byte)"), so the whole statement fails as the database's error; a byte
// that isn't UTF-8 goes in as U+FFFD, another string than the one asked
// for. No stored text holds either (PostgreSQL's text can't hold a NUL, and
// bun could never have written one), so a look-up by such a string finds
// nothing, and is answered so without asking the database.
func storable(s string) bool { return utf8.ValidString(s) && strings.IndexByte(s, 0) < 0 }

// The dialect names Dialect reports.
const (
	SQLite   = "sqlite"
	Postgres = "pg"
)

// busyTimeoutMS is how long a SQLite connection waits for another writer
// before giving up with "database is locked".
const busyTimeoutMS = 10000

// Store is a database holding games. It is safe for concurrent use.
type Store struct {
	db      *bun.DB
	dialect string
	// commits groups writes into shared transactions, on SQLite only
	// (see writeTx); nil on PostgreSQL.
	commits *committer
	// timings is told how long each write's stages took (ObserveWrites).
	timings *writeTimings
	// sqliteAppend are SQLite's statements of appends (see
	// appendSQLite); nil on PostgreSQL.
	sqliteAppend *sqliteAppend
}

// Open connects and migrates. url is a PostgreSQL URL ("postgres://..." or
// "postgresql://...") or a SQLite file path (optionally "sqlite:" prefixed);
// the SQLite file's folder is created if missing.
func Open(ctx context.Context, url string) (*Store, error) {
	var s *Store
	if strings.HasPrefix(url, "postgres://") || strings.HasPrefix(url, "postgresql://") {
		sqldb, err := sql.Open("pgx", url)
		if err != nil {
			return nil, fmt.Errorf("open postgres: %w", err)
		}
		s = &Store{db: bun.NewDB(sqldb, pgdialect.New()), dialect: Postgres, timings: &writeTimings{}}
	} else {
		dsn, err := sqliteDSN(url)
		if err != nil {
			return nil, err
		}
		sqldb, err := sql.Open(sqliteshim.ShimName, dsn)
		if err != nil {
			return nil, fmt.Errorf("open sqlite: %w", err)
		}
		s = &Store{db: bun.NewDB(sqldb, sqlitedialect.New()), dialect: SQLite, timings: &writeTimings{}}
	}
	s.limitPool()
	if s.dialect == SQLite {
		s.commits = newCommitter(s.db, s.timings)
	}
	if err := s.db.PingContext(ctx); err != nil {
		s.Close()
		return nil, fmt.Errorf("connect to %s database: %w", s.dialect, err)
	}
	if err := s.migrate(ctx); err != nil {
		s.Close()
		return nil, fmt.Errorf("migrate %s database: %w", s.dialect, err)
	}
	if s.dialect == SQLite {
		p, err := prepareSQLiteAppend(ctx, s.db.DB)
		if err != nil {
			s.Close()
			return nil, err
		}
		s.sqliteAppend = p
	}
	return s, nil
}

// The connection pool's limits.
//
// SQLite (a file, WAL): readers never wait for the writer or each other, but
// only one connection writes at a time, and a writer that finds the file
// locked sleeps and retries inside SQLite (busy_timeout) with no order among
// the waiters. The pool is capped so that a burst of writes queues in the
// pool, first come first served, rather than in SQLite's retry loop, with
// room for reads beside the one writer: SQLite runs on the server's own CPUs,
// so more connections than a few per core buy nothing. Idle connections are
// kept as many as the cap and never retired: opening one re-runs the DSN's
// settings and re-reads the schema, and a local file has nothing to renew.
//
// PostgreSQL: a connection is a server process, and the server's default
// max_connections is 100, shared by every server process of the game, tools
// and migrations; 16 per server is plenty for a workload of short queries
// and group-committed writes. They are kept idle up to the cap so a burst
// does not pay for a new connection per query, closed after 5 idle minutes
// so a quiet server gives them back, and renewed every 30 minutes so a
// server-side session never grows old (memory, a fail-over, a pooler's
// rebalancing).
const (
	sqliteMaxConns      = 8
	postgresMaxConns    = 16
	postgresMaxIdleTime = 5 * time.Minute
	postgresMaxLifetime = 30 * time.Minute
)

// postgresWriters is how many group commits PostgreSQL takes at once: each
// syncs its own commit, and their syncs overlap, while the pool keeps
// connections for the reads and the tables' other writes.
const postgresWriters = 4

// Writers is how many writers of actions the store takes at once: SQLite
// has one writer whatever the connections, PostgreSQL several.
func (s *Store) Writers() int {
	if s.dialect == Postgres {
		return postgresWriters
	}
	return 1
}

// limitPool sets the pool's limits for the store's dialect.
func (s *Store) limitPool() {
	switch s.dialect {
	case SQLite:
		s.db.SetMaxOpenConns(sqliteMaxConns)
		s.db.SetMaxIdleConns(sqliteMaxConns)
		s.db.SetConnMaxLifetime(0)
		s.db.SetConnMaxIdleTime(0)
	case Postgres:
		s.db.SetMaxOpenConns(postgresMaxConns)
		s.db.SetMaxIdleConns(postgresMaxConns)
		s.db.SetConnMaxIdleTime(postgresMaxIdleTime)
		s.db.SetConnMaxLifetime(postgresMaxLifetime)
	}
}

// sqliteDSN turns a file path into a DSN for the modernc driver. The settings
// go in the DSN, not in PRAGMA statements, because a PRAGMA run by Exec
// reaches only one of the pool's connections: each connection the pool opens
// must wait for a busy writer, write ahead (so readers never block the
// writer), check foreign keys, and begin every transaction as a writer (so
// two transactions never deadlock upgrading from read to write). Writes stay
// synchronous=FULL, SQLite's default: an action is acknowledged only once it
// is stored, so it must survive a power cut, not just a crash.
func sqliteDSN(url string) (string, error) {
	path := url
	if rest, ok := strings.CutPrefix(url, "sqlite:"); ok {
		path = strings.TrimPrefix(rest, "//")
	}
	if path == "" || path == ":memory:" || strings.HasPrefix(path, "file:") {
		return "", fmt.Errorf("sqlite database %q: give a file path", url)
	}
	if strings.Contains(path, "?") {
		return "", fmt.Errorf("sqlite database %q: a path may not contain '?'", url)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return "", fmt.Errorf("create the database folder: %w", err)
	}
	if d := sqliteshim.DriverName(); d != "sqlite" {
		// The DSN below and classify are written for modernc, which
		// sqliteshim picks on every platform modernc supports.
		return "", fmt.Errorf("sqlite: this build uses the %q driver, not modernc's", d)
	}
	dsn := fmt.Sprintf("%s?_pragma=busy_timeout(%d)&_pragma=journal_mode(WAL)&_pragma=foreign_keys(1)&_txlock=immediate", path, busyTimeoutMS)
	return dsn, nil
}

// Close closes the database once the write under way has committed.
func (s *Store) Close() error {
	if s.commits != nil {
		s.commits.close()
	}
	if s.sqliteAppend != nil {
		s.sqliteAppend.close()
	}
	return s.db.Close()
}

// DB is the underlying database, for queries this package does not offer.
func (s *Store) DB() *bun.DB { return s.db }

// Dialect is "sqlite" or "pg".
func (s *Store) Dialect() string { return s.dialect }

// The SQLite extended result codes for constraint failures.
const (
	sqliteConstraintForeignKey = 787
	sqliteConstraintPrimaryKey = 1555
	sqliteConstraintUnique     = 2067
)

// classify maps a driver's constraint errors to ErrDuplicate (a key already
// used) and ErrNotFound (a row for a game that does not exist), keeping the
// driver's error in the chain. It matches on the errors' methods (pgconn's
// SQLState, modernc's Code) so as not to import the drivers' packages.
func classify(err error) error {
	if err == nil {
		return nil
	}
	var pg interface{ SQLState() string }
	if errors.As(err, &pg) {
		switch pg.SQLState() {
		case "23505": // unique_violation
			return fmt.Errorf("%w: %w", ErrDuplicate, err)
		case "23503": // foreign_key_violation
			return fmt.Errorf("%w: %w", ErrNotFound, err)
		}
	}
	var lite interface{ Code() int }
	if errors.As(err, &lite) {
		switch lite.Code() {
		case sqliteConstraintPrimaryKey, sqliteConstraintUnique:
			return fmt.Errorf("%w: %w", ErrDuplicate, err)
		case sqliteConstraintForeignKey:
			return fmt.Errorf("%w: %w", ErrNotFound, err)
		}
	}
	return err
}
