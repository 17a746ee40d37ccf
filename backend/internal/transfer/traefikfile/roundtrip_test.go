package traefikfile

import (
	"math/rand/v2"
	"net/http"
	"net/netip"
	"net/url"
	"os"
	"strings"
	"testing"

	"github.com/gatehouse-proxy/gatehouse/internal/dynconf"
	"github.com/gatehouse-proxy/gatehouse/internal/store"
	"github.com/gatehouse-proxy/gatehouse/internal/transfer/document"
)

// TestRoundTrip renders every imported service of the test files through
// Gatehouse's own dynamic-configuration builder and checks that the rule it
// emits matches exactly the requests the file's rule matched, asking both
// the same questions (hosts, paths, methods, headers, query parameters and
// client addresses drawn from the rules' own values and near misses).
func TestRoundTrip(t *testing.T) {
	for _, in := range inputs(t) {
		data, err := os.ReadFile(in) //nolint:gosec // the test's own files
		if err != nil {
			t.Fatal(err)
		}
		doc, _, err := New().Read(data)
		if err != nil {
			t.Fatal(err)
		}
		root, err := decodeTree(data, looksTOML(data))
		if err != nil {
			t.Fatal(err)
		}
		f := &file{}
		if _, err := f.sections(root); err != nil {
			t.Fatal(err)
		}
		for _, sv := range doc.Services {
			if sv.Kind == store.KindTCP || sv.Kind == store.KindUDP {
				continue // TestStreamRoundTrip
			}
			t.Run(in+"/"+sv.Name, func(t *testing.T) {
				rm, _ := f.routers[sv.Name].(obj)
				rv, _, _ := field(rm, "rule")
				orig, err := parseRule(rv.(string))
				if err != nil {
					t.Fatal(err)
				}
				built := builtRule(t, sv)
				n := 0
				for _, r := range requestsFor(orig, built) {
					if orig.match(r) != built.match(r) {
						t.Fatalf("%+v: file rule %v, Gatehouse rule %v\nfile:      %s\ngatehouse: %s",
							r, orig.match(r), built.match(r), orig, built)
					}
					if orig.match(r) {
						n++
					}
				}
				if n == 0 {
					t.Fatalf("no request matched %s: the table asks nothing useful", orig)
				}
			})
		}
	}
}

// builtRule renders one document service with dynconf.Build and parses the
// rule of its routers (every router of a service carries the same rule).
func builtRule(t *testing.T, sv document.Service) *expr {
	t.Helper()
	spec := dynconf.ServiceSpec{
		ID: "s1", Name: sv.Name, Targets: sv.Targets, PassHostHeader: sv.PassHostHeader,
		InsecureSkipVerify: sv.InsecureSkipVerify, Entrypoints: sv.Entrypoints, Rules: sv.Rules,
		Middlewares: sv.Middlewares, Headers: sv.Headers, Protected: len(sv.Protections) > 0,
		HTTPSRedirect: sv.HTTPSRedirect, HSTS: sv.HSTS, Kind: sv.Kind, LoadBalancer: sv.LoadBalancer,
	}
	for _, h := range sv.Hostnames {
		spec.Hosts = append(spec.Hosts, h.Value)
	}
	if sv.Redirect != nil {
		spec.Redirect = *sv.Redirect
	}
	cfg, problems := dynconf.BuildWithProblems(dynconf.Snapshot{
		Services: []dynconf.ServiceSpec{spec}, DefaultEntrypoints: []string{"web", "websecure"}, AuthBase: "http://gatehouse:8080",
	})
	if len(problems) > 0 {
		t.Fatalf("dynconf left the service out: %+v", problems)
	}
	rule := ""
	for _, r := range cfg.Section().Routers {
		if rule != "" && r.Rule != rule {
			t.Fatalf("routers of one service differ: %q and %q", rule, r.Rule)
		}
		rule = r.Rule
	}
	e, err := parseRule(rule)
	if err != nil {
		t.Fatalf("Gatehouse's rule %q does not parse: %v", rule, err)
	}
	return e
}

// requestsFor draws requests from the values both rules mention, their near
// misses, and unrelated ones.
func requestsFor(rules ...*expr) []request {
	hosts := []string{"other.test", ""}
	paths := []string{"/", "/zzz"}
	methods := []string{"GET", "POST", "DELETE"}
	headers := map[string][]string{"X-Unrelated": {"1"}}
	query := map[string][]string{"unrelated": {"1"}}
	ips := []string{"203.0.113.9", "2001:db8::1"}
	var walk func(e *expr)
	walk = func(e *expr) {
		if e.op != opMatch {
			walk(e.l)
			if e.r != nil {
				walk(e.r)
			}
			return
		}
		a := e.args
		switch e.name {
		case "Host":
			hosts = append(hosts, a[0], strings.ToUpper(a[0]), a[0]+".", "x"+a[0], "x."+a[0])
		case "Path", "PathPrefix":
			paths = append(paths, a[0], a[0]+"/", a[0]+"x", a[0][:len(a[0])-1], strings.ToUpper(a[0]))
		case "Method":
			methods = append(methods, strings.ToUpper(a[0]), strings.ToLower(a[0]))
		case "Header":
			headers[a[0]] = append(headers[a[0]], a[1], a[1]+"x", "")
		case "Query":
			v := ""
			if len(a) == 2 {
				v = a[1]
			}
			query[a[0]] = append(query[a[0]], v, v+"x", "")
		case "ClientIP":
			p, _ := parseIPOrCIDR(a[0])
			ips = append(ips, p.Addr().String(), p.Addr().Next().String(), p.Addr().Prev().String())
		}
	}
	for _, e := range rules {
		walk(e)
	}
	rng := rand.New(rand.NewPCG(1, 2)) //nolint:gosec // a fixed seed: the same requests on every run
	pick := func(l []string) string { return l[rng.IntN(len(l))] }
	out := make([]request, 0, 2000)
	for range 2000 {
		r := request{Host: pick(hosts), Path: pick(paths), Method: pick(methods), Header: http.Header{}, Query: url.Values{}}
		for k, vs := range headers {
			if rng.IntN(3) > 0 {
				r.Header[http.CanonicalHeaderKey(k)] = []string{pick(vs)}
			}
		}
		for k, vs := range query {
			if rng.IntN(3) > 0 {
				r.Query[k] = []string{pick(vs)}
			}
		}
		r.ClientIP, _ = netip.ParseAddr(pick(ips))
		out = append(out, r)
	}
	return out
}
