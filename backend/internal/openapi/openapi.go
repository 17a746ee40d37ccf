// Package openapi assembles the OpenAPI 3.1 description of the HTTP API
// (/api/openapi.json) from a base document and the fragments each feature
// package embeds next to its handlers (openapi*.yaml: paths and
// components.schemas only). The merge refuses an operation or a schema that
// two files both define, naming both, so the document has one author per
// route.
package openapi

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"fmt"
	"io/fs"
	"path"
	"reflect"
	"slices"
	"strings"

	"gopkg.in/yaml.v3"
)

//go:embed base.yaml
var base []byte

// Fragment is one package's part of the document.
type Fragment struct {
	// Package names the package (e.g. "internal/services"), for errors and
	// for telling where a missing route belongs.
	Package string
	// FS holds the package's openapi*.yaml files at its root.
	FS fs.FS
}

// methods are the operation keys of a path item.
var methods = []string{"get", "put", "post", "delete", "options", "head", "patch", "trace"}

// IsMethod reports whether key of a path item is an operation.
func IsMethod(key string) bool { return slices.Contains(methods, key) }

// Build merges the base document and the fragments into one JSON document
// with info.version set to version. Keys come out sorted, so the same input
// always gives the same bytes.
func Build(version string, fragments ...Fragment) ([]byte, error) {
	doc, err := decode("internal/openapi/base.yaml", base)
	if err != nil {
		return nil, err
	}
	m := &merger{doc: doc, ops: map[string]string{}, schemas: map[string]string{}}
	if err := m.add("internal/openapi/base.yaml", doc, true); err != nil {
		return nil, err
	}
	for _, f := range fragments {
		names, err := fs.Glob(f.FS, "openapi*.yaml")
		if err != nil {
			return nil, err
		}
		if len(names) == 0 {
			return nil, fmt.Errorf("%s: no openapi*.yaml fragment", f.Package)
		}
		for _, name := range names {
			file := path.Join(f.Package, name)
			b, err := fs.ReadFile(f.FS, name)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", file, err)
			}
			frag, err := decode(file, b)
			if err != nil {
				return nil, err
			}
			if err := m.add(file, frag, false); err != nil {
				return nil, err
			}
		}
	}
	addGuardAnswers(doc)
	doc["info"].(map[string]any)["version"] = version
	var out bytes.Buffer
	enc := json.NewEncoder(&out)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(doc); err != nil {
		return nil, err
	}
	return out.Bytes(), nil
}

// guardAnswers are what the guards in front of every non-public route may
// answer before its handler runs: 401 without a session or valid token, 403
// for a role, a token on an account route or a second factor still to set
// up, 429 after too many invalid tokens from one address.
var guardAnswers = []string{"401", "403", "429"}

// addGuardAnswers gives every guarded operation (one without an empty
// security list) the guards' answers it does not describe itself.
func addGuardAnswers(doc map[string]any) {
	for _, item := range doc["paths"].(map[string]any) {
		for k, v := range item.(map[string]any) {
			op, ok := v.(map[string]any)
			if !IsMethod(k) || !ok {
				continue
			}
			if sec, ok := op["security"].([]any); ok && len(sec) == 0 {
				continue // public
			}
			responses, _ := op["responses"].(map[string]any)
			if responses == nil {
				continue
			}
			for _, code := range guardAnswers {
				if _, ok := responses[code]; !ok {
					responses[code] = map[string]any{"$ref": "#/components/responses/Error"}
				}
			}
		}
	}
}

type merger struct {
	doc     map[string]any
	ops     map[string]string // "GET /api/x" -> the file that defines it
	schemas map[string]string // schema name -> the file that defines it
}

