package web

import (
	"bytes"
	"context"
	"testing"
	"time"

	"bullshit/game"
	"bullshit/views"
)

// benchFrame is seat 0's frame at a table of six in a call window.
func benchFrame(b *testing.B) (*Handler, views.Shell, func() []byte) {
	s, g := dealt(b, 6)
	last := play(b, s, t0.Add(time.Second))
	seat := (last.Seat + 1) % 6
	f := frameOf(s, g, seat)
	h := New(Config{Games: nil})
	shell := views.Shell{Title: "Table", Stream: "/games/g/events", Main: "game",
		Assets: views.Assets{CSS: h.assets.URL("site.css"), HTMX: h.assets.URL("htmx.min.js"), SSE: h.assets.URL("sse.js"),
			Morph: h.assets.URL("idiomorph-ext.min.js"), Table: h.assets.URL("table.js")}}
	now := t0.Add(2 * time.Second)
	return h, shell, func() []byte {
		out, err := h.RenderFrame(f, now)
		if err != nil {
			b.Fatal(err)
		}
		return out
	}
}

// BenchmarkRenderTablePage renders one seat's whole table page.
func BenchmarkRenderTablePage(b *testing.B) {
	s, g := dealt(b, 6)
	last := play(b, s, t0.Add(time.Second))
	f := frameOf(s, g, (last.Seat+1)%6)
	_, shell, _ := benchFrame(b)
	now := t0.Add(2 * time.Second)
	var buf bytes.Buffer
	b.ReportAllocs()
	for b.Loop() {
		buf.Reset()
		w, t := screen(f, now)
		if err := views.GamePage(views.Page{Shell: shell, Waiting: w, Table: t, Options: views.Assists{Light: true, Pick: true, Count: true}}).Render(context.Background(), &buf); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(buf.Len()), "bytes/page")
}

// BenchmarkRenderFrame renders one push's fragments for one seat.
func BenchmarkRenderFrame(b *testing.B) {
	_, _, render := benchFrame(b)
	n := 0
	b.ReportAllocs()
	for b.Loop() {
		n = len(render())
	}
	b.ReportMetric(float64(n), "bytes/frame")
}

// BenchmarkFrameEvents renders every frame of a game of four for one seat
// in turn, as its stream would: "push" through FrameEvent, which copies the
// regions whose models did not change; "afresh" renders each whole.
func BenchmarkFrameEvents(b *testing.B) {
	type at struct {
		f   game.Frame
		now time.Time
	}
	var frames []at
	playedFrames(b, 4, 40, func(f game.Frame, now time.Time) {
		if f.Seat == 0 {
			frames = append(frames, at{f, now})
		}
	})
	h := New(Config{})
	for _, bb := range []struct {
		name   string
		render func(f game.Frame, now time.Time) error
	}{
		{"push", func(f game.Frame, now time.Time) error { _, _, err := h.FrameEvent(f, now); return err }},
		{"afresh", func(f game.Frame, now time.Time) error { _, err := h.RenderFrame(f, now); return err }},
	} {
		b.Run(bb.name, func(b *testing.B) {
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				fr := frames[i%len(frames)]
				if err := bb.render(fr.f, fr.now); err != nil {
					b.Fatal(err)
				}
				i++
			}
		})
	}
}
