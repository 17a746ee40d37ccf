package app

import (
	"bytes"
	"encoding/json"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/labstack/echo/v4"

	fwdcontract "github.com/gatehouse-proxy/gatehouse/internal/forwardauth/contract"
	"github.com/gatehouse-proxy/gatehouse/internal/openapi"
	"github.com/gatehouse-proxy/gatehouse/internal/testutil"
)

// frontRoutes are answered in front of Echo (access.Service.FastVerify), so
// they are not in Echo's route table but are part of the API.
var frontRoutes = []string{"GET " + fwdcontract.VerifyPath, "HEAD " + fwdcontract.VerifyPath}

var echoParam = regexp.MustCompile(`:([A-Za-z0-9_]+)`)

// specPath writes Echo's ":id" as OpenAPI's "{id}".
func specPath(p string) string { return echoParam.ReplaceAllString(p, "{$1}") }

// routePackage names the package a route's handler lives in, from Echo's
// route name ("github.com/.../internal/accesslog.(*Handler).all-fm").
func routePackage(name string) string {
	i := strings.Index(name, "/internal/")
	if i < 0 {
		return "internal/httpapi"
	}
	rest := name[i+1:]
	if j := strings.IndexByte(rest[len("internal/"):], '.'); j >= 0 {
		return rest[:len("internal/")+j]
	}
	return rest
}

// TestOpenAPICoversEveryRoute walks the real route table: every /api route
// is described in /api/openapi.json, and every described operation exists.
func TestOpenAPICoversEveryRoute(t *testing.T) {
	a := newTestApp(t, nil)
	doc, err := apiDocument()
	if err != nil {
		t.Fatal(err)
	}
	ops, err := openapi.Operations(doc)
	if err != nil {
		t.Fatal(err)
	}
	described := map[string]bool{}
	for _, op := range ops {
		described[op] = true
	}
	registered := map[string]bool{}
	for _, r := range a.c.echo.Routes() {
		if !strings.HasPrefix(r.Path, "/api/") || r.Method == echo.RouteNotFound {
			continue
		}
		op := r.Method + " " + specPath(r.Path)
		registered[op] = true
		if !described[op] {
			pkg := routePackage(r.Name)
			t.Errorf("%s is registered (by %s) but not in /api/openapi.json: describe it in an openapi*.yaml next to "+
				"its handler (backend/%s/openapi_<part>.yaml; the package's openapi.go embeds it and its handler's "+
				"OpenAPI method returns it)", op, pkg, pkg)
		}
	}
	for _, op := range frontRoutes {
		registered[op] = true
	}
	for _, op := range ops {
		if !registered[op] {
			t.Errorf("%s is described in /api/openapi.json but no such route is registered: remove it from its fragment "+
				"or register the route", op)
		}
	}
	if len(registered) < 70 {
		t.Fatalf("only %d routes registered; the walk is broken", len(registered))
	}
}

// TestOpenAPIMarksTheOpenRoutes: the document says an operation needs no
// session (security: []) exactly where the route's registration declares it
// public or machine. Two authors, one answer: a route opened by accident in
// either place fails here.
func TestOpenAPIMarksTheOpenRoutes(t *testing.T) {
	a := newTestApp(t, nil)
	doc, err := apiDocument()
	if err != nil {
		t.Fatal(err)
	}
	var d struct {
		Paths map[string]map[string]json.RawMessage `json:"paths"`
	}
	if err := json.Unmarshal(doc, &d); err != nil {
		t.Fatal(err)
	}
	described := map[string]bool{} // "GET /api/x/{id}" -> open
	for p, item := range d.Paths {
		for m, raw := range item {
			if !openapi.IsMethod(m) {
				continue
			}
			var op struct {
				Security *[]json.RawMessage `json:"security"`
			}
			if err := json.Unmarshal(raw, &op); err != nil {
				t.Fatal(err)
			}
			described[strings.ToUpper(m)+" "+p] = op.Security != nil && len(*op.Security) == 0
		}
	}
	for _, op := range frontRoutes { // answered in front of Echo, by its own guard
		if !described[op] {
			t.Errorf("%s: the document asks for a session", op)
		}
		delete(described, op)
	}
	open := 0
	for _, r := range a.c.routes.Rules() {
		op := r.Method + " " + specPath(r.Path)
		if r.Open() != described[op] {
			t.Errorf("%s: registered %s, but the document says open=%v", op, r.Class, described[op])
		}
		if r.Open() {
			open++
		}
	}
	if open < 10 {
		t.Fatalf("only %d open routes; the walk is broken", open)
	}
}

