package api_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"gopkg.in/yaml.v3"

	"bullshit/api"
)

// spec is openapi.yaml, read once, with its schemas compiled on demand.
type spec struct {
	doc      map[string]any
	compiler *jsonschema.Compiler

	mu      sync.Mutex
	schemas map[string]*jsonschema.Schema
}

const specURL = "file:///openapi.json"

var loadSpecOnce = sync.OnceValues(func() (*spec, error) {
	raw, err := os.ReadFile("../openapi.yaml")
	if err != nil {
		return nil, err
	}
	var y any
	if err := yaml.Unmarshal(raw, &y); err != nil {
		return nil, fmt.Errorf("openapi.yaml: %w", err)
	}
	// Through JSON, so the schema library sees the values it expects.
	j, err := json.Marshal(y)
	if err != nil {
		return nil, fmt.Errorf("openapi.yaml as JSON: %w", err)
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(j))
	if err != nil {
		return nil, err
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	c.AssertFormat()
	if err := c.AddResource(specURL, doc); err != nil {
		return nil, err
	}
	return &spec{doc: doc.(map[string]any), compiler: c, schemas: map[string]*jsonschema.Schema{}}, nil
})

func loadSpec(t *testing.T) *spec {
	t.Helper()
	s, err := loadSpecOnce()
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// schema compiles the schema at a JSON pointer into openapi.yaml.
func (s *spec) schema(ptr string) (*jsonschema.Schema, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if sch := s.schemas[ptr]; sch != nil {
		return sch, nil
	}
	sch, err := s.compiler.Compile(specURL + "#" + ptr)
	if err != nil {
		return nil, err
	}
	s.schemas[ptr] = sch
	return sch, nil
}

// validate checks a JSON body against a named component schema.
func (s *spec) validate(name string, body []byte) error {
	sch, err := s.schema("/components/schemas/" + name)
	if err != nil {
		return err
	}
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(body))
	if err != nil {
		return fmt.Errorf("not JSON: %w", err)
	}
	return sch.Validate(v)
}

func obj(v any) map[string]any {
	m, _ := v.(map[string]any)
	return m
}

var httpMethods = []string{"get", "put", "post", "delete", "patch", "head", "options"}

// operations lists every method and path openapi.yaml describes, with the
// path in echo's form (/games/:id).
func (s *spec) operations() [][2]string {
	var ops [][2]string
	for path, item := range obj(s.doc["paths"]) {
		for _, m := range httpMethods {
			if _, ok := obj(item)[m]; ok {
				ops = append(ops, [2]string{strings.ToUpper(m), echoPath(path)})
			}
		}
	}
	return ops
}

var param = regexp.MustCompile(`\{(\w+)\}`)

func echoPath(p string) string { return param.ReplaceAllString(p, ":$1") }

// responseSchema finds the schema openapi.yaml gives for the answer to
// method path (a real path, such as /api/v1/games/ab12cd34) with status.
func (s *spec) responseSchema(method, path string, status int) (ptr string, err error) {
	for tmpl, item := range obj(s.doc["paths"]) {
		// QuoteMeta escapes the braces around a parameter.
		re := regexp.MustCompile("^" + regexp.MustCompile(`\\\{\w+\\\}`).ReplaceAllString(regexp.QuoteMeta(tmpl), `[^/]+`) + "$")
		if !re.MatchString(path) {
			continue
		}
		op := obj(obj(item)[strings.ToLower(method)])
		if op == nil && status == http.StatusMethodNotAllowed {
			return "/components/schemas/Problem", nil
		}
		if op == nil {
			return "", fmt.Errorf("openapi.yaml has no %s %s", method, tmpl)
		}
		resp := obj(obj(op["responses"])[strconv.Itoa(status)])
		if resp == nil {
			return "", fmt.Errorf("openapi.yaml gives no %d answer to %s %s", status, method, tmpl)
		}
		if ref, ok := resp["$ref"].(string); ok {
			resp = obj(obj(obj(s.doc["components"])["responses"])[strings.TrimPrefix(ref, "#/components/responses/")])
		}
		content := obj(resp["content"])
		if content == nil {
			return "", nil // an answer with no body
		}
		if media := obj(content["application/json"]); media != nil {
			ref, _ := obj(media["schema"])["$ref"].(string)
			return strings.TrimPrefix(ref, "#"), nil
		}
		if _, ok := content["text/event-stream"]; ok {
			return "/components/schemas/View", nil
		}
		return "", fmt.Errorf("openapi.yaml gives no JSON schema for %d %s %s", status, method, tmpl)
	}
	if status == http.StatusNotFound {
		return "/components/schemas/Problem", nil // no such route: the router's refusal
	}
	return "", fmt.Errorf("openapi.yaml has no path matching %s", path)
}

func TestOpenAPIMatchesRoutes(t *testing.T) {
	s := loadSpec(t)
	srv := api.New(api.Config{})
	routes := srv.Routes()
	ops := s.operations()
	less := func(a, b [2]string) int { return strings.Compare(a[1]+" "+a[0], b[1]+" "+b[0]) }
	slices.SortFunc(routes, less)
	slices.SortFunc(ops, less)
	if !slices.Equal(routes, ops) {
		t.Errorf("the routes and openapi.yaml differ:\nroutes:  %v\nopenapi: %v", routes, ops)
	}
}

func TestOpenAPISchemasCompile(t *testing.T) {
	s := loadSpec(t)
	for name := range obj(obj(s.doc["components"])["schemas"]) {
		if _, err := s.schema("/components/schemas/" + name); err != nil {
			t.Errorf("schema %s: %v", name, err)
		}
	}
}

// TestOpenAPIListsEveryCode checks the error codes openapi.yaml lists are
// the ones the API answers with.
func TestOpenAPIListsEveryCode(t *testing.T) {
	s := loadSpec(t)
	problem := obj(obj(obj(obj(s.doc["components"])["schemas"])["Problem"])["properties"])
	var listed []string
	for _, c := range obj(problem["code"])["enum"].([]any) {
		listed = append(listed, c.(string))
	}
	slices.Sort(listed)
	codes := api.Codes()
	if !slices.Equal(listed, codes) {
		t.Errorf("openapi.yaml lists the codes %v, the API answers with %v", listed, codes)
	}
}

// validatingTransport checks every answer that passes through it against
// openapi.yaml, failing the test on any that doesn't match.
type validatingTransport struct {
	t    *testing.T
	spec *spec
	base http.RoundTripper

	mu      sync.Mutex
	checked map[string]int // "METHOD /path-template STATUS" → answers checked
}

func newValidatingClient(t *testing.T) (*http.Client, *validatingTransport) {
	vt := &validatingTransport{t: t, spec: loadSpec(t), base: http.DefaultTransport, checked: map[string]int{}}
	return &http.Client{Transport: vt}, vt
}

func (vt *validatingTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := vt.base.RoundTrip(req)
	if err != nil || strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
		return resp, err
	}
	body, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil {
		return nil, err
	}
	resp.Body = io.NopCloser(bytes.NewReader(body))
	ptr, err := vt.spec.responseSchema(req.Method, req.URL.Path, resp.StatusCode)
	if err != nil {
		vt.t.Errorf("%s %s answered %d: %v", req.Method, req.URL.Path, resp.StatusCode, err)
		return resp, nil
	}
	if ptr == "" {
		if len(body) > 0 {
			vt.t.Errorf("%s %s answered %d with a body openapi.yaml doesn't describe: %s", req.Method, req.URL.Path, resp.StatusCode, body)
		}
		return resp, nil
	}
	if err := vt.spec.validate(strings.TrimPrefix(ptr, "/components/schemas/"), body); err != nil {
		vt.t.Errorf("%s %s answered %d with a body openapi.yaml doesn't allow: %v\n%s", req.Method, req.URL.Path, resp.StatusCode, err, body)
	}
	vt.mu.Lock()
	vt.checked[req.Method+" "+strconv.Itoa(resp.StatusCode)]++
	vt.mu.Unlock()
	return resp, nil
}
