package dynconf

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/labstack/echo/v4"
	"gorm.io/gorm"

	"github.com/gatehouse-proxy/gatehouse/internal/apperr"
	"github.com/gatehouse-proxy/gatehouse/internal/change"
	"github.com/gatehouse-proxy/gatehouse/internal/domains"
	"github.com/gatehouse-proxy/gatehouse/internal/httpapi"
	"github.com/gatehouse-proxy/gatehouse/internal/httpx"
	"github.com/gatehouse-proxy/gatehouse/internal/paneladdr"
	"github.com/gatehouse-proxy/gatehouse/internal/services"
	"github.com/gatehouse-proxy/gatehouse/internal/settings"
	"github.com/gatehouse-proxy/gatehouse/internal/store"
	"github.com/gatehouse-proxy/gatehouse/internal/testutil"
)

type env struct {
	db       *gorm.DB
	clock    *testutil.Clock
	svc      *Service
	services *services.Service
	domains  *domains.Service
	settings *settings.Service
	e        *echo.Echo
}

// newEnv wires the real services on a real SQLite database and mounts the
// handler on the real Echo stack (error envelope, the routes' declared access, a guard
// that lets every request through as an administrator).
func newEnv(t *testing.T, d Deps) *env {
	t.Helper()
	db := testutil.NewDB(t)
	bus := change.NewBus()
	clk := testutil.NewClock(time.Date(2030, 1, 2, 3, 4, 5, 0, time.UTC))
	setSvc := settings.NewService(settings.Deps{DB: db, Bus: bus})
	svcs := services.NewService(services.Deps{DB: db, Bus: bus, Now: clk.Now})
	d.DB, d.Bus, d.Services, d.Settings, d.Now = db, bus, svcs, setSvc, clk.Now
	if d.Guarded == nil {
		d.Guarded = protectedByConfig(db)
	}
	if d.Panel == nil {
		d.Panel = paneladdr.New("", "", nil)
	}
	d.Panel.Bind("127.0.0.1:18080")
	s := NewService(d)
	log := slog.New(slog.DiscardHandler)
	e := httpapi.New(httpapi.Deps{
		Logger: log, Version: "test",
		Ping:          func(context.Context) error { return nil },
		SetupRequired: func(context.Context) (bool, error) { return false, nil },
		RequireAdmin: func(next echo.HandlerFunc) echo.HandlerFunc {
			return func(c echo.Context) error {
				if c.Request().Header.Get("X-Test-Admin") == "" {
					return apperr.Unauthenticated("sign in required")
				}
				return testutil.AsAdmin(next)(c)
			}
		},
		Features: []httpapi.Feature{NewHandler(s)},
	}).Echo
	return &env{db: db, clock: clk, svc: s, services: svcs, domains: domains.NewService(domains.Deps{DB: db, Bus: bus, Now: clk.Now}), settings: setSvc, e: e}
}

// protectedByConfig stands in for forward-auth, which owns the answer in
// the app: a service is guarded when it has an enabled protection.
func protectedByConfig(db *gorm.DB) func(context.Context, []string) (func(string) bool, error) {
	return func(ctx context.Context, only []string) (func(string) bool, error) {
		q := db.WithContext(ctx).Model(&store.SecurityConfig{}).Where("enabled = ?", true)
		if only != nil {
			q = q.Where("service_id IN ?", only)
		}
		var ids []string
		if err := q.Pluck("service_id", &ids).Error; err != nil {
			return nil, err
		}
		return func(id string) bool { return slices.Contains(ids, id) }, nil
	}
}

func (v *env) do(t *testing.T, path string, hdr map[string]string) *httptest.ResponseRecorder {
	t.Helper()
	var pairs []string
	for k, val := range hdr {
		pairs = append(pairs, k, val)
	}
	return testutil.Request(v.e, http.MethodGet, path, "", pairs...)
}

