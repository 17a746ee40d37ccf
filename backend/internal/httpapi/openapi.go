package httpapi

import (
	"embed"
	"reflect"
	"strings"

	"github.com/gatehouse-proxy/gatehouse/internal/openapi"
)

// apiFragment holds this package's part of the API description (the
// openapi*.yaml files), merged into /api/openapi.json.
//
//go:embed openapi*.yaml
var apiFragment embed.FS

// Document builds /api/openapi.json for version from this package's
// fragment and each feature's. It asks a feature only for its fragment, so
// the features of a server that is not built (nil handlers) describe the
// API too.
func Document(version string, features []Feature) ([]byte, error) {
	fragments := []openapi.Fragment{{Package: "internal/httpapi", FS: apiFragment}}
	for _, f := range features {
		fragments = append(fragments, openapi.Fragment{Package: featurePackage(f), FS: f.OpenAPI()})
	}
	return openapi.Build(version, fragments...)
}

// featurePackage names f's package from the module root
// ("internal/services"), for the document's errors.
func featurePackage(f Feature) string {
	t := reflect.TypeOf(f)
	if t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	p := t.PkgPath()
	if i := strings.Index(p, "/internal/"); i >= 0 {
		return p[i+1:]
	}
	return p
}
