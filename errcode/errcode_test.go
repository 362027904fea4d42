package errcode_test

import (
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"net/http"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode"

	"bullshit/engine"
	"bullshit/errcode"
	"bullshit/game"
	"bullshit/internal/httpx"
	"bullshit/players"
)

// TestEveryCodeHasStatusAndMessage checks every code the table holds and
// every code a package names has a status a client can act on and plain
// words to show.
func TestEveryCodeHasStatusAndMessage(t *testing.T) {
	named := []struct {
		name string
		code errcode.Code
	}{
		{"engine.CodeNotYourTurn", engine.CodeNotYourTurn},
		{"engine.CodeIllegal", engine.CodeIllegal},
		{"engine.CodeStale", engine.CodeStale},
		{"engine.CodeOver", engine.CodeOver},
		{"engine.CodeBadOptions", engine.CodeBadOptions},
	}
	for _, c := range errcode.Codes() {
		named = append(named, struct {
			name string
			code errcode.Code
		}{"errcode " + string(c), c})
	}
	for _, tt := range named {
		t.Run(tt.name, func(t *testing.T) {
			if !errcode.Known(tt.code) {
				t.Fatalf("Known(%q): got false, want true", tt.code)
			}
			status := errcode.Status(tt.code)
			if want := tt.code == errcode.Internal; (status == http.StatusInternalServerError) != want || status < 400 || status > 599 {
				t.Errorf("Status(%q): got %d, want a 4xx or 503 status (500 for internal only)", tt.code, status)
			}
			if msg := errcode.Message(tt.code); !plain(msg) {
				t.Errorf("Message(%q): got %q, want a plain sentence", tt.code, msg)
			}
		})
	}
}

// plain is a sentence for a person: capitalised, ended, no code words.
func plain(msg string) bool {
	return msg != "" && unicode.IsUpper([]rune(msg)[0]) && strings.HasSuffix(msg, ".") && !strings.Contains(msg, "_")
}

// TestSourceDeclaresNoCodeOutsideTable reads the module's source for every
// constant of a Code type and every code written into an error literal, so
// a code added anywhere without a line in the table fails here rather than
// answering 500.
func TestSourceDeclaresNoCodeOutsideTable(t *testing.T) {
	fset := token.NewFileSet()
	found := 0
	err := filepath.WalkDir("..", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if name := d.Name(); name == "testdata" || name == "node_modules" || (strings.HasPrefix(name, ".") && name != "..") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			return err
		}
		for _, lit := range codeLiterals(f) {
			found++
			code, _ := strconv.Unquote(lit.Value)
			if !errcode.Known(errcode.Code(code)) {
				t.Errorf("%s: the code %q is not in errcode's table", fset.Position(lit.Pos()), code)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if want := len(errcode.Codes()) - 1; found < want { // Internal is the table's own
		t.Errorf("found %d codes in the source, want at least %d: the scan misses some", found, want)
	}
}

// codeLiterals are the string literals f gives a Code: the values of
// constants declared with a type named Code, and the Code field of a
// composite literal.
func codeLiterals(f *ast.File) []*ast.BasicLit {
	var lits []*ast.BasicLit
	add := func(e ast.Expr) {
		if lit, ok := e.(*ast.BasicLit); ok && lit.Kind == token.STRING {
			lits = append(lits, lit)
		}
	}
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.GenDecl:
			if n.Tok != token.CONST {
				return true
			}
			for _, spec := range n.Specs {
				if vs := spec.(*ast.ValueSpec); isCodeType(vs.Type) {
					for _, v := range vs.Values {
						add(v)
					}
				}
			}
		case *ast.KeyValueExpr:
			if key, ok := n.Key.(*ast.Ident); ok && key.Name == "Code" {
				add(n.Value)
			}
		case *ast.CallExpr:
			if isCodeType(n.Fun) && len(n.Args) == 1 {
				add(n.Args[0])
			}
		}
		return true
	})
	return lits
}

func isCodeType(e ast.Expr) bool {
	switch e := e.(type) {
	case *ast.Ident:
		return e.Name == "Code"
	case *ast.SelectorExpr:
		return e.Sel.Name == "Code"
	}
	return false
}

func TestOf(t *testing.T) {
	tests := []struct {
		name string
		err  error
		code errcode.Code
		msg  string
		ok   bool
	}{
		{"engine", &engine.Error{Code: engine.CodeStale, Message: "Too late."}, engine.CodeStale, "Too late.", true},
		{"live", &game.Error{Code: errcode.NotFound, Message: "No such game."}, errcode.NotFound, "No such game.", true},
		{"players", &players.Error{Code: errcode.RateLimited, Message: "Wait."}, errcode.RateLimited, "Wait.", true},
		{"wrapped", fmt.Errorf("joining: %w", &game.Error{Code: errcode.Conflict, Message: "The table is full."}), errcode.Conflict, "The table is full.", true},
		{"plain", errors.New("disk on fire"), "", "", false},
		{"nil", nil, "", "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, msg, ok := errcode.Of(tt.err)
			if code != tt.code || msg != tt.msg || ok != tt.ok {
				t.Errorf("Of(%v): got %q %q %v, want %q %q %v", tt.err, code, msg, ok, tt.code, tt.msg, tt.ok)
			}
		})
	}
}

func TestUnknownCodeIsTheServersFault(t *testing.T) {
	if got := errcode.Status("mystery"); got != http.StatusInternalServerError {
		t.Errorf("Status(mystery): got %d, want 500", got)
	}
	if got, want := errcode.Message("mystery"), errcode.Message(errcode.Internal); got != want {
		t.Errorf("Message(mystery): got %q, want %q", got, want)
	}
}

func TestRetryAfter(t *testing.T) {
	tests := []struct {
		name string
		err  error
		want int
	}{
		{"a rate limit in whole seconds", &httpx.Error{Code: errcode.RateLimited, Wait: 3 * time.Second}, 3},
		{"part of a second rounds up", &players.Error{Code: errcode.RateLimited, Wait: 1500 * time.Millisecond}, 2},
		{"wrapped", fmt.Errorf("signing in: %w", &players.Error{Code: errcode.RateLimited, Wait: time.Minute}), 60},
		{"a refusal with no wait", &httpx.Error{Code: errcode.TooLarge}, 0},
		{"a refusal that never waits", &game.Error{Code: errcode.Conflict}, 0},
		{"no refusal", errors.New("disk on fire"), 0},
		{"nil", nil, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := errcode.RetryAfter(tt.err); got != tt.want {
				t.Errorf("RetryAfter(%v): got %d, want %d", tt.err, got, tt.want)
			}
		})
	}
}
