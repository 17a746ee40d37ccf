package app

import (
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/gatehouse-proxy/gatehouse/internal/change"
	"github.com/gatehouse-proxy/gatehouse/internal/forwardauth"
	"github.com/gatehouse-proxy/gatehouse/internal/oidc/clients"
	"github.com/gatehouse-proxy/gatehouse/internal/store"
)

// oidcEvents collects the change events of OpenID Connect clients.
type oidcEvents struct {
	mu  sync.Mutex
	got []change.Event
}

func (e *oidcEvents) listen(bus *change.Bus) {
	bus.Subscribe(func(ev change.Event) {
		if ev.Entity == change.OIDCClient {
			e.mu.Lock()
			e.got = append(e.got, ev)
			e.mu.Unlock()
		}
	})
}

func (e *oidcEvents) kinds() []change.Kind {
	e.mu.Lock()
	defer e.mu.Unlock()
	out := []change.Kind{}
	for _, ev := range e.got {
		out = append(out, ev.Kind)
	}
	return out
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func (a *testApp) secretHash(t *testing.T, id string) string {
	t.Helper()
	var row store.OIDCClient
	if err := a.c.db.Where("id = ?", id).Take(&row).Error; err != nil {
		t.Fatal(err)
	}
	return row.SecretHash
}

// TestOIDCClientsAPI: an administrator makes a client from a preset for a
// service, its secret shown once and stored hashed, edits it, rotates the
// secret and deletes it; every change is audited without the secret and
// published for the provider; bad input names its field.
func TestOIDCClientsAPI(t *testing.T) {
	a := newTestApp(t, nil)
	a.signIn()
	a.setPortal(t)
	events := &oidcEvents{}
	events.listen(a.c.bus)
	d := a.mustCreate("/api/domains", `{"name":"Home","domain":"example.com","isDefault":true}`)
	svc := a.mustCreate("/api/services", svcBody(d.ID, "grafana", ""))
	grp := decode[struct{ ID string }](t, a.do("POST", "/api/groups", `{"name":"grafana-users"}`)).ID

	presets := decode[clients.PresetList](t, a.do("GET", "/api/oidc/presets", ""))
	if len(presets.Items) != 8 {
		t.Fatalf("presets = %d", len(presets.Items))
	}
	in := clients.Presets()[0].Input("Grafana", "grafana.example.com")
	in.ServiceID, in.AllowedGroupIDs = svc.ID, []string{grp}
	in.SecondFactor, in.MaxAgeSeconds = true, 43200
	rec := a.do("POST", "/api/oidc/clients", mustJSON(t, in))
	if rec.Code != http.StatusCreated || rec.Header().Get("Cache-Control") != "no-store" {
		t.Fatalf("create = %d %s", rec.Code, rec.Body)
	}
	created := decode[clients.WithSecret](t, rec)
	c := created.Client
	if len(created.Secret) != 43 || !c.SecretSet || c.Service == nil || c.Service.Name != "app" ||
		len(c.AllowedGroups) != 1 || c.AllowedGroups[0].Name != "grafana-users" || c.Preset != "grafana" ||
		!c.SecondFactor || c.MaxAgeSeconds != 43200 {
		t.Fatalf("created %+v", created)
	}
	hash := a.secretHash(t, c.ID)
	if !clients.VerifySecret(hash, created.Secret) || clients.VerifySecret(hash, created.Secret+"x") {
		t.Fatal("the stored hash does not verify the secret shown")
	}
	list := a.do("GET", "/api/oidc/clients", "")
	if list.Code != http.StatusOK || strings.Contains(list.Body.String(), created.Secret) || strings.Contains(list.Body.String(), hash) {
		t.Fatalf("list = %d %s", list.Code, list.Body)
	}
	got := decode[clients.List](t, list)
	if len(got.Items) != 1 || got.Provider.DiscoveryURL != "https://"+portalHost+"/.well-known/openid-configuration" {
		t.Fatalf("list = %+v", got)
	}

	// Bad input names its field.
	for _, tc := range []struct {
		name  string
		edit  func(*clients.Input)
		code  int
		field string
	}{
		{"http redirect", func(i *clients.Input) { i.RedirectURIs = []string{"http://grafana.example.com/cb"} }, 422, "redirectUris[0]"},
		{"fragment", func(i *clients.Input) { i.RedirectURIs = []string{"https://a.example.com/cb#x"} }, 422, "redirectUris[0]"},
		{"wildcard", func(i *clients.Input) { i.RedirectURIs = []string{"https://*.example.com/cb"} }, 422, "redirectUris[0]"},
		{"relative", func(i *clients.Input) { i.RedirectURIs = []string{"/cb"} }, 422, "redirectUris[0]"},
		{"javascript", func(i *clients.Input) { i.RedirectURIs = []string{"javascript:/alert(1)"} }, 422, "redirectUris[0]"},
		{"no openid", func(i *clients.Input) { i.Scopes = []string{"profile"} }, 422, "scopes"},
		{"grant", func(i *clients.Input) { i.GrantTypes = []string{"password"} }, 422, "grantTypes[0]"},
		{"reserved claim", func(i *clients.Input) { i.ClaimMappings[0].Claim = "sub" }, 422, "claimMappings[0].claim"},
		{"ttl", func(i *clients.Input) { i.AccessTokenTTLSeconds = 5 }, 422, "accessTokenTtlSeconds"},
		{"sign-in age", func(i *clients.Input) { i.MaxAgeSeconds = -60 }, 422, "maxAgeSeconds"},
		{"group", func(i *clients.Input) { i.AllowedGroupIDs = []string{"nope"} }, 422, "allowedGroupIds[0]"},
		{"service", func(i *clients.Input) { i.ServiceID = "nope" }, 422, "serviceId"},
		{"duplicate name", func(i *clients.Input) { i.Name = "Grafana" }, 409, "name"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			bad := clients.Presets()[0].Input("Other", "grafana.example.com")
			tc.edit(&bad)
			rec := a.do("POST", "/api/oidc/clients", mustJSON(t, bad))
			e := decodeEnvelope(t, rec)
			if rec.Code != tc.code || len(e.Error.Fields) == 0 || e.Error.Fields[0].Field != tc.field {
				t.Fatalf("= %d %s", rec.Code, rec.Body)
			}
		})
	}

	// Public: the secret goes, and a public client has none to rotate.
	in.Public = true
	rec = a.do("PUT", "/api/oidc/clients/"+c.ID, mustJSON(t, in))
	if rec.Code != http.StatusOK || decode[clients.Client](t, rec).SecretSet || a.secretHash(t, c.ID) != "" {
		t.Fatalf("make public = %d %s", rec.Code, rec.Body)
	}
	if rec := a.do("POST", "/api/oidc/clients/"+c.ID+"/secret", ""); rec.Code != http.StatusConflict {
		t.Fatalf("rotate a public client = %d %s", rec.Code, rec.Body)
	}
	in.Public = false
	if rec := a.do("PUT", "/api/oidc/clients/"+c.ID, mustJSON(t, in)); rec.Code != http.StatusOK {
		t.Fatalf("make confidential = %d %s", rec.Code, rec.Body)
	}
	rec = a.do("POST", "/api/oidc/clients/"+c.ID+"/secret", "")
	rotated := decode[clients.WithSecret](t, rec)
	if rec.Code != http.StatusOK || rotated.Secret == "" || rotated.Secret == created.Secret ||
		!clients.VerifySecret(a.secretHash(t, c.ID), rotated.Secret) || clients.VerifySecret(a.secretHash(t, c.ID), created.Secret) {
		t.Fatalf("rotate = %d %s", rec.Code, rec.Body)
	}

	log := a.do("GET", "/api/audit?limit=200", "").Body.String()
	for _, want := range []string{`"oidc.clients"`, `"rotate-secret"`} {
		if !strings.Contains(log, want) {
			t.Fatalf("audit log lacks %s: %s", want, log)
		}
	}
	if strings.Contains(log, created.Secret) || strings.Contains(log, rotated.Secret) {
		t.Fatal("the audit log holds a client secret")
	}
	if rec := a.do("DELETE", "/api/oidc/clients/"+c.ID, ""); rec.Code != http.StatusNoContent {
		t.Fatalf("delete = %d %s", rec.Code, rec.Body)
	}
	if rec := a.do("GET", "/api/oidc/clients/"+c.ID, ""); rec.Code != http.StatusNotFound {
		t.Fatalf("get deleted = %d", rec.Code)
	}
	if rec := a.do("DELETE", "/api/oidc/clients/"+strings.Repeat("x", 100), ""); rec.Code != http.StatusNotFound {
		t.Fatalf("oversized id = %d", rec.Code)
	}
	want := []change.Kind{change.Created, change.Updated, change.Updated, change.Updated, change.Deleted}
	if got := events.kinds(); !slices.Equal(got, want) {
		t.Fatalf("events = %v, want %v", got, want)
	}
}

