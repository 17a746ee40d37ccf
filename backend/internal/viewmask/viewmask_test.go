package viewmask

import (
	"context"
	"encoding/json"
	"reflect"
	"testing"

	"github.com/gatehouse-proxy/gatehouse/internal/actor"
)

func decoded(t *testing.T, s string) any {
	t.Helper()
	var v any
	if err := json.Unmarshal([]byte(s), &v); err != nil {
		t.Fatal(err)
	}
	return v
}

func TestApply(t *testing.T) {
	tests := []struct {
		name  string
		paths Paths
		in    string
		want  string
	}{
		{"map values", Paths{"headers.*"}, `{"name":"a","headers":{"Authorization":"Bearer x","X-A":"y"}}`,
			`{"name":"a","headers":{"Authorization":"[hidden]","X-A":"[hidden]"}}`},
		{"null stays", Paths{"headers.*"}, `{"headers":null}`, `{"headers":null}`},
		{"nested list", Paths{"rules[*].headers.*"}, `{"rules":[{"id":"1","headers":{"A":"b"}},{"id":"2"}]}`,
			`{"rules":[{"id":"1","headers":{"A":"[hidden]"}},{"id":"2"}]}`},
		{"one field", Paths{"lb.check.token"}, `{"lb":{"check":{"token":"t","path":"/"}}}`,
			`{"lb":{"check":{"token":"[hidden]","path":"/"}}}`},
		{"whole", Whole, `{"issuer":"https://id","rules":[1]}`, `{"issuer":"[hidden]","rules":"[hidden]"}`},
		{"kind mismatch left alone", Paths{"headers[*]"}, `{"headers":{"A":"b"}}`, `{"headers":{"A":"b"}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.paths.Apply(decoded(t, tt.in)); !reflect.DeepEqual(got, decoded(t, tt.want)) {
				t.Fatalf("got %v, want %s", got, tt.want)
			}
		})
	}
}

func TestChange(t *testing.T) {
	p := Paths{"headers.*", "rules[*].headers.*"}
	tests := []struct {
		name                 string
		path                 string
		before, after        any
		wantBefore, wantAfer any
	}{
		{"a header value", "headers.Authorization", "Bearer a", "Bearer b", Hidden, Hidden},
		{"a header added", "headers.X-Key", nil, "v", nil, Hidden},
		{"a dotted header name", "headers.X.Y", "v", nil, Hidden, nil},
		{"the map whole", "headers", nil, map[string]any{"A": "v"}, nil, map[string]any{"A": Hidden}},
		{"the map shortened to text", "headers", nil, `{"A":"v"...`, nil, Hidden},
		{"beside", "headersX", "v", "w", "v", "w"},
		{"another field", "name", "a", "b", "a", "b"},
		{"in a list by index", "rules[0].headers.A", "v", "w", Hidden, Hidden},
		{"in a list by id", "rules[id=r1].headers.A", nil, "w", nil, Hidden},
		{"a list element whole", "rules[id=r1]", nil, map[string]any{"id": "r1", "headers": map[string]any{"A": "v"}},
			nil, map[string]any{"id": "r1", "headers": map[string]any{"A": Hidden}}},
		{"a rule's other field", "rules[0].path", "/a", "/b", "/a", "/b"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, a := p.Change(tt.path, tt.before, tt.after)
			if !reflect.DeepEqual(b, tt.wantBefore) || !reflect.DeepEqual(a, tt.wantAfer) {
				t.Fatalf("Change(%q) = %v, %v; want %v, %v", tt.path, b, a, tt.wantBefore, tt.wantAfer)
			}
		})
	}
	if b, a := Whole.Change("", "x", map[string]any{"k": 1.0}); b != Hidden || !reflect.DeepEqual(a, map[string]any{"k": Hidden}) {
		t.Fatalf("Whole.Change(root) = %v, %v", b, a)
	}
	for _, path := range []string{"issuer", "rules[0].role", "[id=x]"} {
		if b, a := Whole.Change(path, "x", map[string]any{"k": 1.0}); b != Hidden || a != Hidden {
			t.Fatalf("Whole.Change(%q) = %v, %v", path, b, a)
		}
	}
}

func TestHides(t *testing.T) {
	ctx := context.Background()
	for _, tt := range []struct {
		name string
		ctx  context.Context
		want bool
	}{
		{"no actor", ctx, true},
		{"viewer session", actor.With(ctx, actor.Actor{Kind: actor.KindAdmin, Role: actor.RoleViewer}), true},
		{"viewer token", actor.With(ctx, actor.Actor{Kind: actor.KindToken, Role: actor.RoleViewer}), true},
		{"admin", actor.With(ctx, actor.Actor{Kind: actor.KindAdmin, Role: actor.RoleAdmin}), false},
		{"admin token", actor.With(ctx, actor.Actor{Kind: actor.KindToken, Role: actor.RoleAdmin}), false},
	} {
		if got := Hides(tt.ctx); got != tt.want {
			t.Errorf("%s: Hides = %v", tt.name, got)
		}
	}
}