// add merges one file into the document. The base document is the
// document itself; it only registers what it defines.
func (m *merger) add(file string, frag map[string]any, isBase bool) error {
	if !isBase {
		for k := range frag {
			if k != "paths" && k != "components" {
				return fmt.Errorf("%s: top-level key %q: a fragment holds only paths and components.schemas", file, k)
			}
		}
	}
	paths, err := object(file, "paths", frag["paths"])
	if err != nil {
		return err
	}
	docPaths := m.doc["paths"].(map[string]any)
	for _, p := range sortedKeys(paths) {
		item, err := object(file, "paths."+p, paths[p])
		if err != nil {
			return err
		}
		if !strings.HasPrefix(p, "/api/") {
			return fmt.Errorf("%s: path %q: paths are full, starting with /api/", file, p)
		}
		if strings.Contains(p, ":") {
			return fmt.Errorf("%s: path %q: write Echo's :name parameters as {name}", file, p)
		}
		target, _ := docPaths[p].(map[string]any)
		if target == nil || isBase {
			target = map[string]any{}
			if isBase {
				target = item
			}
			docPaths[p] = target
		}
		for _, k := range sortedKeys(item) {
			if !IsMethod(k) {
				if prev, ok := target[k]; ok && !isBase && !reflect.DeepEqual(prev, item[k]) {
					return fmt.Errorf("%s: %s %s differs from another file's; put it on the operations", file, p, k)
				}
				target[k] = item[k]
				continue
			}
			op := strings.ToUpper(k) + " " + p
			if prev, ok := m.ops[op]; ok {
				return fmt.Errorf("operation %s is defined twice: in %s and in %s", op, prev, file)
			}
			m.ops[op] = file
			target[k] = item[k]
		}
	}
	comps, err := object(file, "components", frag["components"])
	if err != nil {
		return err
	}
	if !isBase {
		for k := range comps {
			if k != "schemas" {
				return fmt.Errorf("%s: components.%s: a fragment holds only components.schemas", file, k)
			}
		}
	}
	schemas, err := object(file, "components.schemas", comps["schemas"])
	if err != nil {
		return err
	}
	docSchemas := m.doc["components"].(map[string]any)["schemas"].(map[string]any)
	for _, name := range sortedKeys(schemas) {
		if prev, ok := m.schemas[name]; ok {
			return fmt.Errorf("schema %s is defined twice: in %s and in %s", name, prev, file)
		}
		m.schemas[name] = file
		docSchemas[name] = schemas[name]
	}
	return nil
}

// Operations lists the document's operations as "METHOD /path".
func Operations(doc []byte) ([]string, error) {
	var d struct {
		Paths map[string]map[string]json.RawMessage `json:"paths"`
	}
	if err := json.Unmarshal(doc, &d); err != nil {
		return nil, err
	}
	var ops []string
	for p, item := range d.Paths {
		for k := range item {
			if IsMethod(k) {
				ops = append(ops, strings.ToUpper(k)+" "+p)
			}
		}
	}
	slices.Sort(ops)
	return ops, nil
}

func decode(file string, b []byte) (map[string]any, error) {
	var v any
	if err := yaml.Unmarshal(b, &v); err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	m, ok := stringKeys(v).(map[string]any)
	if !ok {
		return nil, fmt.Errorf("%s: not a YAML mapping", file)
	}
	return m, nil
}

// stringKeys turns YAML's map[any]any (an unquoted status code such as 200
// is an integer key) into the map[string]any JSON needs.
func stringKeys(v any) any {
	switch t := v.(type) {
	case map[string]any:
		for k, x := range t {
			t[k] = stringKeys(x)
		}
		return t
	case map[any]any:
		m := make(map[string]any, len(t))
		for k, x := range t {
			m[fmt.Sprint(k)] = stringKeys(x)
		}
		return m
	case []any:
		for i, x := range t {
			t[i] = stringKeys(x)
		}
		return t
	default:
		return v
	}
}

// object returns v as a mapping; a missing value is an empty one.
func object(file, where string, v any) (map[string]any, error) {
	if v == nil {
		return map[string]any{}, nil
	}
	m, ok := v.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("%s: %s is not a mapping", file, where)
	}
	return m, nil
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
