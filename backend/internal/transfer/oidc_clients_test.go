package transfer

import (
	"context"
	"strings"
	"testing"

	"github.com/gatehouse-proxy/gatehouse/internal/actor"
	"github.com/gatehouse-proxy/gatehouse/internal/apperr"
	"github.com/gatehouse-proxy/gatehouse/internal/bearer"
	"github.com/gatehouse-proxy/gatehouse/internal/oidc/clients"
	"github.com/gatehouse-proxy/gatehouse/internal/store"
	"github.com/gatehouse-proxy/gatehouse/internal/transfer/document"
)

// seedClient stores a confidential client linked to the seeded service,
// admitting the group "family", and returns its secret.
func (f *fixture) seedClient() string {
	f.t.Helper()
	grp := store.Group{ID: "grp-family", Name: "family", CreatedAt: testNow, UpdatedAt: testNow}
	f.must(f.db.Create(&grp).Error)
	var svc store.Service
	f.must(f.db.Where("name = ?", "app").Take(&svc).Error)
	in := clients.Presets()[0].Input("Grafana", "app.example.com")
	in.AllowedGroupIDs, in.ServiceID = []string{grp.ID}, svc.ID
	in.SecondFactor, in.MaxAgeSeconds = true, 3600
	f.must(clients.Check(&in))
	secret := "grafana-secret-value"
	row := clients.ImportRow(in, store.OIDCClient{ID: "client-grafana", CreatedAt: testNow}, bearer.Hash(secret), testNow)
	_, err := clients.ImportTx(f.db, row, true)
	f.must(err)
	return secret
}

func (f *fixture) client(name string) (store.OIDCClient, bool) {
	var row store.OIDCClient
	err := f.db.Where("name = ?", name).Take(&row).Error
	return row, err == nil
}

// An export lists the clients by names (groups, service) without their
// secrets; with sealed secrets the hash travels, and an import into an
// empty panel keeps the client_id and the secret, so the app still signs
// people in; without them the client comes over without a secret.
func TestOIDCClientsRoundTrip(t *testing.T) {
	src := newFixture(t)
	src.seed()
	secret := src.seedClient()
	plain := src.export(ExportOptions{Admins: true})
	doc, err := document.Parse(plain)
	src.must(err)
	if strings.Contains(string(plain), bearer.Hash(secret)) || len(doc.OIDCClients) != 1 ||
		strings.Join(doc.OIDCClients[0].AllowedGroups, ",") != "family" || doc.OIDCClients[0].Service != "app" {
		t.Fatalf("export: %s", plain)
	}
	sealed := src.export(ExportOptions{Admins: true, Secrets: true, Passphrase: "twelve chars!"})
	if strings.Contains(string(sealed), bearer.Hash(secret)) {
		t.Fatal("a client's hash is outside the sealed secrets")
	}

	dst := newFixture(t)
	pl := dst.plan(sealed, ImportOptions{Apply: true, Passphrase: "twelve chars!"})
	if it := find(pl, KindOIDCClient, "Grafana"); it.Action != ActionCreate {
		t.Fatalf("plan: %+v", pl.Items)
	}
	got, ok := dst.client("Grafana")
	if !ok || got.ID != "client-grafana" || !clients.VerifySecret(got.SecretHash, secret) || len(got.AllowedGroups.V) != 1 || got.ServiceID == nil ||
		!got.SecondFactor || got.MaxAgeSeconds != 3600 {
		t.Fatalf("imported %+v", got)
	}
	if again := dst.plan(sealed, ImportOptions{Passphrase: "twelve chars!"}); find(again, KindOIDCClient, "Grafana").Action != ActionUnchanged {
		t.Fatalf("a second import changes %+v", find(again, KindOIDCClient, "Grafana"))
	}

	bare := newFixture(t)
	bare.plan(plain, ImportOptions{Apply: true})
	if got, ok := bare.client("Grafana"); !ok || got.SecretHash != "" {
		t.Fatalf("without secrets: %+v", got)
	}
}

// Bad clients in a file are refused by name, naming the field.
func TestOIDCClientsImportRefusesBadClients(t *testing.T) {
	src := newFixture(t)
	src.seed()
	src.seedClient()
	data := edit(t, src.export(ExportOptions{Admins: true}), func(d *document.Document) {
		c := d.OIDCClients[0]
		c.Name, c.ID, c.RedirectURIs = "Fragment", "", []string{"https://a.example.com/cb#x"}
		d.OIDCClients = append(d.OIDCClients, c)
		c.Name, c.RedirectURIs, c.AllowedGroups = "Ghost group", []string{"https://a.example.com/cb"}, []string{"nobody"}
		d.OIDCClients = append(d.OIDCClients, c)
	})
	pl := newFixture(t).plan(data, ImportOptions{})
	for name, field := range map[string]string{"Fragment": "redirectUris[0]", "Ghost group": "allowedGroups[0]"} {
		if it := find(pl, KindOIDCClient, name); it.Action != ActionRefused || !strings.Contains(it.Reason, field) {
			t.Fatalf("%s: %+v", name, it)
		}
	}
}

// Clients decide who signs in to which app: an API token's import that
// would create or change one is refused, dry run too; an unchanged one
// passes.
func TestTokenImportCannotChangeOIDCClients(t *testing.T) {
	token := actor.With(context.Background(), actor.Actor{Kind: actor.KindToken, ID: "t1", Name: "ci", Role: actor.RoleAdmin})
	src := newFixture(t)
	src.seed()
	src.seedClient()
	data := src.export(ExportOptions{})
	if _, err := src.svc.Import(token, data, ImportOptions{Apply: true}); err != nil {
		t.Fatalf("unchanged clients: %v", err)
	}
	changed := edit(t, data, func(d *document.Document) {
		d.OIDCClients[0].RedirectURIs = []string{"https://evil.example.com/cb"}
		d.OIDCClients[0].AllowedGroups = []string{}
	})
	for _, apply := range []bool{false, true} {
		_, err := src.svc.Import(token, changed, ImportOptions{Apply: apply})
		e, ok := apperr.As(err)
		if !ok || e.Code != apperr.CodeForbidden || len(e.Fields) != 1 || e.Fields[0].Field != "oidcClients" {
			t.Fatalf("apply=%v: %v", apply, err)
		}
	}
	if got, _ := src.client("Grafana"); got.RedirectURIs.V[0] != "https://app.example.com/login/generic_oauth" {
		t.Fatalf("the token's import changed the client: %v", got.RedirectURIs.V)
	}
	// A signed-in administrator may.
	if pl := src.plan(changed, ImportOptions{Apply: true}); find(pl, KindOIDCClient, "Grafana").Action != ActionUpdate {
		t.Fatalf("admin import: %+v", find(pl, KindOIDCClient, "Grafana"))
	}
}
