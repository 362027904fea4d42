// Command bullshit is the game's single binary: the server, an example bot
// that plays over the API, and the simulator that tunes the rules.
package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"slices"
	"syscall"
)

// command is one subcommand; each registers itself from its own file.
type command struct {
	name    string
	summary string
	run     func(ctx context.Context, args []string) error
}

var commands []command

func register(c command) { commands = append(commands, c) }

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if len(os.Args) < 2 {
		usage()
		os.Exit(2)
	}
	i := slices.IndexFunc(commands, func(c command) bool { return c.name == os.Args[1] })
	if i < 0 {
		usage()
		os.Exit(2)
	}
	if err := commands[i].run(ctx, os.Args[2:]); err != nil {
		fmt.Fprintf(os.Stderr, "bullshit %s: %v\n", os.Args[1], err)
		os.Exit(1)
	}
}

func usage() {
	fmt.Fprintln(os.Stderr, "usage: bullshit <command> [flags]\n\ncommands:")
	slices.SortFunc(commands, func(a, b command) int {
		if a.name < b.name {
			return -1
		}
		return 1
	})
	for _, c := range commands {
		fmt.Fprintf(os.Stderr, "  %-8s %s\n", c.name, c.summary)
	}
}
