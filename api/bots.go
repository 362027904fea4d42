package api

import (
	"fmt"
	"slices"

	"bullshit/engine"
	"bullshit/engine/bot"
	"bullshit/live"
)

// checkBot refuses a bot seat of a level or style the site doesn't offer.
func checkBot(b live.BotSpec) error {
	if !slices.Contains(bot.Levels(), bot.Level(b.Level)) {
		return &engine.Error{Code: engine.CodeBadOptions, Message: fmt.Sprintf("A bot's level is easy, medium or hard, not %q.", b.Level)}
	}
	if !slices.Contains(bot.SiteStyles(), bot.Style(b.Style)) {
		return &engine.Error{Code: engine.CodeBadOptions, Message: fmt.Sprintf("A bot's style is cautious, bold or caller, not %q.", b.Style)}
	}
	return nil
}
