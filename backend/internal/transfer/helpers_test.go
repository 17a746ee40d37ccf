package transfer

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"golang.org/x/crypto/bcrypt"
	"gorm.io/gorm"

	"github.com/gatehouse-proxy/gatehouse/internal/actor"
	"github.com/gatehouse-proxy/gatehouse/internal/change"
	"github.com/gatehouse-proxy/gatehouse/internal/domains"
	"github.com/gatehouse-proxy/gatehouse/internal/notify"
	"github.com/gatehouse-proxy/gatehouse/internal/sealbox"
	"github.com/gatehouse-proxy/gatehouse/internal/services"
	"github.com/gatehouse-proxy/gatehouse/internal/store"
	"github.com/gatehouse-proxy/gatehouse/internal/testutil"
	"github.com/gatehouse-proxy/gatehouse/internal/transfer/document"
)

var testNow = time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)

// testCtx acts as the panel itself, as the command line does: it may
// import everything, administrators included.
var testCtx = actor.With(context.Background(), actor.System("test"))

// seedHash is one bcrypt hash shared by every fixture, so two seeded
// panels hold the same data.
var seedHash, _ = bcrypt.GenerateFromPassword([]byte("secret-password"), bcrypt.MinCost)

type fixture struct {
	t   testing.TB
	db  *gorm.DB
	bus *change.Bus
	svc *Service
	box *sealbox.Box
}

func newFixture(t testing.TB, readers ...document.Reader) *fixture {
	t.Helper()
	db := testutil.NewDB(t)
	box, err := sealbox.Ephemeral()
	if err != nil {
		t.Fatal(err)
	}
	bus := change.NewBus()
	return &fixture{t: t, db: db, bus: bus, box: box, svc: NewService(Deps{DB: db, Bus: bus, Box: box,
		Now: func() time.Time { return testNow }, Readers: readers, ScryptWorkFactor: 10})}
}

// seed stores a small but complete configuration through the panel's own services.
func (f *fixture) seed() {
	f.t.Helper()
	ctx := testCtx
	now := func() time.Time { return testNow }
	d, err := domains.NewService(domains.Deps{DB: f.db, Now: now}).Create(ctx, domains.Request{Domain: "example.com", CertResolver: "le", IsDefault: true})
	if err != nil {
		f.t.Fatal(err)
	}
	svcs := services.NewService(services.Deps{DB: f.db, Now: now})
	app, err := svcs.Create(ctx, services.Request{Name: "app", DomainID: &d.ID,
		Hostnames: []store.Hostname{{Type: store.HostSubdomain, Value: "app"}},
		Targets:   []store.Target{{Scheme: "http", Host: "10.0.0.1", Port: 8080}}, Headers: map[string]string{"X-A": "1"}})
	if err != nil {
		f.t.Fatal(err)
	}
	if _, err := svcs.Create(ctx, services.Request{Name: "blog", Hostnames: []store.Hostname{{Type: store.HostCustom, Value: "blog.example.net"}},
		Targets: []store.Target{{Scheme: "http", Host: "blog", Port: 80}}}); err != nil {
		f.t.Fatal(err)
	}
	hash := seedHash
	set := store.CredentialSet{ID: "set-1", Name: "family", CreatedAt: testNow, UpdatedAt: testNow,
		Users: []store.CredentialUser{{ID: "u1", Username: "ann", PasswordHash: string(hash), CreatedAt: testNow}}}
	f.must(f.db.Create(&set).Error)
	f.must(f.db.Create(&store.SecurityConfig{ID: "sc1", ServiceID: app.ID, Type: store.SecurityBasicAuth, Enabled: true,
		CredentialSetID: &set.ID, Settings: store.NewJSON(map[string]any{}), CreatedAt: testNow, UpdatedAt: testNow}).Error)
	f.must(f.db.Create(&store.MachineToken{ID: "tok-1", Name: "ci", TokenHash: "hash-of-ci", Prefix: "ghm_abcdef",
		ScopeMethods: store.NewJSON([]string{"GET"}), CreatedAt: testNow}).Error)
	f.must(f.db.Create(&store.MachineTokenService{TokenID: "tok-1", ServiceID: app.ID}).Error)
	f.must(store.PutConfig(ctx, f.db, store.KeyGlobalConfig, map[string]any{"adminDomain": "panel.example.com",
		"defaultEntrypoints": []string{"websecure"}, "globalMiddlewares": []string{}, "defaultLifetimeSeconds": 0}))
	secret, err := f.box.Seal("client-secret")
	f.must(err)
	f.must(store.PutConfig(ctx, f.db, store.KeySSO, map[string]any{"enabled": false, "issuer": "https://id.example.com",
		"clientId": "gatehouse", "clientSecret": secret, "scopes": []string{"openid"}, "groupsClaim": "groups", "sessionSeconds": 3600}))
	chSecret, err := f.box.Seal(`{"token":"channel-token"}`)
	f.must(err)
	f.must(f.db.Create(&notify.StoredChannel{ID: "ch-1", Name: "phone", Kind: "ntfy", Settings: `{"server":"https://ntfy.sh","topic":"gh"}`,
		Secrets: chSecret, Events: `["backend_down"]`, Enabled: true, CreatedAt: testNow, UpdatedAt: testNow}).Error)
	f.must(f.db.Create(&store.Person{ID: "adm-1", Username: "admin", PasswordHash: string(hash), PanelRole: "admin",
		CreatedAt: testNow, UpdatedAt: testNow}).Error)
}

