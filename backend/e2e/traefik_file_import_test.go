//go:build e2e

package e2e

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/gatehouse-proxy/gatehouse/e2e/harness"
)

// TestTraefikFileImportThroughTraefik imports a Traefik dynamic
// configuration file: the dry run lists the three routable routers as new
// services and every router it cannot bring over with its reason; after the
// apply, a real Traefik routes the imported hosts to their upstreams (with
// the path condition and the HTTPS redirect the file had).
func TestTraefikFileImportThroughTraefik(t *testing.T) {
	harness.ForEachTraefik(t, testTraefikFileImport)
}

func testTraefikFileImport(t *testing.T, bin harness.TraefikBinary) {
	p := harness.StartPanel(t, nil)
	one, two, three := harness.StartBackend(t, "one"), harness.StartBackend(t, "two"), harness.StartBackend(t, "three")
	tr := harness.StartTraefik(t, harness.TraefikOptions{Bin: bin.Path, ProviderURL: p.URL + "/api/proxy/config"})

	file := fmt.Sprintf(`
http:
  routers:
    app-one:
      entryPoints: [web]
      rule: Host(%[1]sone.import.test%[1]s)
      service: one
    app-two:
      entryPoints: [web]
      rule: Host(%[1]stwo.import.test%[1]s) && PathPrefix(%[1]s/api%[1]s)
      service: two
    app-three-web:
      entryPoints: [web]
      rule: Host(%[1]sthree.import.test%[1]s)
      middlewares: [to-https]
      service: noop@internal
    app-three:
      entryPoints: [websecure]
      rule: Host(%[1]sthree.import.test%[1]s)
      service: three
      tls: {}
    catch-all:
      rule: HostRegexp(%[1]s.+%[1]s)
      service: one
    from-docker:
      rule: Host(%[1]sdocker.import.test%[1]s)
      service: whoami@docker
    lan-only:
      rule: Host(%[1]slan.import.test%[1]s)
      service: one
      middlewares: [lan]
  middlewares:
    to-https:
      redirectScheme:
        scheme: https
        permanent: true
    lan:
      ipAllowList:
        sourceRange: [192.168.0.0/16]
  services:
    one:
      loadBalancer:
        servers:
          - url: http://%[2]s:%[3]d
    two:
      loadBalancer:
        servers:
          - url: http://%[2]s:%[4]d
    three:
      loadBalancer:
        servers:
          - url: http://%[2]s:%[5]d
tcp:
  routers:
    db:
      rule: HostSNI(%[1]s*%[1]s)
      service: db
  services:
    db:
      loadBalancer:
        servers:
          - address: 127.0.0.1:5432
`, "`", one.Host, one.Port, two.Port, three.Port)

	// The dry run plans three new services and lists what stays behind.
	plan := postImport(t, p, "/api/import?format=traefik", []byte(file))
	if plan.Applied || plan.Summary["create"] != 3 || plan.Digest == "" {
		t.Fatalf("dry run: applied %v, summary %+v, digest %q", plan.Applied, plan.Summary, plan.Digest)
	}
	created := map[string]bool{}
	for _, it := range plan.Items {
		if it.Kind == "service" && it.Action == "create" {
			created[it.Name] = true
		}
	}
	for _, n := range []string{"app-one", "app-two", "app-three"} {
		if !created[n] {
			t.Errorf("dry run does not create service %q: %+v", n, plan.Items)
		}
	}
	for source, reason := range map[string]string{
		"router catch-all":   "HostRegexp",
		"router from-docker": "docker provider",
		"router lan-only":    "ipAllowList",
		"tcp router db":      "names no entrypoint",
	} {
		found := false
		for _, s := range plan.Skipped {
			found = found || (strings.HasPrefix(s.Source, source) && strings.Contains(s.Reason, reason))
		}
		if !found {
			t.Errorf("skipped list has no %q mentioning %q: %+v", source, reason, plan.Skipped)
		}
	}

	// Nothing changed yet: the panel has no services.
	var list struct{ Items []struct{ Name string } }
	p.MustJSON(t, http.StatusOK, http.MethodGet, "/api/services", nil, &list)
	if len(list.Items) != 0 {
		t.Fatalf("the dry run created services: %+v", list.Items)
	}

	// Apply the reviewed plan.
	if done := postImport(t, p, "/api/import?format=traefik&apply=true&digest="+plan.Digest, []byte(file)); !done.Applied {
		t.Fatalf("apply: %+v", done)
	}

	harness.Eventually(t, 30*time.Second, func() bool {
		code, b := tr.Get(tr.WebURL, "one.import.test", "/")
		return code == http.StatusOK && containsBackend(b, "one")
	}, "one.import.test did not reach its upstream")
	if code, b := tr.Get(tr.WebURL, "two.import.test", "/api/items"); code != http.StatusOK || !containsBackend(b, "two") {
		t.Errorf("two.import.test/api/items: %d %s", code, b)
	}
	if code, _ := tr.Get(tr.WebURL, "two.import.test", "/elsewhere"); code != http.StatusNotFound {
		t.Errorf("two.import.test/elsewhere: %d, want 404 (the path condition came over)", code)
	}
	if code, hdr := head(tr.WebURL, "three.import.test", "/x"); code != http.StatusMovedPermanently || hdr.Get("Location") != "https://three.import.test/x" {
		t.Errorf("three.import.test on web: %d %q, want a permanent redirect to https", code, hdr.Get("Location"))
	}
	if code, b := tr.Get(tr.WebsecureURL, "three.import.test", "/"); code != http.StatusOK || !containsBackend(b, "three") {
		t.Errorf("three.import.test on websecure: %d %s", code, b)
	}
	for _, host := range []string{"lan.import.test", "docker.import.test"} {
		if code, _ := tr.Get(tr.WebURL, host, "/"); code != http.StatusNotFound {
			t.Errorf("%s: %d, want 404 (not imported)", host, code)
		}
	}
	for _, kind := range []string{"routers", "middlewares", "services"} {
		for _, o := range runtimeObjects(t, tr, kind) {
			if o.Provider == "http" && (o.Status != "enabled" || len(o.Error) > 0) {
				t.Errorf("%s %s: status %s, errors %v", kind, o.Name, o.Status, o.Error)
			}
		}
	}
}