// TestOIDCClientsRoles: viewers and tokens read clients (no secrets in
// them); no token, even an admin's, and no viewer writes one.
func TestOIDCClientsRoles(t *testing.T) {
	a := newTestApp(t, nil)
	a.signIn()
	rec := a.do("POST", "/api/oidc/clients", `{"name":"CLI","public":true,"grantTypes":["urn:ietf:params:oauth:grant-type:device_code"]}`)
	if rec.Code != http.StatusCreated || decode[clients.WithSecret](t, rec).Secret != "" {
		t.Fatalf("create a public device client = %d %s", rec.Code, rec.Body)
	}
	id := decode[clients.WithSecret](t, rec).Client.ID
	a.createUser(t, "vera", "viewer")
	viewer := &caller{name: "viewer", value: a.login(t, "vera", "correct-horse-battery", owner)}
	adminToken := &caller{name: "admin token", token: true, value: a.createToken(t, "ci", "admin")}
	for _, c := range []*caller{viewer, adminToken} {
		for _, path := range []string{"/api/oidc/clients", "/api/oidc/clients/" + id, "/api/oidc/presets"} {
			if rec := a.as(c, "GET", path, ""); rec.Code != http.StatusOK {
				t.Fatalf("%s GET %s = %d", c.name, path, rec.Code)
			}
		}
		for _, w := range [][2]string{{"POST", "/api/oidc/clients"}, {"PUT", "/api/oidc/clients/" + id},
			{"DELETE", "/api/oidc/clients/" + id}, {"POST", "/api/oidc/clients/" + id + "/secret"}} {
			if rec := a.as(c, w[0], w[1], `{"name":"x"}`); rec.Code != http.StatusForbidden {
				t.Fatalf("%s %s %s = %d %s", c.name, w[0], w[1], rec.Code, rec.Body)
			}
		}
	}
}

