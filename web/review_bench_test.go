package web

import (
	"bytes"
	"context"
	"strconv"
	"testing"

	"bullshit/engine"
	"bullshit/engine/bot"
	"bullshit/engine/drive"
	"bullshit/engine/review"
	"bullshit/game"
	"bullshit/views"
)

// longGame is the longest of a few ten-seat games of hard bots, played to
// the end, reviewed, with the record the page reads its names from.
func longGame(b *testing.B) (game.Record, *review.Review) {
	b.Helper()
	var (
		rec  game.Record
		best *review.Review
	)
	for seed := range uint64(6) {
		opts := engine.Standard(10)
		s, err := engine.New(opts, seed, t0)
		if err != nil {
			b.Fatal(err)
		}
		bots := make([]drive.Seat, 10)
		for i := range bots {
			if bots[i], err = bot.New(bot.Hard, bot.SiteStyles()[i%3], seed*31+uint64(i)); err != nil {
				b.Fatal(err)
			}
		}
		g := review.Game{Options: opts, Seed: seed, Start: t0}
		if g.Actions, err = drive.Play(s, t0, bots); err != nil {
			b.Fatal(err)
		}
		log := s.Log(engine.Spectator)
		g.Over = log[len(log)-1].At
		rv, err := review.Of(g)
		if err != nil {
			b.Fatal(err)
		}
		if best == nil || len(rv.Plays) > len(best.Plays) {
			best = rv
			rec = game.Record{Game: game.Summary{ID: "g", Status: game.StatusFinished, Options: opts, Result: s.Result()}}
			for i := range 10 {
				rec.Game.Seats = append(rec.Game.Seats, game.SeatInfo{Seat: i, Kind: game.SeatBot, Name: "Bot " + strconv.Itoa(i+1)})
			}
		}
	}
	return rec, best
}

// BenchmarkRenderReview renders a long ten-seat game's review page at its
// middle play, and the step alone as htmx asks for it, from the review
// computed once (as the handler keeps it).
func BenchmarkRenderReview(b *testing.B) {
	rec, rv := longGame(b)
	h := New(Config{Games: nil})
	shell := views.Shell{Title: "Review", Main: "review",
		Assets: views.Assets{CSS: h.assets.URL("site.css"), HTMX: h.assets.URL("htmx.min.js"), SSE: h.assets.URL("sse.js"),
			Morph: h.assets.URL("idiomorph-ext.min.js"), Table: h.assets.URL("table.js")}}
	mid := len(rv.Plays) / 2
	b.Logf("%d plays", len(rv.Plays))
	var buf bytes.Buffer
	b.Run("page", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			buf.Reset()
			p := reviewModel("g", rec, rv, mid)
			p.Shell, p.Script, p.Style = shell, h.assets.URL("review.js"), h.assets.URL("review.css")
			if err := views.ReviewView(p).Render(context.Background(), &buf); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(buf.Len()), "bytes/page")
	})
	b.Run("step", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			buf.Reset()
			if err := views.ReviewStepView(stepModel("g", rec, rv, mid)).Render(context.Background(), &buf); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(buf.Len()), "bytes/step")
	})
}