// ownBody lists the error statuses whose body is not the error envelope.
var ownBody = map[string]bool{"GET /api/health 503": true, "GET /api/proxy/maintenance/{id} 503": true}

// TestOpenAPIDocumentIsValid checks the document against the OpenAPI 3.1
// schema and the rules the fragments follow.
func TestOpenAPIDocumentIsValid(t *testing.T) {
	doc, err := apiDocument()
	if err != nil {
		t.Fatal(err)
	}
	v := newContract(t, doc)
	if ok, errs := v.ValidateDocument(); !ok {
		for _, e := range errs {
			t.Errorf("invalid OpenAPI 3.1: %s (%s)", e.Message, e.Reason)
			for _, v := range e.SchemaValidationErrors {
				t.Errorf("  at %s: %s", v.FieldPath+" "+v.KeywordLocation, v.Reason)
			}
		}
	}
	var d struct {
		Paths map[string]map[string]json.RawMessage `json:"paths"`
	}
	if err := json.Unmarshal(doc, &d); err != nil {
		t.Fatal(err)
	}
	ids := map[string]string{}
	for p, item := range d.Paths {
		for m, raw := range item {
			if !openapi.IsMethod(m) {
				continue
			}
			where := strings.ToUpper(m) + " " + p
			var op struct {
				OperationID string                     `json:"operationId"`
				Tags        []string                   `json:"tags"`
				Summary     string                     `json:"summary"`
				Responses   map[string]json.RawMessage `json:"responses"`
			}
			if err := json.Unmarshal(raw, &op); err != nil {
				t.Fatalf("%s: %v", where, err)
			}
			if op.OperationID == "" || len(op.Tags) == 0 || op.Summary == "" {
				t.Errorf("%s: operationId, tags and summary are required", where)
			}
			if prev, ok := ids[op.OperationID]; ok {
				t.Errorf("operationId %s is used by %s and %s", op.OperationID, prev, where)
			}
			ids[op.OperationID] = where
			for code, r := range op.Responses {
				// Errors are the envelope (refusal pages may add HTML);
				// health's 503 is its own body, for load balancers, and a
				// maintenance page's 503 is the page people see.
				if code >= "400" && !ownBody[where+" "+code] && !bytes.Contains(r, []byte("#/components/responses/Error")) &&
					!bytes.Contains(r, []byte("#/components/schemas/ErrorEnvelope")) {
					t.Errorf("%s: response %s is not the error envelope", where, code)
				}
			}
		}
	}
}

// TestOpenAPIDocumentIsDeterministic: the same fragments give the same bytes.
func TestOpenAPIDocumentIsDeterministic(t *testing.T) {
	first, err := apiDocument()
	if err != nil {
		t.Fatal(err)
	}
	for range 5 {
		again, err := apiDocument()
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(first, again) {
			t.Fatal("two builds of the document differ")
		}
	}
}

// apiSnapshot is the committed copy of the document the front end's types
// are generated from (npm run gen:api).
const apiSnapshot = "../../../frontend/openapi.json"

// TestOpenAPISnapshotIsCurrent fails when the committed copy is stale.
func TestOpenAPISnapshotIsCurrent(t *testing.T) {
	doc, err := apiDocument()
	if err != nil {
		t.Fatal(err)
	}
	if testutil.Updating() {
		if err := os.WriteFile(apiSnapshot, doc, 0o600); err != nil {
			t.Fatal(err)
		}
		return
	}
	got, err := os.ReadFile(apiSnapshot)
	if err != nil || !bytes.Equal(got, doc) {
		t.Fatalf("frontend/openapi.json is not the current API description; regenerate it and the types: " +
			"cd frontend && npm run gen:api")
	}
}
