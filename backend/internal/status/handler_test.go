package status_test

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/gatehouse-proxy/gatehouse/internal/change"
	"github.com/gatehouse-proxy/gatehouse/internal/dynconf"
	"github.com/gatehouse-proxy/gatehouse/internal/httpapi"
	"github.com/gatehouse-proxy/gatehouse/internal/runtime"
	"github.com/gatehouse-proxy/gatehouse/internal/services"
	"github.com/gatehouse-proxy/gatehouse/internal/settings"
	"github.com/gatehouse-proxy/gatehouse/internal/status"
	"github.com/gatehouse-proxy/gatehouse/internal/store"
	"github.com/gatehouse-proxy/gatehouse/internal/testutil"
)

// fakeTraefik answers /api/rawdata with routers built from the panel's
// configuration as last fetched, each enabled unless listed in broken.
type fakeTraefik struct {
	mu     sync.Mutex
	config []byte
	broken map[string]string // router name -> Traefik's error
}

func (f *fakeTraefik) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path == "/api/version" {
		_, _ = io.WriteString(w, `{"Version":"3.6.12","Codename":"ramequin"}`)
		return
	}
	if r.URL.Path != "/api/rawdata" {
		http.NotFound(w, r)
		return
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	var cfg struct {
		HTTP struct {
			Routers map[string]json.RawMessage `json:"routers"`
		} `json:"http"`
	}
	_ = json.Unmarshal(f.config, &cfg)
	routers := map[string]any{}
	for name := range cfg.HTTP.Routers {
		r := map[string]any{"service": name, "status": "enabled", "entryPoints": []string{"web"}}
		if msg, ok := f.broken[name]; ok {
			r["status"], r["error"] = "disabled", []string{msg}
		}
		routers[name+"@http"] = r
	}
	_ = json.NewEncoder(w).Encode(map[string]any{"routers": routers})
}

type env struct {
	e        *echo.Echo
	srv      *httptest.Server // the fake Traefik, nil without one
	clock    *testutil.Clock
	services *services.Service
	traefik  *fakeTraefik
	polls    *status.Recorder
}

func newEnv(t *testing.T, withTraefik bool) *env {
	t.Helper()
	db := testutil.NewDB(t)
	bus := change.NewBus()
	clock := testutil.NewClock(time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC))
	svcs := services.NewService(services.Deps{DB: db, Bus: bus, Now: clock.Now})
	polls := status.NewRecorder(clock.Now)
	dyn := dynconf.NewService(dynconf.Deps{
		DB: db, Bus: bus, Services: svcs, Settings: settings.NewService(settings.Deps{DB: db, Bus: bus}), Now: clock.Now,
		OnBuild: polls.NoteVersion,
		OnServe: func(remote, etag string, code int) {
			polls.Record(status.Poll{At: clock.Now(), Remote: remote, ETag: etag, Code: code})
		},
	})
	ft := &fakeTraefik{broken: map[string]string{}}
	rd := runtime.Deps{Services: svcs, Owners: dyn}
	var srv *httptest.Server
	if withTraefik {
		srv = httptest.NewServer(ft)
		t.Cleanup(srv.Close)
		c, err := runtime.NewClient(srv.URL, runtime.ClientOptions{CacheTTL: time.Nanosecond})
		if err != nil {
			t.Fatal(err)
		}
		rd.Client = c
	}
	rt := runtime.NewService(rd)
	st := status.NewService(status.Deps{
		Polls: polls, Config: dyn, Services: svcs, Runtime: rt, Prober: rt, Now: clock.Now,
		ConfigURL: func() string { return "http://10.0.0.2:8080" },
	})
	e := httpapi.New(httpapi.Deps{
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil)), RequireAdmin: testutil.AsAdmin,
		Features: []httpapi.Feature{dynconf.NewHandler(dyn), status.NewHandler(st)},
	}).Echo
	return &env{e: e, srv: srv, clock: clock, services: svcs, traefik: ft, polls: polls}
}

