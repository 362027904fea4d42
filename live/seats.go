package live

import (
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/binary"
	"encoding/hex"
	"slices"
	"time"

	"bullshit/engine"
	"bullshit/engine/bot"
	"bullshit/game"
	"bullshit/naming"
	"bullshit/store"
	"bullshit/views/words"
)

// The limits on a table's away time.
const (
	DefaultAwayAfter = 60 * time.Second
	MinAwayAfter     = 15 * time.Second
	MaxAwayAfter     = 10 * time.Minute
)

// checkCreate is the one check of a new table's settings, whichever front
// end they came through: the host's name cleaned, the settings left unset
// given their standard values, and the first one out of range refused
// (names as invalid, the table's settings as the engine refuses its own).
func checkCreate(req game.CreateRequest) (game.CreateRequest, error) {
	host, err := naming.Clean(req.HostName)
	if err != nil {
		return req, err
	}
	req.HostName = host
	opts := &req.Options
	if opts.Pace == "" {
		opts.Pace = engine.Brisk
	}
	if opts.Window == 0 {
		opts.Window = engine.StandardWindow
	}
	if opts.Penalty == (engine.Penalty{}) {
		opts.Penalty = engine.StandardPenalty
	}
	if err := opts.Validate(); err != nil {
		return req, err
	}
	if req.AwayAfter == 0 {
		req.AwayAfter = DefaultAwayAfter
	}
	if req.AwayAfter < MinAwayAfter || req.AwayAfter > MaxAwayAfter {
		return req, badOptions("A seat is handed to a bot after %d to %d seconds away.",
			int(MinAwayAfter/time.Second), int(MaxAwayAfter/time.Second))
	}
	// A new game is played, and always replayed, under the current rules.
	opts.Rules = engine.CurrentRules
	// A chosen seed makes a practice table, and only a chosen seed does.
	opts.Practice = req.Seed != nil
	if len(req.Bots) > opts.Seats-1 {
		return req, badOptions("A table of %d has room for %d bots besides you.", opts.Seats, opts.Seats-1)
	}
	for _, b := range req.Bots {
		if !slices.Contains(bot.Levels(), bot.Level(b.Level)) {
			return req, badOptions("A bot's level is easy, medium or hard, not %q.", b.Level)
		}
		if !slices.Contains(bot.SiteStyles(), bot.Style(b.Style)) {
			return req, badOptions("A bot's style is cautious, bold or caller, not %q.", b.Style)
		}
	}
	return req, nil
}

// newGame checks a request and builds the game and seats to store, with the
// host's token.
func (m *Manager) newGame(req game.CreateRequest) (*store.Game, []store.Seat, string, error) {
	req, err := checkCreate(req)
	if err != nil {
		return nil, nil, "", err
	}
	opts := req.Options
	var seed uint64
	if req.Seed != nil {
		seed = *req.Seed
	} else if seed, err = randomSeed(); err != nil {
		return nil, nil, "", err
	}
	token, hash, err := newToken()
	if err != nil {
		return nil, nil, "", err
	}
	seats := make([]store.Seat, opts.Seats)
	for i := range seats {
		seats[i] = store.Seat{No: i, Kind: game.SeatEmpty}
		if req.FillBots {
			// The bot that fills this seat if nobody takes it, and that
			// covers a person who sits here and walks away.
			seats[i].BotLevel, seats[i].BotStyle = bot.Medium, siteStyle(seed, i)
		}
	}
	seats[0].Kind, seats[0].Name, seats[0].TokenHash, seats[0].PlayerID = game.SeatPerson, req.HostName, hash, req.HostPlayer
	for i, b := range req.Bots {
		level, style := bot.Level(b.Level), bot.Style(b.Style)
		s := &seats[1+i]
		s.Kind, s.BotLevel, s.BotStyle = game.SeatBot, level, style
		s.Name = botName(level, style)
	}
	g := &store.Game{
		Status: game.StatusOpen, Options: opts, Seed: seed, Host: 0, AwayAfter: req.AwayAfter, FillBots: req.FillBots,
		CreatedAt: m.clock.Now().UTC().Truncate(time.Microsecond),
	}
	return g, seats, token, nil
}

// siteStyle is the site style the seed gives a bot in seat.
func siteStyle(seed uint64, seat int) bot.Style {
	styles := bot.SiteStyles()
	return styles[mix(seed, seat)%uint64(len(styles))]
}

// botSeed is the seed of the bot playing seat, fixed by the game's seed.
func botSeed(seed uint64, seat int) uint64 { return mix(seed, seat+1000) }

// mix is a splitmix64 step over the seed and a seat.
func mix(seed uint64, seat int) uint64 {
	z := seed + uint64(seat+1)*0x9e3779b97f4a7c15
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return z ^ z>>31
}

func botName(level bot.Level, style bot.Style) string {
	return words.Capital(string(style)) + " bot (" + string(level) + ")"
}

func randomSeed() (uint64, error) {
	var b [8]byte
	if _, err := rand.Read(b[:]); err != nil {
		return 0, err
	}
	return binary.LittleEndian.Uint64(b[:]), nil
}

// newToken is a seat's bearer token, 128 random bits in hex, and its hash.
func newToken() (token string, hash []byte, err error) {
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", nil, err
	}
	token = hex.EncodeToString(b[:])
	return token, hashToken(token), nil
}

func hashToken(token string) []byte {
	h := sha256.Sum256([]byte(token))
	return h[:]
}

// matchToken finds the seat whose hash is token's, looking at every seat so
// the time taken doesn't depend on which one matched.
func matchToken(hashes [][]byte, token string) (int, bool) {
	h := hashToken(token)
	seat := -1
	for i, want := range hashes {
		if len(want) == len(h) && subtle.ConstantTimeCompare(h, want) == 1 {
			seat = i
		}
	}
	return seat, seat >= 0
}

// seatInfo is a stored seat as anyone may see it.
func seatInfo(s store.Seat) game.SeatInfo {
	info := game.SeatInfo{Seat: s.No, Kind: s.Kind, Name: s.Name, Away: s.Away, Covered: s.Covered, Player: s.PlayerID}
	if s.Kind == game.SeatBot {
		info.Bot = &game.BotSpec{Level: string(s.BotLevel), Style: string(s.BotStyle)}
	}
	return info
}

// seated is how many seats are taken: after the start, seats 0 to n-1.
func seated(seats []store.Seat) int {
	n := 0
	for _, s := range seats {
		if s.Kind != game.SeatEmpty {
			n++
		}
	}
	return n
}

// storedSummary is a game that isn't running, as stored.
func storedSummary(g store.Game, seats []store.Seat, results []store.Result) game.Summary {
	s := game.Summary{
		ID: g.ID, Status: g.Status, Options: g.Options, AwayAfter: g.AwayAfter, Host: g.Host,
		Plays: g.Plays, CreatedAt: g.CreatedAt, StartedAt: g.StartedAt, EndedAt: g.EndedAt,
		Seats: make([]game.SeatInfo, 0, len(seats)),
	}
	if !g.StartedAt.IsZero() {
		s.Options.Seats = seated(seats)
	}
	for _, seat := range seats {
		if g.StartedAt.IsZero() || seat.Kind != game.SeatEmpty {
			s.Seats = append(s.Seats, seatInfo(seat))
		}
	}
	for _, r := range results {
		s.Result = append(s.Result, engine.Place{Seat: r.Seat, Place: r.Place, Left: r.Left})
	}
	return s
}
