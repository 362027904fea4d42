package store

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/uptrace/bun"

	"bullshit/game"
)

// ErrArenaNotStarted is a table formed in an arena before its start.
var ErrArenaNotStarted = errors.New("the arena has not started")

// arenaGame links a game to the arena it was formed in.
type arenaGame struct {
	bun.BaseModel `bun:"table:arena_games,alias:ag"`
	GameID        string    `bun:"game_id,pk"`
	ArenaID       int64     `bun:"arena_id"`
	FormedAt      time.Time `bun:"formed_at"`
}

// FormedTable is a game formed in an arena, with its seats.
type FormedTable struct {
	Game  *Game
	Seats []Seat
}

// CreateArenaGame stores a table formed in an arena: the game and its
// seats as CreateGame does, and its link to the arena, all or nothing, so
// a pairing decision is stored whole or not at all. It is fenced on the
// arena's director's f (else ErrFenced, and nothing is written), and
// refused, writing nothing, when formedAt is before the arena's start
// (ErrArenaNotStarted) or at or after its end, or the arena is closed
// (ErrArenaOver), or when a seat's account is at another of the arena's
// tables still open or live (ErrArenaBusy). A game id already taken is
// ErrDuplicate, so the caller can draw another. The game's own owner and
// epoch are g's: the table may run on another node than the director.
func (s *Store) CreateArenaGame(ctx context.Context, f Fence, arena int64, g *Game, seats []Seat, formedAt time.Time) error {
	if err := s.CreateArenaGames(ctx, f, arena, []FormedTable{{Game: g, Seats: seats}}, formedAt); err != nil {
		return fmt.Errorf("form table %s in arena %d: %w", g.ID, arena, err)
	}
	return nil
}

// CreateArenaGames stores the tables of one pairing as CreateArenaGame
// stores one, all in one transaction: a pool paired at once (an arena's
// start) pays for one commit, and an account seated at two of the tables
// is ErrArenaBusy.
func (s *Store) CreateArenaGames(ctx context.Context, f Fence, arena int64, tables []FormedTable, formedAt time.Time) error {
	if len(tables) == 0 {
		return nil
	}
	var (
		games   []gameRow
		seats   []Seat
		links   []arenaGame
		players []int64
	)
	seated := map[int64]bool{}
	for _, t := range tables {
		row, err := toGameRow(t.Game)
		if err != nil {
			return err
		}
		games = append(games, row)
		seats = append(seats, withGameID(t.Seats, t.Game.ID)...)
		links = append(links, arenaGame{GameID: t.Game.ID, ArenaID: arena, FormedAt: formedAt})
		for _, seat := range t.Seats {
			if seat.PlayerID == 0 {
				continue
			}
			if seated[seat.PlayerID] {
				return fmt.Errorf("form %d tables in arena %d: %w: account %d twice", len(tables), arena, ErrArenaBusy, seat.PlayerID)
			}
			seated[seat.PlayerID] = true
			players = append(players, seat.PlayerID)
		}
	}
	err := s.writeTx(ctx, func(ctx context.Context, tx bun.Tx) error {
		held, err := s.holdArena(ctx, tx, arena, f)
		switch {
		case err != nil:
			return err
		case formedAt.Before(held.StartsAt):
			return ErrArenaNotStarted
		case !formedAt.Before(held.EndsAt) || !held.DoneAt.IsZero():
			return ErrArenaOver
		}
		if len(players) > 0 {
			// Through seats_player_id: the seats of these accounts, then
			// their games and links by key.
			var busy []int64
			err := tx.NewSelect().TableExpr("seats AS s").
				Join("JOIN arena_games AS ag ON ag.game_id = s.game_id").
				Join("JOIN games AS g ON g.id = s.game_id").
				Column("s.player_id").
				Where("s.player_id IN (?)", bun.In(players)).
				Where("ag.arena_id = ?", arena).
				Where("g.status IN (?)", bun.In([]game.Status{game.StatusOpen, game.StatusLive})).
				Limit(1).Scan(ctx, &busy)
			if err != nil {
				return err
			}
			if len(busy) > 0 {
				return fmt.Errorf("%w: account %d", ErrArenaBusy, busy[0])
			}
		}
		if _, err := tx.NewInsert().Model(&games).Returning("NULL").Exec(ctx); err != nil {
			return classify(err)
		}
		if len(seats) > 0 {
			if _, err := tx.NewInsert().Model(&seats).Returning("NULL").Exec(ctx); err != nil {
				return classify(err)
			}
		}
		_, err = tx.NewInsert().Model(&links).Returning("NULL").Exec(ctx)
		return classify(err)
	})
	if err != nil && len(tables) > 1 {
		return fmt.Errorf("form %d tables in arena %d: %w", len(tables), arena, err)
	}
	return err
}

