package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"bullshit/engine/sim"
)

func init() {
	register(command{name: "sim", summary: "play simulated games, bots and scripted people, and print the tuning report", run: runSim})
	register(command{name: "anchors", summary: "measure the bot levels against each other at several table sizes", run: runAnchors})
}

// simFlags are the flags the sim and anchors commands share.
type simFlags struct {
	cfg sim.Config
	doc string
}

func (f *simFlags) register(fs *flag.FlagSet, games int) {
	fs.IntVar(&f.cfg.Games, "games", games, "games a cell")
	fs.Uint64Var(&f.cfg.Seed, "seed", 1, "the run's seed: the same seed gives the same report")
	fs.IntVar(&f.cfg.Workers, "workers", 0, "goroutines playing games (0: one a core)")
	fs.StringVar(&f.doc, "doc", "", "a Markdown file whose marked section to replace with the report, instead of printing it")
}

func runSim(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("sim", flag.ContinueOnError)
	var f simFlags
	f.register(fs, 800)
	fs.IntVar(&f.cfg.KnobGames, "knob-games", 600, "games a cell of the knob sweep")
	fs.IntVar(&f.cfg.OptionGames, "option-games", 400, "games a cell of the playing-on table")
	fs.IntVar(&f.cfg.PeopleGames, "people-games", 800, "games a cell of the people panel and the stronger-bot table")
	fs.BoolVar(&f.cfg.PeopleOnly, "people-only", false, "play only the length table, the people panel and the stronger-bot table")
	charts := fs.String("charts", "", "a directory to write the SVG charts to")
	if err := parse(fs, args); err != nil {
		return ignoreHelp(err)
	}
	start := time.Now()
	r, err := sim.Measure(ctx, f.cfg, progressBar(os.Stderr, "sim"))
	if err != nil {
		return err
	}
	elapsed := time.Since(start)
	prefix := ""
	if *charts != "" {
		if err := os.MkdirAll(*charts, 0o755); err != nil {
			return err
		}
		for name, svg := range r.Charts() {
			if err := os.WriteFile(filepath.Join(*charts, name), svg, 0o644); err != nil {
				return err
			}
		}
		prefix = *charts + "/"
		if f.doc != "" {
			rel, err := filepath.Rel(filepath.Dir(f.doc), *charts)
			if err != nil {
				return err
			}
			prefix = filepath.ToSlash(rel) + "/"
		}
	}
	if err := output(f.doc, "sim", r.Markdown(prefix)); err != nil {
		return err
	}
	fmt.Fprintf(os.Stderr, "sim: %d games in %s\n", r.Games(), elapsed.Round(time.Millisecond))
	return nil
}

func runAnchors(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("anchors", flag.ContinueOnError)
	var f simFlags
	f.register(fs, 1000)
	if err := parse(fs, args); err != nil {
		return ignoreHelp(err)
	}
	start := time.Now()
	rows, err := sim.Anchors(ctx, f.cfg, progressBar(os.Stderr, "anchors"))
	if err != nil {
		return err
	}
	fmt.Fprintf(os.Stderr, "anchors: %d games in %s\n", len(rows)*f.cfg.Games, time.Since(start).Round(time.Millisecond))
	return output(f.doc, "anchors", sim.AnchorsMarkdown(rows, f.cfg))
}

// errHelped stops a command after it printed its flags on request.
var errHelped = errors.New("help printed")

// parse reads the flags. Asking for help returns errHelped, which the
// commands turn into a clean exit.
func parse(fs *flag.FlagSet, args []string) error {
	if err := fs.Parse(args); errors.Is(err, flag.ErrHelp) {
		return errHelped
	} else if err != nil {
		return err
	}
	return nil
}

func ignoreHelp(err error) error {
	if errors.Is(err, errHelped) {
		return nil
	}
	return err
}

// output prints md, or puts it in doc between the lines
// "<!-- name:begin -->" and "<!-- name:end -->", keeping the rest.
func output(doc, name, md string) error {
	if doc == "" {
		_, err := io.WriteString(os.Stdout, md)
		return err
	}
	raw, err := os.ReadFile(doc)
	if err != nil {
		return err
	}
	begin, end := "<!-- "+name+":begin -->\n", "<!-- "+name+":end -->"
	text := string(raw)
	i, j := strings.Index(text, begin), strings.Index(text, end)
	if i < 0 || j < i {
		return fmt.Errorf("%s has no %q ... %q section", doc, strings.TrimSpace(begin), end)
	}
	text = text[:i+len(begin)] + md + text[j:]
	return os.WriteFile(doc, []byte(text), 0o644)
}

// progressBar draws a bar on w when it is a terminal, else does nothing.
func progressBar(w *os.File, label string) func(done, total int) {
	info, err := w.Stat()
	if err != nil || info.Mode()&os.ModeCharDevice == 0 {
		return nil
	}
	const width = 40
	last := -1
	return func(done, total int) {
		filled := done * width / max(1, total)
		if filled == last && done != total {
			return
		}
		last = filled
		fmt.Fprintf(w, "\r%s [%s%s] %d/%d", label, strings.Repeat("#", filled), strings.Repeat(".", width-filled), done, total)
		if done == total {
			fmt.Fprintln(w)
		}
	}
}