func (f *fixture) must(err error) {
	f.t.Helper()
	if err != nil {
		f.t.Fatal(err)
	}
}

// export returns the panel's export as bytes.
func (f *fixture) export(o ExportOptions) []byte {
	f.t.Helper()
	doc, err := f.svc.Export(testCtx, o)
	f.must(err)
	b, err := Encode(doc)
	f.must(err)
	return b
}

// snapshot is the export without its time: equal snapshots, equal data.
func (f *fixture) snapshot() string {
	f.t.Helper()
	var m map[string]any
	f.must(json.Unmarshal(f.export(ExportOptions{Admins: true}), &m))
	delete(m, "exportedAt")
	b, _ := json.Marshal(m)
	return string(b)
}

func (f *fixture) plan(data []byte, o ImportOptions) *Plan {
	f.t.Helper()
	pl, err := f.svc.Import(testCtx, data, o)
	if err != nil {
		f.t.Fatalf("import: %v", err)
	}
	return pl
}

// edit decodes an export, lets change alter it and encodes it again.
func edit(t testing.TB, data []byte, change func(d *document.Document)) []byte {
	t.Helper()
	d, err := document.Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	change(&d)
	b, err := Encode(d)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func find(pl *Plan, kind, name string) Item {
	for _, it := range pl.Items {
		if it.Kind == kind && it.Name == name {
			return it
		}
	}
	return Item{}
}

// testReader reads "TEST host:port" lines, one service each.
type testReader struct{}

func (testReader) Name() string { return "test" }
func (testReader) Detect(data []byte) bool {
	return strings.HasPrefix(string(data), "TEST ")
}
func (testReader) Read(data []byte) (document.Document, []document.Skipped, error) {
	var d document.Document
	var skipped []document.Skipped
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		host, ok := strings.CutPrefix(line, "TEST ")
		if !ok {
			skipped = append(skipped, document.Skipped{Source: line, Reason: "not a TEST line"})
			continue
		}
		d.Services = append(d.Services, document.Service{Name: host, Kind: store.KindProxy, Enabled: true,
			Hostnames: []store.Hostname{{Type: store.HostCustom, Value: host}},
			Targets:   []store.Target{{Scheme: "http", Host: "upstream", Port: 80}}})
	}
	return d, skipped, nil
}
