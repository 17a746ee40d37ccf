package traefikfile

import (
	"testing"

	"github.com/gatehouse-proxy/gatehouse/internal/store"
)

func TestWholeHostRedirect(t *testing.T) {
	tests := []struct {
		re, repl string
		want     *store.Redirect
	}{
		{"^.*$", "https://new.example/", &store.Redirect{URL: "https://new.example/"}},
		{".*", "https://new.example/landing?x=$$1", &store.Redirect{URL: "https://new.example/landing?x=$1"}},
		{"^https?://[^/]+(.*)$", "https://new.example${1}", &store.Redirect{URL: "https://new.example", KeepPath: true}},
		{"^https?://[^/]+(.*)", "https://new.example/base$1", &store.Redirect{URL: "https://new.example/base", KeepPath: true}},
		{"^https?://[^/]+(.*)$", "https://new.example/${1}", nil}, // a doubled slash Gatehouse would not write
		{"^https?://[^/]+(.*)$", "https://${1}", nil},
		{"^.*$", "https://new.example/$1", nil},
		{"^http://old\\.example/(.*)", "https://new.example/${1}", nil},
		{"^.*$", "javascript:alert(1)", nil},
	}
	for _, tt := range tests {
		t.Run(tt.re+" "+tt.repl, func(t *testing.T) {
			got, ok := wholeHostRedirect(tt.re, tt.repl)
			if (tt.want == nil) != !ok || (ok && got != *tt.want) {
				t.Fatalf("got %+v, %v; want %+v", got, ok, tt.want)
			}
		})
	}
}

func TestDetect(t *testing.T) {
	tests := []struct {
		data string
		want bool
	}{
		{"http:\n  routers:\n    a:\n      rule: Host(`a`)\n", true},
		{"HTTP:\n  Routers: {}\n", true},
		{"[http.routers.a]\nrule = \"Host(`a`)\"\n", true},
		{`{"http":{"routers":{}}}`, true},
		{"http:\n  services: {}\n", false},
		{"tcp:\n  routers: {}\n", true},
		{"udp:\n  services: {}\n", false},
		{"entryPoints:\n  web:\n    address: :80\n", false},
		{"SQLite format 3\x00", false},
		{`{"format":"gatehouse-export","version":1}`, false},
	}
	for _, tt := range tests {
		if got := New().Detect([]byte(tt.data)); got != tt.want {
			t.Errorf("Detect(%q) = %v; want %v", tt.data, got, tt.want)
		}
	}
}
