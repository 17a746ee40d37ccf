package audit

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

func js(t *testing.T, s string) any {
	t.Helper()
	if s == "" {
		return nil
	}
	var v any
	if err := json.Unmarshal([]byte(s), &v); err != nil {
		t.Fatal(err)
	}
	return v
}

func TestRedact(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"secret strings go", `{"clientSecret":"s3","password":"p","proxyHash":"$2a","apiKey":"k","Token":"t"}`,
			`{"clientSecret":"[redacted]","password":"[redacted]","proxyHash":"[redacted]","apiKey":"[redacted]","Token":"[redacted]"}`},
		{"flags, ids and times stay", `{"hasPassword":true,"clientSecretSet":true,"tokenId":"abc","secretUpdatedAt":"2026-01-01T00:00:00Z","tokenCount":3}`,
			`{"hasPassword":true,"clientSecretSet":true,"tokenId":"abc","secretUpdatedAt":"2026-01-01T00:00:00Z","tokenCount":3}`},
		{"empty secret stays empty", `{"password":""}`, `{"password":""}`},
		{"inside a secret object only harmless keys stay", `{"token":{"id":"1","name":"ci","value":"gh_xyz","scope":"read"}}`,
			`{"token":{"id":"1","name":"ci","value":"[redacted]","scope":"read"}}`},
		{"lists under secret keys", `{"recoveryCodes":["aaaa","bbbb"],"credentials":[{"username":"u","hash":"h"}]}`,
			`{"recoveryCodes":["[redacted]","[redacted]"],"credentials":[{"username":"u","hash":"[redacted]"}]}`},
		{"nested plain values stay", `{"targets":[{"host":"10.0.0.1","port":80}],"name":"app"}`,
			`{"targets":[{"host":"10.0.0.1","port":80}],"name":"app"}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Redact(js(t, tt.in)); !reflect.DeepEqual(got, js(t, tt.want)) {
				b, _ := json.Marshal(got)
				t.Fatalf("Redact = %s\nwant %s", b, tt.want)
			}
		})
	}
}

func TestDiff(t *testing.T) {
	tests := []struct {
		name, before, after string
		want                []Change
	}{
		{"unchanged", `{"a":1}`, `{"a":1}`, nil},
		{"scalar change", `{"name":"a","port":80}`, `{"name":"b","port":80}`, []Change{{"name", "a", "b"}}},
		{"created", ``, `{"name":"a","tags":["x"]}`, []Change{{"name", nil, "a"}, {"tags[0]", nil, "x"}}},
		{"deleted", `{"name":"a"}`, ``, []Change{{"name", "a", nil}}},
		{"nested path", `{"targets":[{"port":80}]}`, `{"targets":[{"port":81}]}`, []Change{{"targets[0].port", 80.0, 81.0}}},
		{"list grows", `{"l":[1]}`, `{"l":[1,2]}`, []Change{{"l[1]", nil, 2.0}}},
		{"objects matched by id", `{"items":[{"id":"a","n":1},{"id":"b","n":2}]}`, `{"items":[{"id":"c","n":3},{"id":"a","n":1},{"id":"b","n":5}]}`,
			[]Change{{"items[id=b].n", 2.0, 5.0}, {"items[id=c].id", nil, "c"}, {"items[id=c].n", nil, 3.0}}},
		{"kind changes", `{"v":{"a":1}}`, `{"v":"x"}`, []Change{{"v", map[string]any{"a": 1.0}, "x"}}},
		{"changed secret shows without its value", `{"clientSecret":"old"}`, `{"clientSecret":"new"}`, []Change{{"clientSecret", Redacted, Redacted}}},
		{"unchanged secret is not listed", `{"clientSecret":"same","x":1}`, `{"clientSecret":"same","x":2}`, []Change{{"x", 1.0, 2.0}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Diff(js(t, tt.before), js(t, tt.after))
			if !reflect.DeepEqual(got, tt.want) {
				t.Fatalf("Diff = %#v\nwant %#v", got, tt.want)
			}
		})
	}
}

func TestDiffBoundsLongValues(t *testing.T) {
	long := strings.Repeat("é", 2000)
	got := Diff(map[string]any{"note": ""}, map[string]any{"note": long})
	s, _ := got[0].After.(string)
	if len(s) > maxValueLen+len("…") || !strings.HasSuffix(s, "…") {
		t.Fatalf("value not bounded: %d bytes", len(s))
	}
}

func TestClassify(t *testing.T) {
	routes := routeSet{}
	for _, r := range []string{
		"GET /api/things", "POST /api/things", "GET /api/things/:id", "PUT /api/things/:id", "DELETE /api/things/:id",
		"POST /api/things/:id/poke", "GET /api/bare", "POST /api/bare", "POST /api/admin/login", "POST /api/admin/login/totp",
		"GET /api/admin/sso/callback",
	} {
		routes[r] = true
	}
	tests := []struct {
		method, route string
		kind          planKind
		action, read  string
		item          string
		ok            bool
	}{
		{"GET", "/api/things", planNone, "", "", "", true},
		{"POST", "/api/things", planChange, ActionCreate, "", "/api/things/:id", true},
		{"PUT", "/api/things/:id", planChange, ActionUpdate, "/api/things/:id", "", true},
		{"DELETE", "/api/things/:id", planChange, ActionDelete, "/api/things/:id", "", true},
		{"POST", "/api/things/:id/poke", planChange, ActionCreate, "", "", false},
		{"POST", "/api/bare", planChange, ActionCreate, "", "", false}, // a POST with a GET but no items
		{"POST", "/api/admin/login", planSignIn, "", "", "", true},
		{"POST", "/api/admin/login/totp", planSignIn, "", "", "", true},
		{"GET", "/api/admin/sso/callback", planSignIn, "", "", "", true},
	}
	for _, tt := range tests {
		t.Run(tt.method+" "+tt.route, func(t *testing.T) {
			p, ok := classify(tt.method, tt.route, routes)
			if ok != tt.ok || p.kind != tt.kind || p.action != tt.action || p.read != tt.read || p.item != tt.item {
				t.Fatalf("classify = %+v, %v", p, ok)
			}
		})
	}
	if got := resourceType("/api/services/:id/shared-links/:linkId"); got != "services.shared-links" {
		t.Fatalf("resourceType = %q", got)
	}
}

func TestCSVSafe(t *testing.T) {
	got := csvSafe([]string{"=1+1", "+x", "-x", "@x", "\tx", "ok", "", "a=b"})
	want := []string{"'=1+1", "'+x", "'-x", "'@x", "'\tx", "ok", "", "a=b"}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("csvSafe = %q", got)
	}
}

// FuzzDiffNeverShowsSecrets: whatever the surrounding document, a value
// under a secret key never reaches a diff, and Diff never panics.
func FuzzDiffNeverShowsSecrets(f *testing.F) {
	f.Add(`{"name":"a","targets":[{"port":80}]}`, "hunter2-hunter2")
	f.Add(`[1,"x",null,{"id":"a"}]`, "s3cr3t-value")
	f.Add(`{"token":{"id":"1"},"items":[{"id":"a","n":1}]}`, "another-secret")
	f.Fuzz(func(t *testing.T, raw, secret string) {
		var doc any
		if json.Unmarshal([]byte(raw), &doc) != nil || len(secret) < 8 || strings.Contains(raw, secret) {
			return
		}
		enc, _ := json.Marshal(secret)
		if strings.Contains(raw, strings.Trim(string(enc), `"`)) {
			return
		}
		after := map[string]any{
			"doc": doc, "apiToken": secret, "clientSecret": secret,
			"users": []any{map[string]any{"id": "u1", "password": secret}},
			"token": map[string]any{"id": "t1", "value": secret},
		}
		for _, d := range [][]Change{Diff(doc, after), Diff(after, doc), Diff(nil, after)} {
			out, err := json.Marshal(d)
			if err != nil {
				t.Fatal(err)
			}
			if strings.Contains(string(out), strings.Trim(string(enc), `"`)) {
				t.Fatalf("diff shows the secret: %s", out)
			}
		}
	})
}
