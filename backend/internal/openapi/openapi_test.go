package openapi

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/labstack/echo/v4"

	"github.com/gatehouse-proxy/gatehouse/internal/httpapi/route"
	"github.com/gatehouse-proxy/gatehouse/internal/testutil"
)

const things = `
paths:
  /api/things:
    get:
      operationId: listThings
      responses:
        200: {description: OK}
components:
  schemas:
    Thing: {type: object}
`

func frag(pkg string, files map[string]string) Fragment {
	fs := fstest.MapFS{}
	for name, body := range files {
		fs[name] = &fstest.MapFile{Data: []byte(body)}
	}
	return Fragment{Package: pkg, FS: fs}
}

func TestBuildMerges(t *testing.T) {
	doc, err := Build("1.2.3",
		frag("internal/things", map[string]string{"openapi_things.yaml": things}),
		frag("internal/more", map[string]string{"openapi_a.yaml": `
paths:
  /api/things:
    post:
      operationId: createThing
      responses:
        '201': {description: Created}
  /api/things/{id}:
    parameters: [{name: id, in: path, required: true, schema: {type: string}}]
    get: {operationId: getThing, responses: {'200': {description: OK}}}
`}))
	if err != nil {
		t.Fatal(err)
	}
	var d struct {
		OpenAPI string `json:"openapi"`
		Info    struct {
			Version string `json:"version"`
		} `json:"info"`
		Paths      map[string]map[string]any `json:"paths"`
		Components struct {
			Schemas map[string]any `json:"schemas"`
		} `json:"components"`
	}
	if err := json.Unmarshal(doc, &d); err != nil {
		t.Fatal(err)
	}
	if d.OpenAPI != "3.1.0" || d.Info.Version != "1.2.3" {
		t.Errorf("openapi %q version %q", d.OpenAPI, d.Info.Version)
	}
	if d.Paths["/api/things"]["get"] == nil || d.Paths["/api/things"]["post"] == nil || d.Paths["/api/things/{id}"]["parameters"] == nil {
		t.Errorf("paths not merged: %v", d.Paths)
	}
	if d.Components.Schemas["Thing"] == nil || d.Components.Schemas["ErrorEnvelope"] == nil {
		t.Errorf("schemas not merged: %v", d.Components.Schemas)
	}
	// An unquoted status code is a YAML integer; it comes out as a string key.
	if !strings.Contains(string(doc), `"200": {`) {
		t.Errorf("status code key: %s", doc)
	}
	ops, err := Operations(doc)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"GET /api/openapi.json", "GET /api/things", "GET /api/things/{id}", "POST /api/things"}
	if strings.Join(ops, ",") != strings.Join(want, ",") {
		t.Errorf("operations %v, want %v", ops, want)
	}
	again, err := Build("1.2.3",
		frag("internal/things", map[string]string{"openapi_things.yaml": things}),
		frag("internal/more", map[string]string{"openapi_a.yaml": "paths: {}\n"}))
	if err != nil {
		t.Fatal(err)
	}
	if again2, _ := Build("1.2.3", frag("internal/things", map[string]string{"openapi_things.yaml": things}),
		frag("internal/more", map[string]string{"openapi_a.yaml": "paths: {}\n"})); !bytes.Equal(again, again2) {
		t.Error("two builds differ")
	}
}

func TestBuildRefuses(t *testing.T) {
	tests := []struct {
		name  string
		files map[string]string
		want  string
	}{
		{"operation twice", map[string]string{"openapi_b.yaml": "paths:\n  /api/things:\n    get: {operationId: x}\n"},
			"operation GET /api/things is defined twice: in internal/things/openapi_things.yaml and in internal/other/openapi_b.yaml"},
		{"schema twice", map[string]string{"openapi_b.yaml": "components:\n  schemas:\n    Thing: {type: string}\n"},
			"schema Thing is defined twice: in internal/things/openapi_things.yaml and in internal/other/openapi_b.yaml"},
		{"base schema", map[string]string{"openapi_b.yaml": "components:\n  schemas:\n    ErrorEnvelope: {type: string}\n"},
			"schema ErrorEnvelope is defined twice: in internal/openapi/base.yaml"},
		{"other top-level key", map[string]string{"openapi_b.yaml": "info: {title: x}\n"}, `top-level key "info"`},
		{"other components", map[string]string{"openapi_b.yaml": "components:\n  responses: {}\n"}, "components.responses"},
		{"echo parameter", map[string]string{"openapi_b.yaml": "paths:\n  /api/x/:id:\n    get: {}\n"}, "write Echo's :name parameters as {name}"},
		{"relative path", map[string]string{"openapi_b.yaml": "paths:\n  /x:\n    get: {}\n"}, "starting with /api/"},
		{"no fragment", map[string]string{"other.yaml": "paths: {}\n"}, "internal/other: no openapi*.yaml fragment"},
		{"bad YAML", map[string]string{"openapi_b.yaml": "paths: [\n"}, "internal/other/openapi_b.yaml"},
		{"different path parameters", map[string]string{"openapi_b.yaml": "paths:\n  /api/things:\n    parameters: [{name: q, in: query}]\n    post: {}\n"}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Build("1", frag("internal/things", map[string]string{"openapi_things.yaml": things}), frag("internal/other", tt.files))
			if tt.want == "" {
				if err != nil {
					t.Fatalf("refused: %v", err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("err = %v, want it to say %q", err, tt.want)
			}
		})
	}
}

func TestHandlerServesWithETag(t *testing.T) {
	doc := []byte(`{"openapi":"3.1.0"}`)
	e := echo.New()
	NewHandler(doc).Register(route.NewRegistrar(e.Group("/api"), route.NewTable()))
	rec := testutil.Request(e, http.MethodGet, Path, "")
	etag := rec.Header().Get("ETag")
	if rec.Code != http.StatusOK || rec.Body.String() != string(doc) || etag == "" ||
		!strings.HasPrefix(rec.Header().Get("Content-Type"), "application/json") {
		t.Fatalf("%d %q %q %s", rec.Code, etag, rec.Header().Get("Content-Type"), rec.Body)
	}
	if rec := testutil.Request(e, http.MethodGet, Path, "", "If-None-Match", etag); rec.Code != http.StatusNotModified || rec.Body.Len() != 0 {
		t.Fatalf("If-None-Match: %d", rec.Code)
	}
	if other := NewHandler([]byte(`{}`)); other.etag == etag {
		t.Fatal("two documents, one ETag")
	}
}
