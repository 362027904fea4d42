package main

import (
	"context"
	"crypto/rand"
	"encoding/binary"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"time"

	"bullshit/api/client"
	"bullshit/engine"
	"bullshit/engine/bot"
)

func init() {
	register(command{name: "bot", summary: "play a seat over the API with one of the bots", run: runBot})
}

func runBot(ctx context.Context, args []string) error {
	return playBot(ctx, args, os.Stdout, os.Stderr)
}

// playBot runs the bot command, printing the result to out and logging to
// logTo.
func playBot(ctx context.Context, args []string, out, logTo io.Writer) error {
	fs := flag.NewFlagSet("bot", flag.ContinueOnError)
	fs.SetOutput(logTo)
	server := fs.String("server", "http://127.0.0.1:8080", "the server's address")
	token := fs.String("token", "", "the seat's token (with --game)")
	game := fs.String("game", "", "the game's code (with --token)")
	join := fs.String("join", "", "join the open game with this code (with --name) instead")
	name := fs.String("name", "", "the name to join with")
	account := fs.String("account-token", os.Getenv("BULLSHIT_ACCOUNT_TOKEN"), "an account's API token (bsa_...) to join as that account, rated (default $BULLSHIT_ACCOUNT_TOKEN)")
	level := fs.String("level", "medium", "the bot's level: easy, medium or hard")
	style := fs.String("style", "cautious", "the bot's style: cautious, bold or caller")
	seed := fs.Uint64("seed", 0, "the bot's seed (0 picks one at random)")
	think := fs.Float64("think", 1, "scale the bots' think times by this (0 acts at once, for bot-against-bot runs)")
	debug := fs.Bool("debug", false, "log every refused move and dropped stream")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *think < 0 {
		return errors.New("--think is 0 or more")
	}
	lvl, err := bot.ParseLevel(*level)
	if err != nil {
		return err
	}
	sty, err := bot.ParseStyle(*style)
	if err != nil {
		return err
	}
	if *seed == 0 {
		var b [8]byte
		_, _ = rand.Read(b[:]) // never fails
		*seed = binary.LittleEndian.Uint64(b[:])
	}
	b, err := bot.New(lvl, sty, *seed)
	if err != nil {
		return err
	}
	logLevel := slog.LevelInfo
	if *debug {
		logLevel = slog.LevelDebug
	}
	logger := slog.New(slog.NewTextHandler(logTo, &slog.HandlerOptions{Level: logLevel}))

	c := client.New(*server, nil)
	switch {
	case *join != "" && (*name != "" || *account != ""):
		j, err := c.WithToken(*account).Join(ctx, *join, *name)
		if err != nil {
			return fmt.Errorf("joining %s: %w", *join, err)
		}
		*game, *token = j.Game.ID, j.Token
		logger.Info("joined", "game", j.Game.ID, "seat", j.Seat)
	case *game != "" && *token != "":
	default:
		return errors.New("give --game and --token, or --join and --name (or --account-token)")
	}
	c = c.WithToken(*token)
	logger.Info("playing", "game", *game, "bot", b.String())
	scale := *think
	v, err := c.Play(ctx, *game, b, client.PlayOptions{
		Logger: logger,
		Think: func(k engine.Think, p engine.Pace) time.Duration {
			return time.Duration(float64(engine.ThinkTime(k, p)) * scale)
		},
	})
	if err != nil {
		return err
	}
	for _, r := range v.Result {
		mark := ""
		if r.Seat == v.Seat {
			mark = "  <- this bot"
		}
		fmt.Fprintf(out, "place %d: seat %d, %d cards left%s\n", r.Place.Place, r.Seat, r.Left, mark)
	}
	return nil
}
