package engine

import (
	"fmt"
	"strings"
)

// Rank is a card's rank, Ace (0) to King (12), in calling order.
type Rank int8

// The ranks in calling order.
const (
	Ace Rank = iota
	Two
	Three
	Four
	Five
	Six
	Seven
	Eight
	Nine
	Ten
	Jack
	Queen
	King
)

// Ranks is the number of ranks called in a lap.
const Ranks = 13

const rankChars = "A23456789TJQK"

var rankNames = [Ranks][2]string{
	{"ace", "aces"}, {"2", "2s"}, {"3", "3s"}, {"4", "4s"}, {"5", "5s"}, {"6", "6s"}, {"7", "7s"},
	{"8", "8s"}, {"9", "9s"}, {"10", "10s"}, {"jack", "jacks"}, {"queen", "queens"}, {"king", "kings"},
}

// RankAt is the rank called on play index i (0 is the first play of a game).
func RankAt(i int) Rank { return Rank(i % Ranks) }

// String is the rank's one-character code ("A", "2", ..., "T", "J", "Q", "K").
func (r Rank) String() string {
	if r < 0 || r >= Ranks {
		return "?"
	}
	return rankChars[r : r+1]
}

// Name is the rank in words, singular ("king") or plural ("kings").
func (r Rank) Name(plural bool) string {
	if r < 0 || r >= Ranks {
		return "?"
	}
	if plural {
		return rankNames[r][1]
	}
	return rankNames[r][0]
}

// Count says n cards of the rank in words: "1 king", "2 kings".
func (r Rank) Count(n int) string { return fmt.Sprintf("%d %s", n, r.Name(n != 1)) }

// MarshalText writes the rank's code.
func (r Rank) MarshalText() ([]byte, error) { return []byte(r.String()), nil }

// UnmarshalText reads a rank code, accepting "10" for "T".
func (r *Rank) UnmarshalText(b []byte) error {
	s := strings.ToUpper(string(b))
	if s == "10" {
		s = "T"
	}
	if len(s) != 1 || !strings.Contains(rankChars, s) {
		return fmt.Errorf("no such rank %q", b)
	}
	*r = Rank(strings.IndexByte(rankChars, s[0]))
	return nil
}

// Suit is a card's suit.
type Suit int8

// The suits.
const (
	Spades Suit = iota
	Hearts
	Diamonds
	Clubs
)

const suitChars = "SHDC"

var suitNames = [4]string{"spades", "hearts", "diamonds", "clubs"}

// Card is one physical card: its rank, suit and which deck it came from.
// Its text form is rank then suit ("AS", "TD"), with "2" after it for the
// second deck's copy ("AS2"), so every card of a two-deck game is distinct.
type Card uint8

// NewCard makes the card of rank r and suit s from deck d (0 or 1).
func NewCard(r Rank, s Suit, d int) Card { return Card(d*52 + int(s)*Ranks + int(r)) }

// Rank is the card's rank.
func (c Card) Rank() Rank { return Rank(int(c) % Ranks) }

// Suit is the card's suit.
func (c Card) Suit() Suit { return Suit(int(c) % 52 / Ranks) }

// Deck is 0 for the first deck's copy, 1 for the second's.
func (c Card) Deck() int { return int(c) / 52 }

// String is the card's code, as the API writes it.
func (c Card) String() string {
	if int(c) < len(cardCodes) {
		return cardCodes[c]
	}
	return c.code()
}

func (c Card) code() string {
	s := c.Rank().String() + suitChars[c.Suit():c.Suit()+1]
	if c.Deck() > 0 {
		s += "2"
	}
	return s
}

// Name is the card in words: "ace of spades".
func (c Card) Name() string {
	if int(c) < len(cardNames) {
		return cardNames[c]
	}
	return c.name()
}

func (c Card) name() string { return c.Rank().Name(false) + " of " + suitNames[c.Suit()] }

// cardCodes and cardNames are every card's code and name, made once: the
// views and reveals of a busy server write them many times a second.
var cardCodes, cardNames = func() (codes, names [2 * 52]string) {
	for i := range codes {
		codes[i], names[i] = Card(i).code(), Card(i).name()
	}
	return codes, names
}()

// ParseCard reads a card code such as "AS", "10h", "TD" or "KC2".
func ParseCard(s string) (Card, error) {
	u := strings.ToUpper(strings.TrimSpace(s))
	deck := 0
	if strings.HasSuffix(u, "2") && len(u) >= 3 {
		deck, u = 1, u[:len(u)-1]
	}
	if len(u) < 2 {
		return 0, fmt.Errorf("no such card %q", s)
	}
	var r Rank
	if err := r.UnmarshalText([]byte(u[:len(u)-1])); err != nil {
		return 0, fmt.Errorf("no such card %q", s)
	}
	suit := strings.IndexByte(suitChars, u[len(u)-1])
	if suit < 0 {
		return 0, fmt.Errorf("no such card %q", s)
	}
	return NewCard(r, Suit(suit), deck), nil
}

// MarshalText writes the card's code.
func (c Card) MarshalText() ([]byte, error) { return []byte(c.String()), nil }

// UnmarshalText reads a card code.
func (c *Card) UnmarshalText(b []byte) error {
	card, err := ParseCard(string(b))
	if err != nil {
		return err
	}
	*c = card
	return nil
}

// deck returns every card of the given number of decks, in order.
func deck(decks int) []Card {
	cards := make([]Card, 0, 52*decks)
	for i := range 52 * decks {
		cards = append(cards, Card(i))
	}
	return cards
}

// order sorts cards by rank, then suit, then deck.
func order(c Card) int { return int(c.Rank())*8 + int(c.Suit())*2 + c.Deck() }

// orders are the order of every card of two decks, and byOrder the card of
// each order (every order is below 128).
var orders, byOrder = func() (o [2 * 52]uint8, by [128]Card) {
	for c := range o {
		o[c] = uint8(order(Card(c)))
		by[o[c]] = Card(c)
	}
	return o, by
}()
