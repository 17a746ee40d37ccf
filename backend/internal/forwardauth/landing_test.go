package forwardauth

import (
	"strings"
	"testing"

	"github.com/gatehouse-proxy/gatehouse/internal/apperr"
	"github.com/gatehouse-proxy/gatehouse/internal/store"
)

func TestLandingPath(t *testing.T) {
	prefix := []store.Rule{{Type: "pathPrefix", Value: "/app"}, {Type: "pathPrefix", Value: "/static"}}
	tests := []struct {
		name     string
		rules    []store.Rule
		asked    string
		want     string
		warnings int
		field    string
	}{
		{"no rules", nil, "", "/", 0, ""},
		{"first prefix", prefix, "", "/app", 0, ""},
		{"exact path", []store.Rule{{Type: "path", Value: "/login"}}, "", "/login", 0, ""},
		{"asked under a prefix", prefix, "/static/x", "/static/x", 0, ""},
		{"asked outside the routes", prefix, "/admin", "", 0, "path"},
		{"asked without rules", nil, "/docs/a b", "", 0, "path"},
		{"asked with a query", nil, "/x?y=1", "", 0, "path"},
		{"header and method rules warn", []store.Rule{{Type: "header", Name: "X-Key", Value: "1"}, {Type: "method", Value: "POST"}}, "", "/", 2, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, warnings, err := landingPath(tt.rules, tt.asked)
			if tt.field != "" {
				if e, ok := apperr.As(err); !ok || e.Fields[0].Field != tt.field {
					t.Fatalf("err %v, want a %s field error", err, tt.field)
				}
				return
			}
			if err != nil || got != tt.want || len(warnings) != tt.warnings {
				t.Fatalf("got %q %v %v", got, warnings, err)
			}
			for _, w := range warnings {
				if strings.Contains(w, ": :") {
					t.Fatalf("malformed warning %q", w)
				}
			}
		})
	}
}
