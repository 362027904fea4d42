package engine

// ClaimFault is what the rules find wrong with a claim before it is made:
// State.Apply refuses such a play, and a player's screen can say why first.
type ClaimFault uint8

// The faults of a claim, in the order the rules check them.
const (
	// ClaimFine: the rules allow the claim.
	ClaimFine ClaimFault = iota
	// ClaimNoCards: no cards are put down.
	ClaimNoCards
	// ClaimNothing: nothing is claimed (everything put down is sneaked).
	ClaimNothing
	// ClaimTooMany: more is claimed than the table allows (Options.MaxClaim).
	ClaimTooMany
	// ClaimOverCards: more is claimed than is put down.
	ClaimOverCards
	// ClaimSneakOff: a card is sneaked at a table without sneaking.
	ClaimSneakOff
	// ClaimSneakTooMany: more is sneaked than the table allows.
	ClaimSneakTooMany
)

// claimFault is what the rules say of claiming claim with cards put down.
func claimFault(cards, claim int, o Options) ClaimFault {
	sneaked := cards - claim
	switch {
	case cards == 0:
		return ClaimNoCards
	case claim < 1:
		return ClaimNothing
	case claim > o.MaxClaim():
		return ClaimTooMany
	case sneaked < 0:
		return ClaimOverCards
	case sneaked > o.Sneak && o.Sneak == 0:
		return ClaimSneakOff
	case sneaked > o.Sneak:
		return ClaimSneakTooMany
	}
	return ClaimFine
}

// PlayCheck is a play judged before it is made, from the player's own view:
// what the rules say of it and what the table could tell.
type PlayCheck struct {
	// Claim is how many cards the play claims: those put down less the
	// sneaked.
	Claim int
	Fault ClaimFault
	// Off counts the cards put down that are not of the rank: a bluff when
	// there are any.
	Off int
	// Last: the play puts down the player's last cards.
	Last bool
	// MayShow: the sneak might show in the counts (SneakMayShow).
	MayShow bool
}

// CheckPlay judges putting cards down with sneak of them sneaked under the
// claim, on the viewing seat's turn, as the seat sees the table.
func (v View) CheckPlay(cards []Card, sneak int) PlayCheck {
	pc := PlayCheck{Claim: len(cards) - sneak}
	pc.Fault = claimFault(len(cards), pc.Claim, v.Options)
	for _, c := range cards {
		if c.Rank() != v.Rank {
			pc.Off++
		}
	}
	pc.Last = len(cards) > 0 && len(cards) == len(v.Hand)
	pc.MayShow = sneak > 0 && pc.Claim > 0 && SneakMayShow(len(v.Hand), v.Pile, pc.Claim, sneak)
	return pc
}

// Picks are the viewing seat's cards of the rank, up to the claim limit: the
// honest play, which the page picks for the player and Fallback plays.
func (v View) Picks() []Card {
	var picks []Card
	for _, c := range v.Hand {
		if c.Rank() == v.Rank && len(picks) < v.MaxClaim {
			picks = append(picks, c)
		}
	}
	return picks
}