func (v *env) add(t *testing.T, name string) string {
	t.Helper()
	r, err := v.services.Create(context.Background(), services.Request{
		Name: name, Hostnames: []store.Hostname{{Type: store.HostCustom, Value: name + ".example.test"}},
		Targets: []store.Target{{Scheme: "http", Host: "127.0.0.1", Port: 28091}},
	})
	if err != nil {
		t.Fatal(err)
	}
	return r.ID
}

// poll is Traefik fetching the configuration; it answers the status code.
func (v *env) poll(t *testing.T, ifNoneMatch string) (int, string) {
	t.Helper()
	v.clock.Add(time.Second)
	rec := testutil.Request(v.e, http.MethodGet, "/api/proxy/config", "", "If-None-Match", ifNoneMatch, "RemoteAddr", "10.0.0.9:40000")
	if rec.Code == http.StatusOK {
		v.traefik.mu.Lock()
		v.traefik.config = rec.Body.Bytes()
		v.traefik.mu.Unlock()
	}
	return rec.Code, rec.Header().Get("ETag")
}

func (v *env) status(t *testing.T) status.View {
	t.Helper()
	rec := testutil.Request(v.e, http.MethodGet, "/api/proxy/status", "")
	if rec.Code != http.StatusOK {
		t.Fatalf("GET /api/proxy/status: %d %s", rec.Code, rec.Body.String())
	}
	var out status.View
	if err := json.Unmarshal(rec.Body.Bytes(), &out); err != nil {
		t.Fatal(err)
	}
	return out
}

func badges(v status.View) map[string]status.Badge {
	m := map[string]status.Badge{}
	for _, b := range v.Services {
		m[b.ServiceID] = b
	}
	return m
}

func TestStatusBeforeFirstPoll(t *testing.T) {
	v := newEnv(t, true)
	id := v.add(t, "app")
	got := v.status(t)
	if got.Poll.Polled || got.Poll.Stopped || got.Poll.ConfigURL != "http://10.0.0.2:8080" {
		t.Fatalf("poll = %+v", got.Poll)
	}
	want := "# Open to anyone who reaches the panel until PANEL_PROVIDER_TOKEN is set on it;\n" +
		"# then add  headers: {Authorization: \"Bearer <that token>\"}  under http.\n" +
		"providers:\n  http:\n    endpoint: \"http://10.0.0.2:8080/api/proxy/config\"\n    pollInterval: \"5s\"\n"
	if got.Poll.Snippet != want {
		t.Fatalf("snippet = %q", got.Poll.Snippet)
	}
	if b := badges(got)[id]; b.State != status.Waiting {
		t.Fatalf("badge = %+v, want waiting", b)
	}
}

func TestStatusFollowsPolls(t *testing.T) {
	v := newEnv(t, true)
	app := v.add(t, "app")
	code, etag := v.poll(t, "")
	if code != http.StatusOK {
		t.Fatalf("first poll: %d", code)
	}
	if code, _ := v.poll(t, etag); code != http.StatusNotModified {
		t.Fatalf("second poll: %d, want 304", code)
	}
	got := v.status(t)
	if !got.Poll.Polled || !got.Poll.Current || got.Poll.Last.Code != http.StatusNotModified ||
		got.Poll.Last.Remote != "10.0.0.9" || len(got.Poll.Recent) != 2 || !got.Poll.IntervalMeasured || got.Poll.IntervalSeconds != 1 {
		t.Fatalf("poll = %+v", got.Poll)
	}
	if b := badges(got)[app]; b.State != status.Live || len(b.Routers) == 0 {
		t.Fatalf("app = %+v, want live", b)
	}

	// Two changes the panel built but Traefik did not fetch: "2 behind",
	// and only the changed services wait.
	v.clock.Add(time.Second)
	other := v.add(t, "other")
	_ = v.status(t)
	v.clock.Add(time.Second)
	third := v.add(t, "third")
	got = v.status(t)
	if got.Poll.Current || got.Poll.Behind != 2 || !got.Poll.BehindKnown {
		t.Fatalf("poll = %+v, want 2 behind", got.Poll)
	}
	b := badges(got)
	if b[app].State != status.Live || b[other].State != status.Waiting || b[third].State != status.Waiting {
		t.Fatalf("badges = %+v", b)
	}

	// Traefik fetches them; one router is rejected.
	v.traefik.broken["gh-third-websecure"] = `middleware "nope@file" does not exist`
	v.poll(t, etag)
	got = v.status(t)
	b = badges(got)
	if !got.Poll.Current || b[other].State != status.Live || b[third].State != status.Error {
		t.Fatalf("after poll: %+v %+v", got.Poll, b)
	}
	if len(b[third].Errors) != 1 || b[third].Errors[0] != `router gh-third-websecure@http: middleware "nope@file" does not exist` {
		t.Fatalf("errors = %q", b[third].Errors)
	}

	// Polls stop: three measured intervals later the view says so.
	v.clock.Add(time.Duration(status.StallFactor*got.Poll.IntervalSeconds+1) * time.Second)
	if got = v.status(t); !got.Poll.Stopped {
		t.Fatalf("poll = %+v, want stopped", got.Poll)
	}
}

