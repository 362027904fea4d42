package views

import (
	"bytes"
	"context"
	"reflect"
	"strings"
	"testing"
)

// TestCutsNoteEveryRegion: a table's screen has one noted region for each
// of the table's Regions, with a result sheet or without; one given to
// Reuse is written as given, not rendered, and the rest render as before.
func TestCutsNoteEveryRegion(t *testing.T) {
	table := Table{Status: "live", Bar: Bar{Code: "g", Plays: 3},
		Seats:  []SeatCell{{Seat: 1, Name: "Ben", Kind: "person", Count: "7"}, {Seat: 0, Name: "You", You: true, Count: "5"}},
		Middle: Middle{RankCode: "K", Rank: "kings", Pile: "Pile · empty"},
		Hand:   Hand{Game: "g", Cards: cards("KS", "2C")}, Dock: Dock{Game: "g", No: 3}}
	over := table
	over.Status, over.Result = "finished", &Result{Game: "g", Headline: "Ben wins!"}
	render := func(tb Table, keep [][]byte) ([]byte, [][]byte) {
		var cuts Cuts
		cuts.Reuse(keep)
		var buf bytes.Buffer
		if err := Screen(nil, &tb, true, &cuts).Render(context.Background(), &buf); err != nil {
			t.Fatal(err)
		}
		return buf.Bytes(), cuts.Parts(buf.Bytes())
	}
	for name, tb := range map[string]Table{"in play": table, "over": over} {
		whole, parts := render(tb, nil)
		if got, want := len(parts), len(tb.Regions()); got != want {
			t.Errorf("%s: got %d regions noted, want %d, one per model", name, got, want)
		}
		keep := make([][]byte, len(parts))
		keep[1] = []byte(`<section id="seats">kept</section>`)
		again, reparts := render(tb, keep)
		if string(reparts[1]) != string(keep[1]) {
			t.Errorf("%s: the region given to Reuse: got %.60q, want it as given", name, reparts[1])
		}
		if want := strings.Replace(string(whole), string(parts[1]), string(keep[1]), 1); string(again) != want {
			t.Errorf("%s: with one region reused, the rest changed:\n%s\nwant\n%s", name, again, want)
		}
	}
}

// TestSameRegionSeesEveryField changes each field of every region's model
// in turn, however deep (in a seat, a card, a move), and checks SameRegion
// tells the two apart, so a field added to a model can't be left out of the
// comparison and leave a region stale on the page.
func TestSameRegionSeesEveryField(t *testing.T) {
	var table Table
	fill(reflect.ValueOf(&table).Elem())
	for _, model := range table.Regions() {
		name := reflect.TypeOf(model).String()
		if !SameRegion(model, deepCopy(model)) {
			t.Errorf("%s: a copy is not the same region", name)
		}
		for _, path := range leaves(reflect.TypeOf(model), "") {
			changed := deepCopy(model)
			v := reflect.ValueOf(&changed).Elem()
			c := reflect.New(v.Elem().Type()).Elem()
			c.Set(v.Elem())
			change(c, path.steps)
			if SameRegion(model, c.Interface()) {
				t.Errorf("%s: with %s changed, got the same region, want another", name, path.name)
			}
		}
	}
}

// fill makes every pointer in v point somewhere and every slice hold one
// element, recursively, so that every field can be reached.
func fill(v reflect.Value) {
	switch v.Kind() {
	case reflect.Pointer:
		v.Set(reflect.New(v.Type().Elem()))
		fill(v.Elem())
	case reflect.Slice:
		v.Set(reflect.MakeSlice(v.Type(), 1, 1))
		fill(v.Index(0))
	case reflect.Struct:
		for i := range v.NumField() {
			fill(v.Field(i))
		}
	}
}

// deepCopy copies a filled model, sharing no pointer or slice with it.
func deepCopy(m any) any {
	var cp func(v reflect.Value) reflect.Value
	cp = func(v reflect.Value) reflect.Value {
		out := reflect.New(v.Type()).Elem()
		switch v.Kind() {
		case reflect.Pointer:
			if !v.IsNil() {
				out.Set(reflect.New(v.Type().Elem()))
				out.Elem().Set(cp(v.Elem()))
			}
		case reflect.Slice:
			if !v.IsNil() {
				out.Set(reflect.MakeSlice(v.Type(), v.Len(), v.Len()))
				for i := range v.Len() {
					out.Index(i).Set(cp(v.Index(i)))
				}
			}
		case reflect.Struct:
			for i := range v.NumField() {
				out.Field(i).Set(cp(v.Field(i)))
			}
		default:
			out.Set(v)
		}
		return out
	}
	return cp(reflect.ValueOf(m)).Interface()
}

// leafPath is the way to one field: each step goes into a field (by index),
// a pointer (-1) or a slice's first element (-2).
type leafPath struct {
	name  string
	steps []int
}

// leaves are the paths to every field of typ that holds a value, and to
// every pointer and slice too (made nil, or one longer).
func leaves(typ reflect.Type, name string) []leafPath {
	var out []leafPath
	switch typ.Kind() {
	case reflect.Struct:
		for i := range typ.NumField() {
			for _, p := range leaves(typ.Field(i).Type, name+"."+typ.Field(i).Name) {
				out = append(out, leafPath{p.name, append([]int{i}, p.steps...)})
			}
		}
	case reflect.Pointer:
		out = append(out, leafPath{name + " (nil)", nil})
		for _, p := range leaves(typ.Elem(), name) {
			out = append(out, leafPath{p.name, append([]int{-1}, p.steps...)})
		}
	case reflect.Slice:
		out = append(out, leafPath{name + " (longer)", nil})
		for _, p := range leaves(typ.Elem(), name+"[0]") {
			out = append(out, leafPath{p.name, append([]int{-2}, p.steps...)})
		}
	default:
		out = append(out, leafPath{name, nil})
	}
	return out
}

// change follows steps from v and changes what it ends at.
func change(v reflect.Value, steps []int) {
	for _, s := range steps {
		switch s {
		case -1:
			v = v.Elem()
		case -2:
			v = v.Index(0)
		default:
			v = v.Field(s)
		}
	}
	switch v.Kind() {
	case reflect.Pointer:
		v.Set(reflect.Zero(v.Type()))
	case reflect.Slice:
		v.Set(reflect.Append(v, reflect.Zero(v.Type().Elem())))
	case reflect.String:
		v.SetString(v.String() + "x")
	case reflect.Bool:
		v.SetBool(!v.Bool())
	case reflect.Int, reflect.Int64:
		v.SetInt(v.Int() + 1)
	case reflect.Uint8:
		v.SetUint(v.Uint() + 1)
	case reflect.Float64:
		v.SetFloat(v.Float() + 0.5)
	default:
		panic("no way to change a " + v.Kind().String())
	}
}