func (v *env) createDomain(t *testing.T, req domains.Request) string {
	t.Helper()
	d, err := v.domains.Create(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	return d.ID
}

func (v *env) createService(t *testing.T, name, host string, mod func(*services.Request)) string {
	t.Helper()
	r := services.Request{
		Name: name, Hostnames: []store.Hostname{{Type: store.HostCustom, Value: host}},
		Targets: []store.Target{{Host: "10.0.0.1", Port: 80}},
	}
	if mod != nil {
		mod(&r)
	}
	s, err := v.services.Create(context.Background(), r)
	if err != nil {
		t.Fatal(err)
	}
	v.clock.Add(time.Second) // distinct creation times
	return s.ID
}

func decodeConfig(t *testing.T, rec *httptest.ResponseRecorder) Config {
	t.Helper()
	if rec.Code != http.StatusOK {
		t.Fatalf("status %d: %s", rec.Code, rec.Body)
	}
	var c Config
	if err := json.Unmarshal(rec.Body.Bytes(), &c); err != nil {
		t.Fatal(err)
	}
	return c
}

func TestServiceGolden(t *testing.T) {
	tests := []struct {
		name  string
		deps  Deps
		setup func(t *testing.T, v *env)
	}{
		{"expired", Deps{}, func(t *testing.T, v *env) {
			at := v.clock.Now().Add(time.Hour)
			v.createService(t, "short lived", "short.test", func(r *services.Request) {
				r.Expiry = &services.Expiry{Type: store.ExpiryAt, At: &at}
			})
			v.createService(t, "forever", "forever.test", nil)
			v.clock.Add(2 * time.Hour)
		}},
		{"internal_url_set", Deps{Panel: paneladdr.New("http://gatehouse.internal:8080", "", nil)}, protectedService},
		{"internal_url_unset_admin_domain", Deps{}, func(t *testing.T, v *env) {
			if _, err := v.settings.Put(context.Background(), settings.Global{AdminDomain: "panel.example.com", DefaultEntrypoints: []string{"websecure"}}); err != nil {
				t.Fatal(err)
			}
			protectedService(t, v)
		}},
		{"internal_url_unset_listen_address", Deps{}, protectedService},
		{"managed", Deps{Managed: true, Panel: paneladdr.New("http://gatehouse:8080", "", nil)}, func(t *testing.T, v *env) {
			if _, err := v.settings.Put(context.Background(), settings.Global{AdminDomain: "panel.example.com", DefaultEntrypoints: []string{"web", "websecure"}}); err != nil {
				t.Fatal(err)
			}
			v.db.Create(&store.Person{ID: "a1", Username: "admin", PasswordHash: "$2a$10$hash", CreatedAt: v.clock.Now(), UpdatedAt: v.clock.Now()})
			v.createDomain(t, domains.Request{Domain: "example.com", CertResolver: "dns", Wildcard: true})
			v.createService(t, "app", "app.example.com", nil)
		}},
		// Replicas: forward-auth goes through Traefik's loopback entrypoint,
		// the admin router straight to the replicas' load balancer, with the
		// retry in front of it.
		{"managed_replicas", Deps{Managed: true, Panel: paneladdr.New("http://127.0.0.1:8081", "", nil), PanelService: "gatehouse-panel@file",
			PanelMiddlewares: []string{"gatehouse-retry@file"}}, func(t *testing.T, v *env) {
			if _, err := v.settings.Put(context.Background(), settings.Global{AdminDomain: "panel.example.com", DefaultEntrypoints: []string{"websecure"}}); err != nil {
				t.Fatal(err)
			}
			v.db.Create(&store.Person{ID: "a1", Username: "admin", PasswordHash: "$2a$10$hash", CreatedAt: v.clock.Now(), UpdatedAt: v.clock.Now()})
			protectedService(t, v)
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			v := newEnv(t, tc.deps)
			tc.setup(t, v)
			cfg := decodeConfig(t, v.do(t, "/api/proxy/config", nil))
			// Ids are random: name them by service name in the golden file.
			all, err := v.services.List(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			var repl []string
			for _, sv := range all {
				repl = append(repl, sv.ID, "<id of "+sv.Name+">")
			}
			golden(t, "service_"+tc.name, cfg, repl...)
		})
	}
}

func protectedService(t *testing.T, v *env) {
	id := v.createService(t, "wiki", "wiki.test", nil)
	now := v.clock.Now()
	v.db.Create(&store.SecurityConfig{ID: "sc1", ServiceID: id, Type: store.SecuritySSO, Enabled: true, CreatedAt: now, UpdatedAt: now})
	v.svc.Invalidate() // the security feature publishes change.Security
}

func TestExpiredServiceIsDisabledAndPersisted(t *testing.T) {
	v := newEnv(t, Deps{})
	at := v.clock.Now().Add(time.Hour)
	id := v.createService(t, "short", "short.test", func(r *services.Request) {
		r.Expiry = &services.Expiry{Type: store.ExpiryAt, At: &at}
	})
	if c := decodeConfig(t, v.do(t, "/api/proxy/config", nil)); len(c.Section().Routers) != 1 {
		t.Fatalf("before expiry: routers %v", c.Section().Routers)
	}
	// No write happens: the cache must end by itself at the expiry instant.
	v.clock.Add(time.Hour)
	if c := decodeConfig(t, v.do(t, "/api/proxy/config", nil)); len(c.Section().Routers) != 0 {
		t.Fatalf("after expiry: routers %v", c.Section().Routers)
	}
	got, err := v.services.Get(context.Background(), id)
	if err != nil || got.Enabled {
		t.Fatalf("service should be persisted as disabled: %+v %v", got.Enabled, err)
	}
}

func TestConfigETag(t *testing.T) {
	v := newEnv(t, Deps{})
	v.createService(t, "app", "app.test", nil)
	first := v.do(t, "/api/proxy/config", nil)
	etag := first.Header().Get("ETag")
	if first.Code != http.StatusOK || !strings.HasPrefix(etag, `"`) || first.Header().Get("Content-Type") != "application/json" {
		t.Fatalf("status %d etag %q type %q", first.Code, etag, first.Header().Get("Content-Type"))
	}
	for _, inm := range []string{etag, `"other", ` + etag, "W/" + etag, "*"} {
		rec := v.do(t, "/api/proxy/config", map[string]string{"If-None-Match": inm})
		if rec.Code != http.StatusNotModified || rec.Body.Len() != 0 {
			t.Errorf("If-None-Match %s: status %d body %q", inm, rec.Code, rec.Body)
		}
	}
	if rec := v.do(t, "/api/proxy/config", map[string]string{"If-None-Match": `"stale"`}); rec.Code != http.StatusOK {
		t.Errorf("stale ETag: status %d", rec.Code)
	}
	again := v.do(t, "/api/proxy/config", nil)
	if again.Body.String() != first.Body.String() || again.Header().Get("ETag") != etag {
		t.Error("same state must give byte-identical output and the same ETag")
	}
}

func TestConfigInvalidatedByWrites(t *testing.T) {
	v := newEnv(t, Deps{})
	first := v.do(t, "/api/proxy/config", nil)
	id := v.createService(t, "app", "app.test", nil)
	second := decodeConfig(t, v.do(t, "/api/proxy/config", nil))
	if _, ok := second.Section().Routers["gh-app-websecure"]; !ok {
		t.Fatalf("new service missing after the write: %v", second.Section().Routers)
	}
	disabled := false
	if _, err := v.services.Update(context.Background(), id, services.Request{Name: "app",
		Hostnames: []store.Hostname{{Type: store.HostCustom, Value: "app.test"}},
		Targets:   []store.Target{{Host: "10.0.0.1", Port: 80}}, Enabled: &disabled}); err != nil {
		t.Fatal(err)
	}
	third := v.do(t, "/api/proxy/config", nil)
	if third.Body.String() != first.Body.String() {
		t.Errorf("disabled service still emitted: %s", third.Body)
	}
	if _, err := v.settings.Put(context.Background(), settings.Global{DefaultEntrypoints: []string{"web"}}); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(v.do(t, "/api/proxy/config", nil).Body.Bytes(), &struct{}{}); err != nil {
		t.Fatal(err)
	}
}

func TestConfigUnavailableOnError(t *testing.T) {
	v := newEnv(t, Deps{})
	v.createService(t, "app", "app.test", nil)
	sqlDB, _ := v.db.DB()
	_ = sqlDB.Close()
	v.svc.Invalidate()
	rec := v.do(t, "/api/proxy/config", nil)
	if rec.Code != http.StatusServiceUnavailable {
		t.Fatalf("status %d, want 503: %s", rec.Code, rec.Body)
	}
	var env httpx.ErrorEnvelope
	if err := json.Unmarshal(rec.Body.Bytes(), &env); err != nil || env.Error.Code != apperr.CodeInternal {
		t.Fatalf("envelope %s (%v)", rec.Body, err)
	}
	if strings.Contains(rec.Body.String(), "sql") {
		t.Errorf("the cause leaked: %s", rec.Body)
	}
}

func TestConfigRefusedOnPublicAdminDomain(t *testing.T) {
	v := newEnv(t, Deps{Managed: true})
	if _, err := v.settings.Put(context.Background(), settings.Global{AdminDomain: "panel.example.com", DefaultEntrypoints: []string{"websecure"}}); err != nil {
		t.Fatal(err)
	}
	for _, h := range []map[string]string{
		{"Host": "panel.example.com"}, {"Host": "PANEL.example.com:443"},
		{"X-Forwarded-Host": "panel.example.com"}, {"X-Forwarded-Host": "other, panel.example.com"},
	} {
		if rec := v.do(t, "/api/proxy/config", h); rec.Code != http.StatusForbidden {
			t.Errorf("%v: status %d, want 403", h, rec.Code)
		}
	}
	if rec := v.do(t, "/api/proxy/config", map[string]string{"Host": "gatehouse:8080"}); rec.Code != http.StatusOK {
		t.Errorf("internal host: status %d", rec.Code)
	}
}

func TestPreview(t *testing.T) {
	v := newEnv(t, Deps{})
	v.createService(t, "app", "a.test", nil)
	off := false
	id := v.createService(t, "app", "b.test", func(r *services.Request) {
		r.Enabled = &off
		r.Headers = map[string]string{"X-A": "1"}
		r.InsecureSkipVerify = true
	})
	v.createService(t, "app", "c.test", nil)
	if rec := v.do(t, "/api/proxy/config/preview?serviceId="+id, nil); rec.Code != http.StatusUnauthorized {
		t.Errorf("without a session: status %d, want 401", rec.Code)
	}
	admin := map[string]string{"X-Test-Admin": "1"}
	rec := v.do(t, "/api/proxy/config/preview?serviceId="+id, admin)
	if rec.Code != http.StatusOK {
		t.Fatalf("status %d: %s", rec.Code, rec.Body)
	}
	var p Preview
	if err := json.Unmarshal(rec.Body.Bytes(), &p); err != nil {
		t.Fatal(err)
	}
	if p.Enabled || len(p.Routers) != 1 || p.Routers["gh-app-2-websecure"] == nil || p.Services["gh-app-2"] == nil ||
		p.Middlewares["gh-headers-app-2"] == nil || p.ServersTransports["gh-app-2"] == nil {
		t.Errorf("preview = %s", rec.Body)
	}
	// b.test has no domain, so no resolver: Traefik's default certificate.
	if len(p.Warnings) != 1 || p.Warnings[0].Code != WarnDefaultCertificate {
		t.Errorf("warnings = %+v", p.Warnings)
	}
	if rec := v.do(t, "/api/proxy/config/preview?serviceId=nope", admin); rec.Code != http.StatusNotFound {
		t.Errorf("unknown id: status %d", rec.Code)
	}
	if rec := v.do(t, "/api/proxy/config/preview", admin); rec.Code != http.StatusUnprocessableEntity {
		t.Errorf("missing id: status %d", rec.Code)
	}
}

func TestRouterOwnersAndCertTrigger(t *testing.T) {
	v := newEnv(t, Deps{})
	a := v.createService(t, "app", "a.test", func(r *services.Request) { r.Entrypoints = []string{"web", "websecure"} })
	b := v.createService(t, "app", "b.test", nil)
	got, err := v.svc.RouterOwners(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"gh-app-web": a, "gh-app-websecure": a, "gh-app-2-websecure": b}
	if len(got) != len(want) {
		t.Fatalf("RouterOwners = %v", got)
	}
	for k, id := range want {
		if got[k] != id {
			t.Errorf("RouterOwners[%s] = %q, want %q", k, got[k], id)
		}
	}
	rec := v.do(t, "/api/proxy/cert-trigger", nil)
	if body, _ := io.ReadAll(rec.Body); rec.Code != http.StatusOK || !strings.Contains(string(body), "<title>") {
		t.Errorf("cert trigger: %d %s", rec.Code, body)
	}
}

func TestBackgroundDisableExpired(t *testing.T) {
	v := newEnv(t, Deps{})
	at := v.clock.Now().Add(time.Minute)
	id := v.createService(t, "short", "short.test", func(r *services.Request) {
		r.Expiry = &services.Expiry{Type: store.ExpiryAt, At: &at}
	})
	if err := v.svc.DisableExpired(context.Background()); err != nil {
		t.Fatal(err)
	}
	if got, _ := v.services.Get(context.Background(), id); !got.Enabled {
		t.Fatal("disabled before its expiry")
	}
	v.clock.Add(time.Minute)
	if err := v.svc.DisableExpired(context.Background()); err != nil {
		t.Fatal(err)
	}
	if got, _ := v.services.Get(context.Background(), id); got.Enabled {
		t.Fatal("still enabled after its expiry")
	}
}

// TestMaintenancePage: the page is public, answers 503 with the service's
// message escaped (line breaks kept), and 404 once maintenance is off.
func TestMaintenancePage(t *testing.T) {
	v := newEnv(t, Deps{})
	id := v.createService(t, "Shop <b>", "shop.test", func(r *services.Request) {
		r.Maintenance = services.Maintenance{Enabled: true, Message: "Back at <script>alert(1)</script>\nnoon"}
	})
	plain := v.createService(t, "other", "other.test", nil)
	rec := v.do(t, MaintenancePath+"/"+id, nil)
	body := rec.Body.String()
	if rec.Code != http.StatusServiceUnavailable || rec.Header().Get("Retry-After") == "" || rec.Header().Get("Cache-Control") != "no-store" {
		t.Fatalf("status %d headers %v", rec.Code, rec.Header())
	}
	if !strings.Contains(body, "Back at &lt;script&gt;alert(1)&lt;/script&gt;\nnoon") || strings.Contains(body, "<script>") ||
		!strings.Contains(body, "Shop &lt;b&gt; is under maintenance") {
		t.Fatalf("page = %s", body)
	}
	for _, path := range []string{MaintenancePath + "/" + plain, MaintenancePath + "/nope"} {
		if rec := v.do(t, path, nil); rec.Code != http.StatusNotFound {
			t.Errorf("%s: status %d, want 404", path, rec.Code)
		}
	}
	if _, err := v.services.SetEnabled(context.Background(), id, true); err != nil {
		t.Fatal(err)
	}
	// Without a message the page says so in general terms.
	if _, err := v.services.Update(context.Background(), id, services.Request{Name: "Shop", Hostnames: []store.Hostname{{Type: store.HostCustom, Value: "shop.test"}},
		Targets: []store.Target{{Host: "10.0.0.1", Port: 80}}, Maintenance: services.Maintenance{Enabled: true}}); err != nil {
		t.Fatal(err)
	}
	if rec := v.do(t, MaintenancePath+"/"+id, nil); !strings.Contains(rec.Body.String(), defaultMaintenanceMessage) {
		t.Errorf("page without a message = %s", rec.Body)
	}
}