func TestStatusWithoutTraefikAPI(t *testing.T) {
	v := newEnv(t, false)
	id := v.add(t, "app")
	v.poll(t, "")
	got := v.status(t)
	if got.Traefik.Configured {
		t.Fatalf("traefik = %+v", got.Traefik)
	}
	if b := badges(got)[id]; b.State != status.Unknown || b.Message == "" {
		t.Fatalf("badge = %+v, want unknown", b)
	}
}

func (v *env) check(t *testing.T) status.Check {
	t.Helper()
	rec := testutil.Request(v.e, http.MethodGet, "/api/proxy/status/check", "")
	if rec.Code != http.StatusOK {
		t.Fatalf("GET /api/proxy/status/check: %d %s", rec.Code, rec.Body.String())
	}
	var out status.Check
	if err := json.Unmarshal(rec.Body.Bytes(), &out); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestConnectionCheck: the connection test says, item by item, whether
// Traefik polls and whether its API and metrics answer, in sentences; the
// transport error stays in the detail, never in the answer.
func TestConnectionCheck(t *testing.T) {
	states := func(c status.Check) string {
		var out []string
		for _, it := range c.Items {
			out = append(out, it.Name+"="+it.State)
			if it.Answer == "" || (it.State != status.CheckOK && it.Hint == "") {
				t.Errorf("%s: answer %q, hint %q", it.Name, it.Answer, it.Hint)
			}
		}
		return c.State + ":" + strings.Join(out, ",")
	}

	t.Run("nothing yet", func(t *testing.T) {
		v := newEnv(t, false)
		c := v.check(t)
		if got := states(c); got != "failed:provider=failed,api=warning,metrics=warning" {
			t.Fatalf("states = %s", got)
		}
		if !strings.Contains(c.Items[0].Hint, "http://10.0.0.2:8080/api/proxy/config") || !strings.Contains(c.Items[1].Answer, "PANEL_PROXY_API_URL") {
			t.Fatalf("items = %+v", c.Items)
		}
	})
	t.Run("polled, API answers", func(t *testing.T) {
		v := newEnv(t, true)
		v.poll(t, "")
		v.clock.Add(10 * time.Second)
		c := v.check(t)
		if got := states(c); got != "warning:provider=ok,api=ok,metrics=warning" {
			t.Fatalf("states = %s", got)
		}
		if c.Items[0].Answer != "Traefik fetched the configuration 10 seconds ago from 10.0.0.9." {
			t.Errorf("provider: %q", c.Items[0].Answer)
		}
		if !strings.Contains(c.Items[1].Answer, "Traefik 3.6.12 answers at http://127.0.0.1:") {
			t.Errorf("api: %q", c.Items[1].Answer)
		}
	})
	t.Run("API down", func(t *testing.T) {
		v := newEnv(t, true)
		v.srv.Close()
		c := v.check(t)
		api := c.Items[1]
		if api.State != status.CheckFailed || !strings.Contains(api.Detail, "connection refused") || strings.Contains(api.Answer, "refused") {
			t.Fatalf("api = %+v", api)
		}
	})
}
