package web

import (
	"bytes"
	"fmt"
	"net/http"
	"slices"

	"github.com/labstack/echo/v4"

	"bullshit/engine"
	"bullshit/views"
	"bullshit/views/words"
)

// hint answers the hand form's change on the player's turn: the status line
// and the claim button's words for the cards picked and the sneak switch,
// judged from the seat's own view (its hand exact, the pile as a range) by
// the engine's functions. Nothing about the counts' buckets reaches the
// browser.
func (h *Handler) hint(c echo.Context) error {
	id := gameID(c)
	seat, ctx, err := h.seated(c, id)
	if err != nil {
		return err
	}
	v, err := h.games.View(ctx, id, seat)
	if err != nil {
		return err
	}
	if err := c.Request().ParseForm(); err != nil {
		return badForm("The cards couldn't be read.")
	}
	var picked []engine.Card
	for _, code := range c.Request().Form["card"] {
		if card, err := engine.ParseCard(code); err == nil && slices.Contains(v.Hand, card) {
			picked = append(picked, card)
		}
	}
	var sneak int
	_, _ = fmt.Sscan(c.FormValue("sneak"), &sneak)
	c.Response().Header().Set("Cache-Control", "no-store")
	if !slices.Contains(v.Can, engine.ActPlay) {
		return c.NoContent(http.StatusNoContent)
	}
	status, label := sneakHint(v, picked, sneak)
	var buf bytes.Buffer
	if err := views.StatusLine(status, true).Render(ctx, &buf); err != nil {
		return err
	}
	if err := views.ClaimButton(id, v.Plays, label).Render(ctx, &buf); err != nil {
		return err
	}
	return writeHTML(c, http.StatusOK, buf.Bytes())
}

// sneakHint is the status line and the claim button's words for a play of
// the picked cards with sneak of them under the claim, as the engine judges
// it (View.CheckPlay).
func sneakHint(v engine.View, picked []engine.Card, sneak int) (status, label string) {
	pc := v.CheckPlay(picked, sneak)
	label = claimLabel(v.Rank, len(picked), sneak)
	switch {
	case pc.Fault == engine.ClaimNoCards:
		return "Your turn: pick the cards to claim as " + v.Rank.Name(true) + ".", label
	case pc.Fault == engine.ClaimNothing:
		return "Pick more cards than you sneak: at least one is claimed.", label
	case pc.Fault == engine.ClaimTooMany:
		return fmt.Sprintf("Claim %d at most: sneak the rest, or pick fewer.", v.MaxClaim), label
	case sneak > 0 && pc.Last:
		return "Sneaking your last cards: if anyone calls it, it's a lie.", label
	case sneak > 0 && pc.MayShow:
		return fmt.Sprintf("Careful: sneaking %d here might show in the counts.", sneak), label
	case sneak > 0:
		return fmt.Sprintf("Sneaking %d: the counts won't show it.", sneak), label
	}
	if pc.Off == 0 {
		return fmt.Sprintf("The truth: %s.", count(v.Rank, pc.Claim)), label
	}
	return fmt.Sprintf("A bluff: %d of them %s.", pc.Off, words.Plural(pc.Off, "isn't "+article(v.Rank), "aren't "+v.Rank.Name(true))), label
}

func article(r engine.Rank) string {
	name := r.Name(false)
	switch name[0] {
	case 'a', '8':
		return "an " + name
	}
	return "a " + name
}
