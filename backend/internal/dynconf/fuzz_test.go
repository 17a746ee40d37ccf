package dynconf

import (
	"strings"
	"testing"

	"github.com/gatehouse-proxy/gatehouse/internal/store"
)

// FuzzBuild feeds arbitrary service data to the builder, bypassing API
// validation, and checks that every emitted rule parses under the strict
// grammar (quotes balanced, nothing escapes a backtick, anchored on Host)
// and every router references an existing service and middleware.
func FuzzBuild(f *testing.F) {
	f.Add("app", "app.example.com", "10.0.0.1", 80, "pathPrefix", "", "/api", "websecure", "mw@file", "X-A", "1", true, "example.com")
	f.Add("x`y", "a`) || Host(`b", "::1", 1, "header", "X`", "v`", "web", "a`b", "", "", false, "")
	f.Add("", "", "", 0, "query", "q", "", "", "", "Bad Header", "x\ny", true, "*.wild")
	f.Add("admin", "*.x.test", "[fd00::1]", 65535, "clientIP", "", "10.0.0.0/8", "https", "gh-auth-admin", "X", "`", false, "x.test")
	f.Fuzz(func(t *testing.T, name, host, target string, port int, ruleType, ruleName, ruleValue, ep, mw, hName, hValue string, protected bool, domain string) {
		dom := &DomainSpec{ID: "d", Domain: domain, CertResolver: "le", Wildcard: protected,
			CertConfigs: []store.CertConfig{{Main: host, SANs: []string{domain}, Resolver: ruleName}}}
		sv := ServiceSpec{
			ID: name + "-id", Name: name, Hosts: strings.Split(host, ","), Domain: dom,
			Targets:     []store.Target{{Scheme: ruleName, Host: target, Port: port}},
			Entrypoints: strings.Split(ep, ","), Rules: []store.Rule{{Type: ruleType, Name: ruleName, Value: ruleValue}},
			Middlewares: []string{mw}, Headers: map[string]string{hName: hValue}, Protected: protected,
			PassHostHeader: true, InsecureSkipVerify: !protected,
		}
		plain := sv
		plain.Rules, plain.Domain, plain.Headers, plain.Middlewares = nil, nil, nil, nil
		plain.Targets = []store.Target{{Host: target, Port: port}}
		redirect, maint := sv, plain
		redirect.Kind, redirect.Redirect = store.KindRedirect, store.Redirect{URL: hValue, KeepPath: protected, Permanent: !protected}
		redirect.HTTPSRedirect, redirect.HSTS = &protected, &store.HSTS{MaxAge: int64(port)}
		maint.Maintenance = true
		maint.LoadBalancer = store.LoadBalancer{HealthCheck: &store.HealthCheck{Path: ruleValue}, Sticky: &store.Sticky{CookieName: hName}}
		snap := Snapshot{
			Services:           []ServiceSpec{sv, plain, sv, redirect, maint},
			Domains:            []DomainSpec{*dom},
			DefaultEntrypoints: []string{ep},
			GlobalMiddlewares:  []string{mw},
			EntrypointTLS:      map[string]bool{ep: !protected},
			Managed:            true, AdminDomain: domain, PanelURL: "http://panel:8080",
			HasAdmin: true, AuthBase: "http://panel:8080",
		}
		cfg := Build(snap)
		if err := CheckConfig(cfg); err != nil {
			t.Fatalf("%v\nsnapshot: %+v", err, snap)
		}
		for rn := range cfg.Section().Routers {
			if strings.Contains(rn, "@") {
				t.Fatalf("router name %q contains @", rn)
			}
		}
		if _, err := Encode(cfg); err != nil {
			t.Fatal(err)
		}
	})
}

func TestCheckRuleRejects(t *testing.T) {
	for _, r := range []string{
		"", "Host(`a`) || Path(`/x`)", "Path(`/x`)", "Host(`a`", "Host(`a)", "Host(`a`) && Evil(`x`)",
		"Host(`a`) && Header(`x`)", "Host(\"a\")", "Host(`a`)) && (Path(`/`)", "(Host(`a`) && Path(`/`)) || Host(`b`)",
		"Host(`a\nb`)",
	} {
		if err := CheckRule(r); err == nil {
			t.Errorf("CheckRule(%q) accepted", r)
		}
	}
	for _, r := range []string{
		"Host(`a`)", "(Host(`a`) || Host(`b`)) && (Method(`GET`) || Method(`POST`)) && Header(`k`, `v`)",
	} {
		if err := CheckRule(r); err != nil {
			t.Errorf("CheckRule(%q): %v", r, err)
		}
	}
}
