package players

import (
	"context"
	"errors"
	"time"

	"bullshit/engine/glicko"
	"bullshit/errcode"
	"bullshit/store"
)

// Standings is what the leaderboard and the player pages read of the store
// (*store.Store).
type Standings interface {
	AccountByName(ctx context.Context, nameKey string) (*store.Account, error)
	Leaderboard(ctx context.Context, q store.LeaderboardQuery) ([]store.Ranked, error)
	LeaderboardCount(ctx context.Context, q store.LeaderboardQuery) (int, error)
	Ratings(ctx context.Context, players []int64) (map[int64]store.Rating, error)
	Totals(ctx context.Context, player int64) (store.PlayerTotals, error)
	Places(ctx context.Context, player int64) ([]store.PlaceCount, error)
	RatingHistory(ctx context.Context, player int64, limit int) ([]store.RatedPoint, error)
	PlayerGames(ctx context.Context, player int64, limit int) ([]store.PlayerGame, error)
}

// The leaderboard's and the player page's sizes.
const (
	// PerPage is the leaderboard's lines per page unless asked otherwise;
	// MaxPerPage the most a page may hold.
	PerPage    = 50
	MaxPerPage = 100
	// HistoryPoints is how many of the latest rated games the rating
	// history holds: a chart's worth, read in one indexed range however
	// many games an account has played.
	HistoryPoints = 200
	// RecentGames is how many games the player page lists.
	RecentGames = 20
)

// The leaderboard's filters, as the pages' and the API's query has them.
const (
	ShowAll      = "all"
	ShowPeople   = "people"
	ShowPrograms = "programs"
)

var shows = map[string]store.Who{ShowAll: store.Everyone, ShowPeople: store.People, ShowPrograms: store.Programs}

// Standing is one line of the leaderboard.
type Standing struct {
	Rank int    `json:"rank"`
	Name string `json:"name"`
	// Bot: the account is a program's.
	Bot       bool    `json:"bot"`
	Rating    float64 `json:"rating"`
	Deviation float64 `json:"deviation"`
	// Rating and Deviation are as at the last rated game. Provisional: the
	// deviation is above glicko.ProvisionalAbove; such lines come after
	// every settled one.
	Provisional bool      `json:"provisional"`
	Games       int       `json:"games"`
	RatedAt     time.Time `json:"rated_at"`
}

// Leaderboard is one page of the leaderboard.
type Leaderboard struct {
	Show    string     `json:"show"`
	Page    int        `json:"page"`
	PerPage int        `json:"per_page"`
	Lines   []Standing `json:"lines"`
	// More: a next page has lines.
	More bool `json:"more"`
}

// Leaderboard reads page (from 1) of the rated accounts, best first:
// everyone's, people's or programs' by show. An unknown show, or a page
// below 1 or size outside 1 to MaxPerPage, is errcode.Invalid; a size of 0 is
// PerPage.
func (s *Service) Leaderboard(ctx context.Context, show string, page, size int) (Leaderboard, error) {
	if show == "" {
		show = ShowAll
	}
	who, ok := shows[show]
	if !ok {
		return Leaderboard{}, refuse(errcode.Invalid, "Show is one of all, people or programs.")
	}
	if size == 0 {
		size = PerPage
	}
	if page < 1 || size < 1 || size > MaxPerPage {
		return Leaderboard{}, refuse(errcode.Invalid, "A page is 1 or more, of 1 to %d lines.", MaxPerPage)
	}
	if page > maxPage {
		return Leaderboard{}, refuse(errcode.Invalid, "There aren't that many pages.")
	}
	offset := (page - 1) * size
	rows, err := s.leaders(ctx, who, offset, size+1)
	if err != nil {
		return Leaderboard{}, err
	}
	b := Leaderboard{Show: show, Page: page, PerPage: size, Lines: []Standing{}, More: len(rows) > size}
	for i, r := range rows[:min(len(rows), size)] {
		b.Lines = append(b.Lines, Standing{Rank: offset + i + 1, Name: r.Name, Bot: r.Bot, Rating: r.Rating.Rating,
			Deviation: r.Deviation, Provisional: glicko.Rating{R: r.Rating.Rating, Deviation: r.Deviation}.Provisional(), Games: r.Games, RatedAt: r.RatedAt})
	}
	return b, nil
}

// leaders reads limit lines from offset of the leaderboard: the settled
// ratings by rating, then the provisional ones by rating, so an uncertain
// rating is kept off the top however high it is. The leaderboard goes by
// the deviation as stored at the last rated game (the player page shows it
// grown since). Each part is read off the ratings_rank index; only a page
// that begins past the settled ratings counts them.
func (s *Service) leaders(ctx context.Context, who store.Who, offset, limit int) ([]store.Ranked, error) {
	settled := store.LeaderboardQuery{Who: who, MaxDeviation: glicko.ProvisionalAbove, Limit: limit, Offset: offset}
	rows, err := s.st.Leaderboard(ctx, settled)
	if err != nil || len(rows) == limit {
		return rows, err
	}
	n := offset + len(rows) // the settled lines, when this page has some
	if len(rows) == 0 {
		if n, err = s.st.LeaderboardCount(ctx, settled); err != nil {
			return nil, err
		}
	}
	provisional := store.LeaderboardQuery{Who: who, MinDeviation: glicko.ProvisionalAbove, Limit: limit - len(rows), Offset: max(0, offset-n)}
	more, err := s.st.Leaderboard(ctx, provisional)
	if err != nil {
		return nil, err
	}
	return append(rows, more...), nil
}

