package forwardauth

import (
	"context"
	"encoding/json"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/labstack/echo/v4"
	"golang.org/x/crypto/bcrypt"
	"gorm.io/gorm"

	"github.com/gatehouse-proxy/gatehouse/internal/change"
	"github.com/gatehouse-proxy/gatehouse/internal/dynconf"
	"github.com/gatehouse-proxy/gatehouse/internal/httpapi"
	"github.com/gatehouse-proxy/gatehouse/internal/services"
	"github.com/gatehouse-proxy/gatehouse/internal/settings"
	"github.com/gatehouse-proxy/gatehouse/internal/store"
	"github.com/gatehouse-proxy/gatehouse/internal/testutil"
)

// env is a database, the access service, the services service and the real
// Echo stack (admin guard open: admin auth is tested elsewhere).
type env struct {
	t        testing.TB
	database string // what store.Open took: a SQLite path or a PostgreSQL URL
	db       *gorm.DB
	bus      *change.Bus
	clock    *testutil.Clock
	acc      *Service
	svcs     *services.Service
	e        *echo.Echo
	h        http.Handler // the production front: FastVerify over e
	queries  atomic.Int64
	panelURL string
	// tls is what Traefik would say about its entrypoints; nil: nothing.
	tls map[string]bool
}

// TLSEntrypoints makes env the test's entrypoint-TLS source.
func (v *env) TLSEntrypoints(context.Context) (map[string]bool, bool) { return v.tls, v.tls != nil }

const testPanel = "https://panel.example.com"

func newEnv(t testing.TB, opts ...func(*Deps)) *env {
	t.Helper()
	return newEnvOn(t, testutil.NewDatabase(t), opts...)
}

// replica is another panel on v's database, as a second replica is: its
// own connections, bus, caches and clock, and the same age identity.
func (v *env) replica(opts ...func(*Deps)) *env {
	v.t.Helper()
	same := func(o *Deps) { o.Secrets = v.acc.secrets }
	return newEnvOn(v.t, v.database, append([]func(*Deps){same}, opts...)...)
}

func newEnvOn(t testing.TB, database string, opts ...func(*Deps)) *env {
	t.Helper()
	db := testutil.OpenDB(t, database)
	bus := change.NewBus()
	ck := testutil.NewClock(time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC))
	v := &env{t: t, database: database, db: db, bus: bus, clock: ck, panelURL: testPanel}
	v.svcs = services.NewService(services.Deps{DB: db, Bus: bus, Now: ck.Now, Protections: ServiceProtections, EndSessions: EndServiceSessions})
	conf := dynconf.NewService(dynconf.Deps{DB: db, Bus: bus, Services: v.svcs, Settings: settings.NewService(settings.Deps{DB: db, Bus: bus}),
		Now: ck.Now, TLSSources: []dynconf.EntrypointTLS{v}})
	o := Deps{DB: db, Bus: bus, Now: ck.Now, BcryptCost: bcrypt.MinCost, Schemes: conf,
		PanelURL: func(context.Context) (string, error) { return v.panelURL, nil }}
	for _, f := range opts {
		f(&o)
	}
	v.acc = NewService(o)
	count := func(*gorm.DB) { v.queries.Add(1) }
	cb := db.Callback()
	_ = cb.Query().Before("gorm:query").Register("test:count", count)
	_ = cb.Create().Before("gorm:create").Register("test:count", count)
	_ = cb.Update().Before("gorm:update").Register("test:count", count)
	_ = cb.Delete().Before("gorm:delete").Register("test:count", count)
	_ = cb.Row().Before("gorm:row").Register("test:count", count)
	_ = cb.Raw().Before("gorm:raw").Register("test:count", count)
	v.e = httpapi.New(httpapi.Deps{
		Logger:        slog.New(slog.DiscardHandler),
		Ping:          func(context.Context) error { return nil },
		SetupRequired: func(context.Context) (bool, error) { return false, nil },
		RequireAdmin:  testutil.AsAdmin,
		Features:      []httpapi.Feature{NewHandler(v.acc)},
	}).Echo
	v.h = v.acc.FastVerify(v.e)
	return v
}

