package traefikfile

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gatehouse-proxy/gatehouse/internal/testutil"
	"github.com/gatehouse-proxy/gatehouse/internal/transfer/document"
)

// inputs lists the realistic files under testdata.
func inputs(t *testing.T) []string {
	t.Helper()
	var files []string
	for _, pat := range []string{"testdata/*.yml", "testdata/*.yaml", "testdata/*.toml"} {
		m, err := filepath.Glob(pat)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, m...)
	}
	if len(files) == 0 {
		t.Fatal("no test files")
	}
	return files
}

// TestReadGolden reads every file under testdata and compares the document
// and the skipped list with <file>.golden.json (go test -update rewrites them).
func TestReadGolden(t *testing.T) {
	for _, in := range inputs(t) {
		t.Run(filepath.Base(in), func(t *testing.T) {
			data, err := os.ReadFile(in) //nolint:gosec // the test's own files
			if err != nil {
				t.Fatal(err)
			}
			if !New().Detect(data) {
				t.Errorf("Detect = false")
			}
			doc, skipped, err := New().Read(data)
			if err != nil {
				t.Fatal(err)
			}
			var buf bytes.Buffer
			enc := json.NewEncoder(&buf)
			enc.SetEscapeHTML(false)
			enc.SetIndent("", "  ")
			if err := enc.Encode(struct {
				Document document.Document  `json:"document"`
				Skipped  []document.Skipped `json:"skipped"`
			}{doc, skipped}); err != nil {
				t.Fatal(err)
			}
			testutil.Golden(t, in+".golden.json", buf.Bytes())
		})
	}
}

func TestReadRefuses(t *testing.T) {
	nested := strings.Repeat("[", 5000) + strings.Repeat("]", 5000)
	tests := []struct {
		name, data, want string
	}{
		{"template", "http:\n  routers:\n    a:\n      rule: Host(`{{ env \"HOST\" }}`)\n", "Go template syntax"},
		{"empty", "", "not a Traefik dynamic configuration"},
		{"other yaml", "services:\n  web:\n    image: nginx\n", "not a Traefik dynamic configuration"},
		{"gatehouse json", `{"format":"gatehouse-export","version":1,"services":[]}`, "not a Traefik dynamic configuration"},
		{"package json", `{"name":"x","dependencies":{"a":"1"}}`, "not a Traefik dynamic configuration"},
		{"not utf8", "http:\n  routers:\n    a\xff\xfe: {}\n", "not UTF-8"},
		{"broken yaml", "http:\n  routers: [\n", "not valid YAML"},
		{"broken toml", "[http.routers.a]\nrule = \n", "not valid TOML"},
		{"http is a list", "http:\n  - a\n", "http: must be a mapping"},
		{"routers is a string", "http:\n  routers: nope\n", "http.routers: must be a mapping"},
		{"deep nesting", "http: " + nested + "\n", "nests deeper"},
		{"deep block nesting", deepBlock(200), "nests deeper"},
		{"case clash", "http:\n  routers: {}\n  Routers: {}\n", "differ only in case"},
		{"alias bomb", aliasBomb(), "YAML"},
		{"too large", "http:\n  routers: {}\n#" + strings.Repeat("x", MaxSize), "larger than"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, _, err := New().Read([]byte(tt.data))
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("err = %v; want one containing %q", err, tt.want)
			}
			if New().Detect([]byte(tt.data)) {
				t.Errorf("Detect = true")
			}
		})
	}
}

// deepBlock nests block mappings n levels deep.
func deepBlock(n int) string {
	var b strings.Builder
	b.WriteString("http:\n")
	for i := range n {
		b.WriteString(strings.Repeat(" ", 2*(i+1)) + "k:\n")
	}
	return b.String()
}

// aliasBomb is the billion-laughs document: each level refers to the one
// before it ten times.
func aliasBomb() string {
	var b strings.Builder
	b.WriteString("a: &a [\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\"]\n")
	prev := "a"
	for _, l := range "bcdefghi" {
		n := string(l)
		b.WriteString(n + ": &" + n + " [" + strings.Repeat("*"+prev+",", 8) + "*" + prev + "]\n")
		prev = n
	}
	b.WriteString("http:\n  routers:\n    x:\n      rule: *i\n")
	return b.String()
}

// TestReadHostileValues: values Traefik would refuse or Gatehouse cannot
// hold skip their router with a reason; the read itself succeeds.
func TestReadHostileValues(t *testing.T) {
	tests := []struct {
		name, data, want string
	}{
		{"huge weight", "http:\n  routers:\n    a:\n      rule: Host(`a.test`)\n      service: s\n  services:\n    s:\n      loadBalancer:\n        servers:\n          - url: http://a\n            weight: 99999999999999999999999\n", "weight"},
		{"huge priority", "http:\n  routers:\n    a:\n      rule: Host(`a.test`)\n      service: s\n      priority: 1e300\n", "priority"},
		{"huge port", "http:\n  routers:\n    a:\n      rule: Host(`a.test`)\n      service: s\n  services:\n    s:\n      loadBalancer:\n        servers:\n          - url: http://a:99999999999\n", "port"},
		{"rule is a list", "http:\n  routers:\n    a:\n      rule: [x]\n      service: s\n", "must be a single value"},
		{"router is a string", "http:\n  routers:\n    a: x\n", "must be a mapping"},
		{"entrypoints a string", "http:\n  routers:\n    a:\n      rule: Host(`a.test`)\n      entryPoints: web\n      service: s\n", "must be a list"},
		{"injection", "http:\n  routers:\n    a:\n      rule: \"Host(`a.test`) && Header(`X`, \\\"a`) || Host(`evil\\\")\"\n      service: s\n  services:\n    s:\n      loadBalancer:\n        servers:\n          - url: http://a\n", "Gatehouse header conditions"},
		{"long rule", "http:\n  routers:\n    a:\n      rule: \"" + strings.Repeat("(", 70) + "Host(`a.test`)" + strings.Repeat(")", 70) + "\"\n      service: s\n", "nests deeper"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			doc, skipped, err := New().Read([]byte(tt.data))
			if err != nil {
				t.Fatal(err)
			}
			if len(doc.Services) != 0 || len(skipped) != 1 || !strings.Contains(skipped[0].Reason, tt.want) {
				t.Fatalf("services %d, skipped %+v; want one skipped router whose reason mentions %q", len(doc.Services), skipped, tt.want)
			}
		})
	}
}