// ArenaResult is an entrant's seat in a finished game of an arena.
type ArenaResult struct {
	ArenaID  int64
	GameID   string
	PlayerID int64
	Seat     int
	// Seats is how many sat at the table, Place the seat's (1 the best).
	Seats int
	Place int
	// Left says the entrant handed the seat to a bot (left the table, or
	// had it taken over): it ended played by a bot. Covered says a bot
	// played it at some point, an away spell included.
	Left    bool
	Covered bool
	EndedAt time.Time
}

// arenaResultRow is an ArenaResult as stored, its end in Unix microseconds.
type arenaResultRow struct {
	bun.BaseModel `bun:"table:arena_results,alias:ares"`
	ArenaID       int64  `bun:"arena_id,pk"`
	EndedUS       int64  `bun:"ended_us,pk"`
	GameID        string `bun:"game_id,pk"`
	Seat          int    `bun:"seat,pk"`
	PlayerID      int64  `bun:"player_id"`
	Seats         int    `bun:"seats"`
	Place         int    `bun:"place"`
	Left          bool   `bun:"left_seat"`
	Covered       bool   `bun:"covered"`
}

func (r *arenaResultRow) result() ArenaResult {
	return ArenaResult{ArenaID: r.ArenaID, GameID: r.GameID, PlayerID: r.PlayerID, Seat: r.Seat, Seats: r.Seats,
		Place: r.Place, Left: r.Left, Covered: r.Covered, EndedAt: time.UnixMicro(r.EndedUS).UTC()}
}

// storeArenaResults writes, in the transaction finishing game id at at,
// the results of its entrants' seats if the game was formed in an arena:
// its results and seats are written by then. A game of no arena costs one
// look-up of the arena_games key, which finds nothing. Seats of bots and
// of accounts that are not entrants are left out.
func storeArenaResults(ctx context.Context, tx bun.Tx, id string, at time.Time) error {
	_, err := tx.NewRaw(`INSERT INTO arena_results
			(arena_id, ended_us, game_id, seat, player_id, seats, place, left_seat, covered)
		SELECT ag.arena_id, ?, r.game_id, r.seat, s.player_id,
			(SELECT COUNT(*) FROM results AS n WHERE n.game_id = r.game_id),
			r.place, s.kind = ?, s.covered
		FROM arena_games AS ag
		JOIN results AS r ON r.game_id = ag.game_id
		JOIN seats AS s ON s.game_id = r.game_id AND s.seat = r.seat
		JOIN arena_entries AS e ON e.arena_id = ag.arena_id AND e.player_id = s.player_id
		WHERE ag.game_id = ?`, at.UnixMicro(), game.SeatBot, id).Exec(ctx)
	return classify(err)
}

// resultColumns are arena_results' columns in arenaResultRow's order.
const resultColumns = "arena_id, ended_us, game_id, seat, player_id, seats, place, left_seat, covered"

// scanResults reads the arena results a query of resultColumns returns
// (bun formats its arguments), scanned by hand: at 100,000 rows bun's reflection took a third of the time.
func (s *Store) scanResults(ctx context.Context, query string, args ...any) ([]ArenaResult, error) {
	rows, err := s.db.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []ArenaResult
	for rows.Next() {
		var r arenaResultRow
		if err := rows.Scan(&r.ArenaID, &r.EndedUS, &r.GameID, &r.Seat, &r.PlayerID, &r.Seats, &r.Place, &r.Left, &r.Covered); err != nil {
			return nil, err
		}
		out = append(out, r.result())
	}
	return out, rows.Err()
}

// ArenaResults reads every entrant's seat in every finished game of an
// arena, in the order the games ended (then by game and seat), off the
// arena_results key: what its standings are computed from, whole. Games
// ended early (status ended) have none.
func (s *Store) ArenaResults(ctx context.Context, arena int64) ([]ArenaResult, error) {
	out, err := s.scanResults(ctx, `SELECT `+resultColumns+` FROM arena_results
		WHERE arena_id = ? ORDER BY ended_us, game_id, seat`, arena)
	if err != nil {
		return nil, fmt.Errorf("read the results of arena %d: %w", arena, err)
	}
	return out, nil
}