// service creates an enabled service on host.
func (v *env) service(host string) string {
	v.t.Helper()
	r, err := v.svcs.Create(context.Background(), services.Request{
		Name: "App " + host, Hostnames: []store.Hostname{{Type: store.HostCustom, Value: host}},
		Targets: []store.Target{{Scheme: "http", Host: "10.0.0.1", Port: 80}}, Entrypoints: []string{"websecure"},
	})
	if err != nil {
		v.t.Fatalf("create service: %v", err)
	}
	return r.ID
}

// do sends an admin/API request and decodes the answer into out.
func (v *env) do(method, path string, body, out any) *httptest.ResponseRecorder {
	v.t.Helper()
	var b []byte
	if body != nil {
		b, _ = json.Marshal(body)
	}
	rec := testutil.Request(v.e, method, path, string(b))
	if out != nil && rec.Code < 300 {
		if err := json.Unmarshal(rec.Body.Bytes(), out); err != nil {
			v.t.Fatalf("%s %s: decode %q: %v", method, path, rec.Body.String(), err)
		}
	}
	return rec
}

func (v *env) must(want int, method, path string, body, out any) {
	v.t.Helper()
	if rec := v.do(method, path, body, out); rec.Code != want {
		v.t.Fatalf("%s %s = %d, want %d: %s", method, path, rec.Code, want, rec.Body.String())
	}
}

// fwd is a forward-auth request as Traefik sends it.
type fwd struct {
	service, method, proto, host, uri string
	browser                           bool
	cookie, auth, ip                  string
	hdr                               map[string]string
}

func (v *env) verify(f fwd) *httptest.ResponseRecorder {
	v.t.Helper()
	req := httptest.NewRequest(http.MethodGet, "/api/auth/verify?service="+url.QueryEscape(f.service), nil)
	set := func(k, val string) {
		if val != "" {
			req.Header.Set(k, val)
		}
	}
	if f.method == "" {
		f.method = http.MethodGet
	}
	if f.proto == "" {
		f.proto = "https"
	}
	if f.uri == "" {
		f.uri = "/"
	}
	set("X-Forwarded-Method", f.method)
	set("X-Forwarded-Proto", f.proto)
	set("X-Forwarded-Host", f.host)
	set("X-Forwarded-Uri", f.uri)
	set("X-Forwarded-For", f.ip)
	if f.browser {
		req.Header.Set("Accept", "text/html,application/xhtml+xml,*/*;q=0.8")
	} else {
		req.Header.Set("Accept", "application/json")
	}
	if f.cookie != "" {
		req.Header.Set("Cookie", "other=1; "+SessionCookie+"="+f.cookie)
	}
	set("Authorization", f.auth)
	for k, val := range f.hdr {
		req.Header.Set(k, val)
	}
	return testutil.Serve(v.h, req)
}

// sessionCookie returns the gatehouse_session cookie a response sets.
func sessionCookie(t testing.TB, rec *httptest.ResponseRecorder) *http.Cookie {
	t.Helper()
	for _, c := range rec.Result().Cookies() {
		if c.Name == SessionCookie && c.Value != "" {
			return c
		}
	}
	return nil
}

func protect(t testing.TB, v *env, serviceID string, body map[string]any) {
	t.Helper()
	v.must(http.StatusCreated, http.MethodPost, "/api/services/"+serviceID+"/security-configs", body, nil)
}

func contains(s, sub string) bool { return strings.Contains(s, sub) }

// toRequest turns a service back into an update request.
func toRequest(r services.Response) services.Request {
	return services.Request{
		Name: r.Name, DomainID: r.DomainID, Hostnames: r.Hostnames, Targets: r.Targets,
		PassHostHeader: &r.PassHostHeader, Entrypoints: r.Entrypoints, Rules: r.Rules,
		Middlewares: r.Middlewares, Headers: r.Headers, Enabled: &r.Enabled, Expiry: &r.Expiry,
	}
}

func servicesRequest(host string, eps []string) services.Request {
	return services.Request{
		Name: host, Hostnames: []store.Hostname{{Type: store.HostCustom, Value: host}},
		Targets: []store.Target{{Scheme: "http", Host: "10.0.0.1", Port: 80}}, Entrypoints: eps,
	}
}
