package views

import (
	"bytes"
	"context"
	"io"

	"github.com/a-h/templ"
	templruntime "github.com/a-h/templ/runtime"
)

// Cuts notes where each region of a rendered screen lies in its bytes, so a
// push can send a client only the regions that changed since its last one.
// It can also stand bytes rendered before in for a region (Reuse). Its zero
// value is ready; a nil *Cuts notes nothing.
type Cuts struct {
	spans [][2]int
	keep  [][]byte
}

// Reuse has the i-th region written as keep[i] where that is not nil,
// rather than rendered: the bytes it rendered before from an equal model
// (see Table.Regions).
func (c *Cuts) Reuse(keep [][]byte) { c.keep = keep }

// Region renders r, noting where its bytes begin and end when the screen
// renders into a bytes.Buffer. templ writes through a buffer of its own,
// which is flushed at each end of the region to read the position.
func (c *Cuts) Region(r templ.Component) templ.Component {
	if c == nil {
		return r
	}
	return templ.ComponentFunc(func(ctx context.Context, w io.Writer) error {
		at, ok := position(w)
		if !ok {
			return r.Render(ctx, w)
		}
		start, err := at()
		if err != nil {
			return err
		}
		if i := len(c.spans); i < len(c.keep) && c.keep[i] != nil {
			_, err = w.Write(c.keep[i])
		} else {
			err = r.Render(ctx, w)
		}
		if err != nil {
			return err
		}
		end, err := at()
		if err != nil {
			return err
		}
		c.spans = append(c.spans, [2]int{start, end})
		return nil
	})
}

// position reads how many bytes have been written to w, when w is a
// bytes.Buffer or templ's buffer over one.
func position(w io.Writer) (func() (int, error), bool) {
	switch b := w.(type) {
	case *bytes.Buffer:
		return func() (int, error) { return b.Len(), nil }, true
	case *templruntime.Buffer:
		under, ok := b.Underlying.(*bytes.Buffer)
		if !ok {
			return nil, false
		}
		return func() (int, error) {
			err := b.Flush()
			return under.Len(), err
		}, true
	}
	return nil, false
}

// Parts are the regions of rendered, the bytes Cuts noted its regions in,
// in order, as slices of it.
func (c *Cuts) Parts(rendered []byte) [][]byte {
	parts := make([][]byte, len(c.spans))
	for i, s := range c.spans {
		parts[i] = rendered[s[0]:s[1]:s[1]]
	}
	return parts
}

// Regions are the models t's regions are drawn from, in the order
// TableScreen draws them and Cuts notes them. A component draws nothing but
// its model, so a region whose model equals the one it was drawn from last
// time renders the same bytes again.
func (t Table) Regions() []any {
	type seats struct {
		Seats     []SeatCell
		Horseshoe bool
	}
	type dock struct {
		Dock  Dock
		Teach string
	}
	r := make([]any, 0, 7)
	r = append(r, t.Bar, seats{t.Seats, t.Horseshoe}, t.Middle)
	if t.Result != nil {
		r = append(r, *t.Result)
	}
	return append(r, t.Hand, dock{t.Dock, t.Teach}, t.Reveal)
}