// ArenaGameResults reads the entrants' results of the listed games of an
// arena, in the same order as ArenaResults: a director adds those of the
// tables it saw end (ArenaTables) to the standings it holds. A game not
// finished, or of another arena, has none.
func (s *Store) ArenaGameResults(ctx context.Context, arena int64, games []string) ([]ArenaResult, error) {
	if len(games) == 0 {
		return nil, nil
	}
	out, err := s.scanResults(ctx, `SELECT `+resultColumns+` FROM arena_results
		WHERE game_id IN (?) AND arena_id = ? ORDER BY ended_us, game_id, seat`, bun.In(games), arena)
	if err != nil {
		return nil, fmt.Errorf("read the results of %d games of arena %d: %w", len(games), arena, err)
	}
	return out, nil
}

// ArenaTable is a game of an arena still open or live, with its entrants.
type ArenaTable struct {
	GameID   string
	FormedAt time.Time
	// Players are the entrants' accounts by seat; a seat without one (a
	// house bot) is 0.
	Players []int64
}

// ArenaTables reads an arena's games still open or live, the earliest
// formed first: each entrant's current table.
func (s *Store) ArenaTables(ctx context.Context, arena int64) ([]ArenaTable, error) {
	var rows []struct {
		GameID   string    `bun:"game_id"`
		FormedAt time.Time `bun:"formed_at"`
		Seat     int       `bun:"seat"`
		PlayerID int64     `bun:"player_id"`
	}
	err := s.db.NewRaw(`SELECT ag.game_id, ag.formed_at, s.seat, COALESCE(s.player_id, 0) AS player_id
		FROM arena_games AS ag
		JOIN games AS g ON g.id = ag.game_id
		JOIN seats AS s ON s.game_id = ag.game_id
		WHERE ag.arena_id = ? AND g.status IN (?)
		ORDER BY ag.formed_at, ag.game_id, s.seat`, arena, bun.In([]game.Status{game.StatusOpen, game.StatusLive})).Scan(ctx, &rows)
	if err != nil {
		return nil, fmt.Errorf("read the tables of arena %d: %w", arena, err)
	}
	var out []ArenaTable
	for _, r := range rows {
		if len(out) == 0 || out[len(out)-1].GameID != r.GameID {
			out = append(out, ArenaTable{GameID: r.GameID, FormedAt: utc(r.FormedAt)})
		}
		t := &out[len(out)-1]
		t.Players = append(t.Players, r.PlayerID)
	}
	return out, nil
}

// ArenaTableOf reads the game of an arena an account sits at, open or
// live, through the account's seats (seats_player_id); "" when it sits at
// none: the person's current table, for a page on any node.
func (s *Store) ArenaTableOf(ctx context.Context, arena, player int64) (string, error) {
	var ids []string
	err := s.db.NewSelect().TableExpr("seats AS s").
		Join("JOIN arena_games AS ag ON ag.game_id = s.game_id").
		Join("JOIN games AS g ON g.id = s.game_id").
		Column("s.game_id").
		Where("s.player_id = ?", player).
		Where("ag.arena_id = ?", arena).
		Where("g.status IN (?)", bun.In([]game.Status{game.StatusOpen, game.StatusLive})).
		OrderExpr("ag.formed_at DESC").Limit(1).Scan(ctx, &ids)
	if err != nil {
		return "", fmt.Errorf("read the table of account %d in arena %d: %w", player, arena, err)
	}
	if len(ids) == 0 {
		return "", nil
	}
	return ids[0], nil
}

// ArenaGame is a game formed in an arena, for its history.
type ArenaGame struct {
	GameID   string      `bun:"game_id"`
	FormedAt time.Time   `bun:"formed_at"`
	Status   game.Status `bun:"status"`
	// EndedAt is zero while the game is in play.
	EndedAt time.Time `bun:"ended_at"`
}

// ArenaGames lists a page of an arena's games, the latest formed first,
// off the arena_games_arena index.
func (s *Store) ArenaGames(ctx context.Context, arena int64, limit, offset int) ([]ArenaGame, error) {
	var out []ArenaGame
	q := s.db.NewSelect().TableExpr("arena_games AS ag").
		Join("JOIN games AS g ON g.id = ag.game_id").
		ColumnExpr("ag.game_id, ag.formed_at, g.status, g.ended_at").
		Where("ag.arena_id = ?", arena).
		OrderExpr("ag.formed_at DESC, ag.game_id DESC")
	if limit > 0 {
		q = q.Limit(int64(limit))
	}
	if offset > 0 {
		q = q.Offset(int64(offset))
	}
	if err := q.Scan(ctx, &out); err != nil {
		return nil, fmt.Errorf("list the games of arena %d: %w", arena, err)
	}
	for i := range out {
		out[i].FormedAt, out[i].EndedAt = utc(out[i].FormedAt), utc(out[i].EndedAt)
	}
	return out, nil
}