// TestLauncherShowsLinkedClientOnce: a service both behind the people
// protection and linked to a client is one launcher entry; a service
// without the protection shows through its linked client to the people
// the client admits; an unlinked client adds nothing.
func TestLauncherShowsLinkedClientOnce(t *testing.T) {
	a := newTestApp(t, nil)
	a.signIn()
	a.setPortal(t)
	protected := a.peopleService(t) // app.example.com
	d := decode[struct{ Items []struct{ ID string } }](t, a.do("GET", "/api/domains", "")).Items[0].ID
	grafana := a.mustCreate("/api/services", strings.Replace(svcBody(d, "grafana", ""), `"name":"app"`, `"name":"grafana"`, 1))
	a.mustCreate("/api/services", strings.Replace(svcBody(d, "other", ""), `"name":"app"`, `"name":"other"`, 1))
	ann := a.createUser(t, "ann", "none")
	a.createUser(t, "bob", "none")
	grp := decode[struct{ ID string }](t, a.do("POST", "/api/groups", `{"name":"grafana-users"}`)).ID
	if rec := a.do("POST", "/api/groups/"+grp+"/members", `{"personId":"`+ann+`"}`); rec.Code != http.StatusOK {
		t.Fatalf("add member = %d %s", rec.Code, rec.Body)
	}
	for i, body := range []string{
		fmt.Sprintf(`{"name":"App","redirectUris":["https://app.example.com/cb"],"serviceId":%q}`, protected),
		fmt.Sprintf(`{"name":"Grafana","redirectUris":["https://grafana.example.com/cb"],"serviceId":%q,"allowedGroupIds":[%q]}`, grafana.ID, grp),
		`{"name":"Unlinked","redirectUris":["https://unlinked.example.com/cb"]}`,
	} {
		if rec := a.do("POST", "/api/oidc/clients", body); rec.Code != http.StatusCreated {
			t.Fatalf("client %d = %d %s", i, rec.Code, rec.Body)
		}
	}
	launcher := func(user string) []string {
		rec := a.portalDo("GET", "/api/portal/services", "", a.portalSignIn(t, user))
		if rec.Code != http.StatusOK {
			t.Fatalf("launcher of %s = %d %s", user, rec.Code, rec.Body)
		}
		var urls []string
		for _, s := range decode[forwardauth.LauncherResponse](t, rec).Services {
			urls = append(urls, s.URL)
		}
		slices.Sort(urls)
		return urls
	}
	if got := launcher("ann"); !slices.Equal(got, []string{"https://app.example.com/", "https://grafana.example.com/"}) {
		t.Fatalf("ann's launcher = %v", got)
	}
	if got := launcher("bob"); !slices.Equal(got, []string{"https://app.example.com/"}) {
		t.Fatalf("bob's launcher = %v", got)
	}
}
