package runtime

import (
	"context"
	"slices"
	"testing"
)

func TestEvidenceAttributesErrors(t *testing.T) {
	raw := `{"routers":{
	  "gh-app-web@http":{"service":"gh-app","middlewares":["gone@file","gh-app-headers"],"status":"disabled","error":["middleware \"gone@file\" does not exist"],"using":["web"]},
	  "websecure-gh-app-web@http":{"service":"gh-app","status":"enabled","using":["websecure"]},
	  "gh-ok-web@http":{"service":"gh-ok","status":"enabled","using":["web"]},
	  "other@file":{"service":"x","status":"enabled"}},
	 "services":{"gh-app@http":{"status":"enabled","error":["the service \"gh-app@http\" has no servers"]},"gh-ok@http":{"status":"enabled"}},
	 "middlewares":{"gh-app-headers@http":{"status":"enabled"}}}`
	ft := newFakeTraefik(t, map[string]string{"/api/rawdata": "body:" + raw})
	e := newEnv(t)
	e.deps.Client = e.client(ft.URL, ClientOptions{})
	e.deps.Owners = fakeOwners{"gh-app-web": "app", "gh-ok-web": "ok"}
	v, err := NewService(e.deps).Evidence(context.Background())
	if err != nil || !v.Reachable {
		t.Fatalf("Evidence = %+v, %v", v, err)
	}
	app, ok := v.Services["app"], v.Services["ok"]
	wantErrs := []string{
		`router gh-app-web@http: middleware "gone@file" does not exist`,
		`service gh-app@http: the service "gh-app@http" has no servers`,
	}
	if !slices.Equal(app.Errors, wantErrs) || len(app.Routers) != 2 || app.Enabled() {
		t.Fatalf("app = %+v", app)
	}
	if len(ok.Errors) != 0 || !ok.Enabled() {
		t.Fatalf("ok = %+v", ok)
	}
	if _, found := v.Services[""]; found || len(v.Services) != 2 {
		t.Fatalf("services = %v", v.Services)
	}

	unconfigured, _ := NewService(Deps{}).Evidence(context.Background())
	if unconfigured.Configured || len(unconfigured.Services) != 0 {
		t.Fatalf("without a client: %+v", unconfigured)
	}
}
