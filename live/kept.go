package live

import (
	"time"

	"bullshit/engine"
)

// kept is a table's accepted actions, all it needs of them: how many there
// are (the next one's sequence number) and enough to replay them if a write
// fails (rollback). The store has them in full; a table holds them packed,
// some 40 bytes an action and its cards in one array, because a server
// holds thousands of tables each with hundreds of actions.
type kept struct {
	list  []keptAction
	cards []engine.Card
}

// keptAction is one engine.Timed, packed: its cards are
// cards[first:first+n] of its kept.
type keptAction struct {
	at    time.Time
	since *time.Time // a resume's Since, else nil
	no    int32
	first uint16
	n     uint8
	kind  uint8
	seat  int8
	claim int8
}

// actionKinds are the action kinds by the number kept stores for them.
var actionKinds = [...]engine.ActionKind{engine.ActPlay, engine.ActCall, engine.ActPass, engine.ActGive, engine.ActResume}

// len is the number of actions kept.
func (k *kept) len() int { return len(k.list) }

// add keeps a, packed. Every number it narrows is bounded far below its
// type's limit (seats, claims, the cards of a game, the play cap).
func (k *kept) add(t engine.Timed) {
	a := t.Action
	ka := keptAction{at: t.At, no: int32(a.No), first: uint16(len(k.cards)), n: uint8(len(a.Cards)), seat: int8(a.Seat), claim: int8(a.Claim)}
	for i, kind := range actionKinds {
		if kind == a.Kind {
			ka.kind = uint8(i)
		}
	}
	if !a.Since.IsZero() {
		ka.since = &a.Since
	}
	k.cards = append(k.cards, a.Cards...)
	k.list = append(k.list, ka)
}

// timed are the actions kept, unpacked.
func (k *kept) timed() []engine.Timed {
	actions := make([]engine.Timed, k.len())
	for i := range actions {
		actions[i] = k.action(i)
	}
	return actions
}

// action is the i-th action kept, with its time.
func (k *kept) action(i int) engine.Timed {
	ka := k.list[i]
	a := engine.Action{Kind: actionKinds[ka.kind], Seat: int(ka.seat), No: int(ka.no), Claim: int(ka.claim)}
	if ka.n > 0 {
		a.Cards = append([]engine.Card(nil), k.cards[ka.first:int(ka.first)+int(ka.n)]...)
	}
	if ka.since != nil {
		a.Since = *ka.since
	}
	return engine.Timed{Action: a, At: ka.at}
}