// maxPage keeps an offset within reason: no leaderboard is that long, and
// a deep offset costs the database a walk past every line before it.
const maxPage = 10_000

// aged is a stored rating with its deviation grown by the whole days since
// its last rated game, as the next game will find it.
func (s *Service) aged(r store.Rating, now time.Time) glicko.Rating {
	g := glicko.Rating{R: r.Rating, Deviation: r.Deviation, Volatility: r.Volatility}
	if days := int(now.Sub(r.RatedAt) / (24 * time.Hour)); days > 0 {
		g = g.Aged(days)
	}
	return g
}

// Point is the rating after one rated game.
type Point struct {
	Game      string    `json:"game"`
	At        time.Time `json:"at"`
	Rating    float64   `json:"rating"`
	Deviation float64   `json:"deviation"`
}

// PlayedGame is one game on a player's page.
type PlayedGame struct {
	Game  string    `json:"game"`
	At    time.Time `json:"at"`
	Seats int       `json:"seats"`
	Place int       `json:"place"`
	Left  int       `json:"cards_left"`
	Rated bool      `json:"rated"`
	// Before and After are the rating either side of the game; equal when
	// it wasn't rated.
	Before float64 `json:"before"`
	After  float64 `json:"after"`
}

// Places is how often a player came in a place.
type Places struct {
	Place int `json:"place"`
	Games int `json:"games"`
}

// Profile is a player's page: the rating, the play in numbers, the rating's
// history and the latest games.
type Profile struct {
	Name  string    `json:"name"`
	Bot   bool      `json:"bot"`
	Since time.Time `json:"since"`
	// Rating and Deviation are 1500 ± 350 until the first rated game; the
	// deviation grows with time away, as for the next game.
	Rating      float64 `json:"rating"`
	Deviation   float64 `json:"deviation"`
	Provisional bool    `json:"provisional"`
	RatedGames  int     `json:"rated_games"`
	// Games, Wins and Places count every game that is over, rated or not.
	Games  int      `json:"games"`
	Wins   int      `json:"wins"`
	Places []Places `json:"places"`
	// Calls counts the calls made, RightCalls those that caught a lie; Lies
	// the plays that weren't all they claimed; Sneaks the plays with cards
	// sneaked under them, SneaksCaught those called.
	Calls        int `json:"calls"`
	RightCalls   int `json:"right_calls"`
	Lies         int `json:"lies"`
	Sneaks       int `json:"sneaks"`
	SneaksCaught int `json:"sneaks_caught"`
	// History is the rating after each of the last HistoryPoints rated
	// games, oldest first; Recent the last RecentGames games, newest first.
	History []Point      `json:"history"`
	Recent  []PlayedGame `json:"recent"`
}

var errNoPlayer = refuse(errcode.NotFound, "There's no player by that name.")

// Profile reads a player's page by the account's name.
func (s *Service) Profile(ctx context.Context, name string) (Profile, error) {
	key, ok := accountKey(name)
	if !ok {
		return Profile{}, errNoPlayer
	}
	a, err := s.st.AccountByName(ctx, key)
	if errors.Is(err, store.ErrNotFound) {
		return Profile{}, errNoPlayer
	}
	if err != nil {
		return Profile{}, err
	}
	p := Profile{Name: a.Name, Bot: a.Bot, Since: a.CreatedAt, History: []Point{}, Recent: []PlayedGame{}, Places: []Places{}}
	rs, err := s.st.Ratings(ctx, []int64{a.ID})
	if err != nil {
		return Profile{}, err
	}
	rt := glicko.New()
	if r, ok := rs[a.ID]; ok {
		rt = s.aged(r, s.now())
		p.RatedGames = r.Games
	}
	p.Rating, p.Deviation, p.Provisional = rt.R, rt.Deviation, rt.Provisional()
	tot, err := s.st.Totals(ctx, a.ID)
	if err != nil {
		return Profile{}, err
	}
	p.Games, p.Wins, p.Calls, p.RightCalls, p.Lies, p.Sneaks, p.SneaksCaught =
		tot.Games, tot.Wins, tot.Calls, tot.Right, tot.Lies, tot.Sneaks, tot.Caught
	places, err := s.st.Places(ctx, a.ID)
	if err != nil {
		return Profile{}, err
	}
	for _, pc := range places {
		p.Places = append(p.Places, Places{Place: pc.Place, Games: pc.Games})
	}
	hist, err := s.st.RatingHistory(ctx, a.ID, HistoryPoints)
	if err != nil {
		return Profile{}, err
	}
	for _, h := range hist {
		p.History = append(p.History, Point{Game: h.GameID, At: h.At, Rating: h.Rating, Deviation: h.Deviation})
	}
	games, err := s.st.PlayerGames(ctx, a.ID, RecentGames)
	if err != nil {
		return Profile{}, err
	}
	for _, g := range games {
		p.Recent = append(p.Recent, PlayedGame{Game: g.GameID, At: g.At, Seats: g.Seats, Place: g.Place, Left: g.Left,
			Rated: g.Rated, Before: g.BeforeRating, After: g.AfterRating})
	}
	return p, nil
}
