package traefikfile

import (
	"reflect"
	"strings"
	"testing"

	"github.com/gatehouse-proxy/gatehouse/internal/store"
)

func TestParseRule(t *testing.T) {
	tests := []struct {
		rule string
		want string // the parse, or the start of the error after "!"
	}{
		{"Host(`a.test`)", `Host("a.test")`},
		{`Host("a.test")`, `Host("a.test")`},
		{"host(`a`) || HOST(`b`) && Pathprefix(`/x`)", `(Host("a") || (Host("b") && PathPrefix("/x")))`},
		{"(Host(`a`) || Host(`b`)) && !Method(`GET`)", `((Host("a") || Host("b")) && !Method("GET"))`},
		{"Header(`X`, \"a\\tb\")", `Header("X", "a\tb")`},
		{"Query(`k`,)", `Query("k")`},
		{"Host(`a`)\n  && Path(`/`)", `(Host("a") && Path("/"))`},
		{"Host(`a`, `b`)", "!the Host matcher takes one value in Traefik v3"},
		{"Host()", "!Host takes 1 value(s), got 0"},
		{"Header(`X`)", "!Header takes 2 value(s)"},
		{"HostHeader(`a`)", `!unknown matcher "HostHeader"`},
		{"Path(`x`)", "!Path(\"x\"): the path does not start with a '/'"},
		{"ClientIP(`10.0.0.300`)", "!ClientIP(\"10.0.0.300\")"},
		{"PathRegexp(`[`)", "!PathRegexp: invalid regular expression"},
		{"Host('a')", "!single quote"},
		{"Host(`a`) & Path(`/`)", "!lone '&'"},
		{"Host(`a`", "!missing ) for Host"},
		{"Host(`a`))", "!unexpected \")\""},
		{"Host(`a)", "!unterminated backtick"},
		{`Host("a)`, "!unterminated double-quoted"},
		{"", "!the rule is empty"},
		{"Host(`ä`)", "!Host(\"ä\"): Traefik refuses non-ASCII"},
		{"!", "!the rule ends where a matcher is expected"},
		{strings.Repeat("!", 100) + "Host(`a`)", "!the rule nests deeper"},
	}
	for _, tt := range tests {
		t.Run(tt.rule, func(t *testing.T) {
			e, err := parseRule(tt.rule)
			if strings.HasPrefix(tt.want, "!") {
				if err == nil || !strings.HasPrefix(err.Error(), tt.want[1:]) {
					t.Fatalf("err = %v; want %q", err, tt.want[1:])
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := e.String(); got != tt.want {
				t.Fatalf("parse = %s; want %s", got, tt.want)
			}
		})
	}
}

func TestRepresent(t *testing.T) {
	r := func(typ, name, value string) store.Rule { return store.Rule{Type: typ, Name: name, Value: value} }
	tests := []struct {
		rule   string
		hosts  []string
		rules  []store.Rule
		reason string
	}{
		{rule: "Host(`A.Example.com.`)", hosts: []string{"a.example.com"}},
		{rule: "Host(`a.test`) || Host(`b.test`) || Host(`a.test`)", hosts: []string{"a.test", "b.test"}},
		{rule: "Host(`a.test`) && PathPrefix(`/api`)", hosts: []string{"a.test"}, rules: []store.Rule{r("pathPrefix", "", "/api")}},
		{rule: "(PathPrefix(`/a`) || PathPrefix(`/b`)) && (Host(`x.test`) || Host(`y.test`)) && Method(`post`)",
			hosts: []string{"x.test", "y.test"}, rules: []store.Rule{r("pathPrefix", "", "/a"), r("pathPrefix", "", "/b"), r("method", "", "POST")}},
		{rule: "Host(`a.test`) && Header(`X-Env`, `prod`) && Query(`debug`) && ClientIP(`10.0.0.0/8`) && Path(`/x`)",
			hosts: []string{"a.test"}, rules: []store.Rule{r("header", "X-Env", "prod"), r("query", "debug", ""), r("clientIP", "", "10.0.0.0/8"), r("path", "", "/x")}},
		{rule: "Host(`a.test`) && QueryRegexp(`k`)", hosts: []string{"a.test"}, rules: []store.Rule{r("query", "k", "")}},

		{rule: "PathPrefix(`/`)", reason: "the rule has no Host matcher"},
		{rule: "HostRegexp(`^.+\\.test$`)", reason: "HostRegexp uses a regular expression"},
		{rule: "Host(`a.test`) && PathRegexp(`^/v[0-9]`)", reason: "PathRegexp uses a regular expression"},
		{rule: "Host(`a.test`) && !Path(`/admin`)", reason: "the rule negates a condition"},
		{rule: "!Host(`a.test`)", reason: "the rule negates a condition"},
		{rule: "Host(`a.test`) || PathPrefix(`/x`)", reason: "Host and PathPrefix are joined with ||"},
		{rule: "(Host(`a.test`) && Path(`/a`)) || (Host(`b.test`) && Path(`/b`))", reason: "the rule nests && inside ||"},
		{rule: "Host(`a.test`) && Host(`b.test`)", reason: "two separate Host conditions"},
		{rule: "Host(`a.test`) && Method(`GET`) && Method(`HEAD`)", reason: "two separate Method conditions"},
		{rule: "Host(`*.a.test`)", reason: "is a wildcard"},
		{rule: "Host(`a_b.test`)", reason: "each label must be"},
		{rule: "Host(` a.test`)", reason: "surrounding spaces"},
		{rule: "Host(`a.test`) && Method(`PROPFIND`)", reason: "standard HTTP methods"},
		{rule: "Host(`a.test`) && Path(`/a b`)", reason: "URL path characters"},
		{rule: "Host(`a.test`) && Header(`X Y`, `v`)", reason: "valid header name"},
		{rule: "Host(`a.test`) && Header(`X`, `a\"b`)", reason: "without quotes"},
		{rule: "Host(`a.test`) && Header(`X`, ` v`)", reason: "trims surrounding spaces"},
		{rule: "Host(`a.test`) && Query(`a b`, `v`)", reason: "name without spaces"},
	}
	for _, tt := range tests {
		t.Run(tt.rule, func(t *testing.T) {
			e, err := parseRule(tt.rule)
			if err != nil {
				t.Fatal(err)
			}
			hosts, rules, err := represent(e)
			if tt.reason != "" {
				if err == nil || !strings.Contains(err.Error(), tt.reason) {
					t.Fatalf("err = %v; want one mentioning %q", err, tt.reason)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(hosts, tt.hosts) || !reflect.DeepEqual(rules, tt.rules) {
				t.Fatalf("got %v %v; want %v %v", hosts, rules, tt.hosts, tt.rules)
			}
		})
	}
}
