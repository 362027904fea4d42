package views

import (
	"bytes"
	"context"
	"io"
	"slices"

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
// its model, so a region whose model is the same (SameRegion) as the one it
// was drawn from last time renders the same bytes again.
func (t Table) Regions() []any {
	r := make([]any, 0, 7)
	r = append(r, t.Bar, seatsRegion{t.Seats, t.Horseshoe}, t.Middle)
	if t.Result != nil {
		r = append(r, *t.Result)
	}
	return append(r, t.Hand, dockRegion{t.Dock, t.Teach}, t.Reveal)
}

// seatsRegion and dockRegion are the models of the regions drawn from more
// than one of the table's fields.
type seatsRegion struct {
	Seats     []SeatCell
	Horseshoe bool
}

type dockRegion struct {
	Dock  Dock
	Teach string
}

// SameRegion reports whether two of Regions' models are equal. It runs for
// every region of every frame, so it compares without reflection: the
// models that can be are compared whole (a field added to them is compared
// too), the others field by field, which a test checks covers every field.
func SameRegion(a, b any) bool {
	switch a := a.(type) {
	case Bar:
		b, ok := b.(Bar)
		return ok && a == b
	case Middle:
		b, ok := b.(Middle)
		return ok && a == b
	case seatsRegion:
		b, ok := b.(seatsRegion)
		return ok && a.Horseshoe == b.Horseshoe && slices.Equal(a.Seats, b.Seats)
	case Result:
		b, ok := b.(Result)
		return ok && a.Game == b.Game && a.Headline == b.Headline && a.ShareText == b.ShareText &&
			a.CanPlayAgain == b.CanPlayAgain && a.Next == b.Next &&
			slices.Equal(a.Rows, b.Rows) && slices.Equal(a.Ratings, b.Ratings)
	case Hand:
		b, ok := b.(Hand)
		return ok && a.Game == b.Game && a.PickKey == b.PickKey && a.Selectable == b.Selectable &&
			a.CheckPicks == b.CheckPicks && a.Empty == b.Empty && a.Spectator == b.Spectator && a.Say == b.Say &&
			slices.Equal(a.Cards, b.Cards)
	case dockRegion:
		b, ok := b.(dockRegion)
		x, y := a.Dock, b.Dock
		return ok && a.Teach == b.Teach && x.Game == y.Game && x.No == y.No && x.Status == y.Status &&
			x.Sort == y.Sort && x.TakeSeat == y.TakeSeat && x.Spectator == y.Spectator && x.Alert == y.Alert &&
			samePointee(x.Left, y.Left) && samePointee(x.Right, y.Right) && samePointee(x.Sneak, y.Sneak)
	case *Reveal:
		b, ok := b.(*Reveal)
		if !ok || a == nil || b == nil {
			return ok && a == b
		}
		return a.Key == b.Key && a.Shout == b.Shout && a.Verdict == b.Verdict && a.Tone == b.Tone && a.Take == b.Take &&
			a.Shout0 == b.Shout0 && a.Flip0 == b.Flip0 && a.Verdict0 == b.Verdict0 && a.Take0 == b.Take0 &&
			a.End == b.End && a.FlipEach == b.FlipEach && slices.Equal(a.Cards, b.Cards)
	}
	return false
}

// samePointee reports whether a and b are both nil or point to equal values.
func samePointee[T comparable](a, b *T) bool {
	if a == nil || b == nil {
		return a == b
	}
	return *a == *b
}
