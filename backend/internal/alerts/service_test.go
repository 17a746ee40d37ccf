package alerts

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/gatehouse-proxy/gatehouse/internal/httpapi"
	"github.com/gatehouse-proxy/gatehouse/internal/notify"
	"github.com/gatehouse-proxy/gatehouse/internal/store"
	"github.com/gatehouse-proxy/gatehouse/internal/testutil"
)

// history is the traffic history the tests write minute by minute.
type history struct {
	mu      sync.Mutex
	samples map[string][]Sample
}

func (h *history) add(service string, s Sample) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.samples[service] = append(h.samples[service], s)
}

func (h *history) Window(_ context.Context, service string, from, to time.Time) ([]Sample, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	var out []Sample
	for _, s := range h.samples[service] {
		if !s.At.Before(from) && s.At.Before(to) {
			out = append(out, s)
		}
	}
	return out, nil
}

// sent records what would go to the channels.
type sent struct {
	mu  sync.Mutex
	evs []notify.Event
}

func (s *sent) Send(_ context.Context, ev notify.Event) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.evs = append(s.evs, ev)
}

func (s *sent) all() []notify.Event {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]notify.Event(nil), s.evs...)
}

type env struct {
	svc   *Service
	e     *echo.Echo
	clock *testutil.Clock
	hist  *history
	sent  *sent
}

func newEnv(t *testing.T) *env {
	t.Helper()
	db := testutil.NewDB(t)
	clock := testutil.NewClock(t0)
	for _, s := range []store.Service{{ID: "svc-grafana", Name: "grafana"}, {ID: "svc-wiki", Name: "wiki"}} {
		s.CreatedAt, s.UpdatedAt = t0, t0
		if err := db.Create(&s).Error; err != nil {
			t.Fatal(err)
		}
	}
	v := &env{clock: clock, hist: &history{samples: map[string][]Sample{}}, sent: &sent{}}
	v.svc = NewService(Deps{DB: db, Now: clock.Now, Source: v.hist, Notify: v.sent, Settle: -1,
		ServiceNames: func(context.Context) (map[string]string, error) {
			return map[string]string{"svc-grafana": "grafana", "svc-wiki": "wiki"}, nil
		}})
	v.e = httpapi.New(httpapi.Deps{
		Ping:          func(context.Context) error { return nil },
		SetupRequired: func(context.Context) (bool, error) { return false, nil },
		RequireAdmin:  testutil.AsAdmin,
		Features:      []httpapi.Feature{NewHandler(v.svc)},
	}).Echo
	return v
}

func (v *env) do(t *testing.T, method, path string, body any) (int, string) {
	t.Helper()
	var raw string
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			t.Fatal(err)
		}
		raw = string(b)
	}
	rec := testutil.Request(v.e, method, path, raw)
	return rec.Code, rec.Body.String()
}

// minute advances the clock by a minute after writing that minute's sample
// for service, then evaluates.
func (v *env) minute(t *testing.T, service string, s Sample) {
	t.Helper()
	s.At = v.clock.Now().Truncate(time.Minute)
	v.hist.add(service, s)
	v.clock.Add(time.Minute)
	if err := v.svc.Evaluate(context.Background()); err != nil {
		t.Fatal(err)
	}
}

func decodeJSON[T any](t *testing.T, raw string) T {
	t.Helper()
	var v T
	if err := json.NewDecoder(bytes.NewReader([]byte(raw))).Decode(&v); err != nil {
		t.Fatalf("decode %s: %v", raw, err)
	}
	return v
}

// TestRuleFiresOnceAndRecovers: a 5xx ratio above the threshold for the
// rule's minutes fires once, however long it lasts; one minute below
// resolves it with a recovery message; the next episode fires again; the
// history lists both.
func TestRuleFiresOnceAndRecovers(t *testing.T) {
	v := newEnv(t)
	code, raw := v.do(t, http.MethodPost, "/api/alerts/rules", map[string]any{
		"name": "grafana errors", "serviceId": "svc-grafana", "kind": "error_ratio", "threshold": 5, "forMinutes": 3})
	if code != http.StatusCreated {
		t.Fatalf("create: %d %s", code, raw)
	}
	rule := decodeJSON[Rule](t, raw)
	if rule.ServiceName != "grafana" || !rule.Enabled || rule.Firing {
		t.Fatalf("created rule: %+v", rule)
	}
	bad := Sample{Requests: 100, Errors5xx: 20}
	good := Sample{Requests: 100, Errors5xx: 1}
	v.minute(t, "svc-grafana", good)
	v.hist.add("svc-wiki", Sample{At: v.clock.Now(), Requests: 100, Errors5xx: 100}) // another service's errors count for nothing
	v.minute(t, "svc-grafana", bad)
	v.minute(t, "svc-grafana", bad)
	if n := len(v.sent.all()); n != 0 {
		t.Fatalf("fired after 2 bad minutes of 3: %v", v.sent.all())
	}
	for range 5 { // long enough to fire, then stays firing: one message
		v.minute(t, "svc-grafana", bad)
	}
	evs := v.sent.all()
	if len(evs) != 1 || evs[0].Kind != notify.AlertFiring || !strings.Contains(evs[0].Subject, "grafana errors (grafana)") ||
		!strings.Contains(evs[0].Body, "20.0 %") {
		t.Fatalf("after 7 bad minutes: %+v", evs)
	}
	if _, raw := v.do(t, http.MethodGet, "/api/alerts/rules/"+rule.ID, nil); !strings.Contains(raw, `"firing":true`) {
		t.Fatalf("rule not firing: %s", raw)
	}
	v.minute(t, "svc-grafana", good)
	evs = v.sent.all()
	if len(evs) != 2 || evs[1].Kind != notify.AlertResolved || evs[1].Key != evs[0].Key || !strings.Contains(evs[1].Body, "back to 1.0 %") {
		t.Fatalf("after recovery: %+v", evs)
	}
	v.minute(t, "svc-grafana", good)
	for range 3 {
		v.minute(t, "svc-grafana", bad)
	}
	evs = v.sent.all()
	if len(evs) != 3 || evs[2].Kind != notify.AlertFiring || evs[2].Key == evs[0].Key {
		t.Fatalf("second episode: %+v", evs)
	}
	code, raw = v.do(t, http.MethodGet, "/api/alerts/events?ruleId="+rule.ID, nil)
	list := decodeJSON[struct{ Items []Event }](t, raw)
	if code != http.StatusOK || len(list.Items) != 2 || list.Items[0].State != Firing || list.Items[1].State != Resolved ||
		list.Items[1].Resolution != "recovered" || *list.Items[1].ResolvedValue != 1 {
		t.Fatalf("events: %d %s", code, raw)
	}
	for q, want := range map[string]int{"?state=firing": 1, "?state=resolved": 1, "?serviceId=svc-wiki": 0, "?serviceId=svc-grafana&limit=1": 1} {
		_, raw := v.do(t, http.MethodGet, "/api/alerts/events"+q, nil)
		if got := len(decodeJSON[struct{ Items []Event }](t, raw).Items); got != want {
			t.Errorf("events%s: %d items, want %d", q, got, want)
		}
	}
	// Deleting the rule resolves its open episode and says so; the history stays.
	if code, _ := v.do(t, http.MethodDelete, "/api/alerts/rules/"+rule.ID, nil); code != http.StatusNoContent {
		t.Fatalf("delete: %d", code)
	}
	evs = v.sent.all()
	if len(evs) != 4 || evs[3].Kind != notify.AlertResolved || !strings.Contains(evs[3].Body, "removed") {
		t.Fatalf("after delete: %+v", evs)
	}
	_, raw = v.do(t, http.MethodGet, "/api/alerts/events?state=firing", nil)
	if n := len(decodeJSON[struct{ Items []Event }](t, raw).Items); n != 0 {
		t.Fatalf("an episode of a deleted rule is still firing: %s", raw)
	}
}

// TestGlobalNoTrafficRule: the panel's totals stopping after traffic fire a
// global rule; traffic coming back resolves it.
func TestGlobalNoTrafficRule(t *testing.T) {
	v := newEnv(t)
	if code, raw := v.do(t, http.MethodPost, "/api/alerts/rules", map[string]any{
		"name": "silence", "serviceId": nil, "kind": "no_traffic", "forMinutes": 2}); code != http.StatusCreated {
		t.Fatalf("create: %d %s", code, raw)
	}
	v.minute(t, "", Sample{})
	v.minute(t, "", Sample{})
	v.minute(t, "", Sample{})
	if n := len(v.sent.all()); n != 0 {
		t.Fatal("fired without ever having had traffic")
	}
	v.minute(t, "", Sample{Requests: 5})
	v.minute(t, "", Sample{})
	v.minute(t, "", Sample{})
	evs := v.sent.all()
	if len(evs) != 1 || evs[0].Kind != notify.AlertFiring || !strings.Contains(evs[0].Subject, "all services") {
		t.Fatalf("after 2 quiet minutes: %+v", evs)
	}
	v.minute(t, "", Sample{Requests: 1})
	if evs := v.sent.all(); len(evs) != 2 || evs[1].Kind != notify.AlertResolved {
		t.Fatalf("after traffic came back: %+v", evs)
	}
}

// TestDisabledRuleResolves: disabling a firing rule resolves its episode.
func TestDisabledRuleResolves(t *testing.T) {
	v := newEnv(t)
	_, raw := v.do(t, http.MethodPost, "/api/alerts/rules", map[string]any{
		"name": "down", "serviceId": "svc-wiki", "kind": "backend_down", "forMinutes": 1})
	rule := decodeJSON[Rule](t, raw)
	v.minute(t, "svc-wiki", Sample{Up: f64(0)})
	if evs := v.sent.all(); len(evs) != 1 {
		t.Fatalf("backend down: %+v", evs)
	}
	code, raw := v.do(t, http.MethodPut, "/api/alerts/rules/"+rule.ID, map[string]any{
		"name": "down", "serviceId": "svc-wiki", "kind": "backend_down", "forMinutes": 1, "enabled": false})
	if code != http.StatusOK {
		t.Fatalf("disable: %d %s", code, raw)
	}
	v.minute(t, "svc-wiki", Sample{Up: f64(0)})
	evs := v.sent.all()
	if len(evs) != 2 || evs[1].Kind != notify.AlertResolved || !strings.Contains(evs[1].Body, "disabled") {
		t.Fatalf("after disabling: %+v", evs)
	}
}

// TestRuleValidation: bad input answers 4xx naming the field.
func TestRuleValidation(t *testing.T) {
	v := newEnv(t)
	ok := map[string]any{"name": "x", "kind": "latency_p95", "threshold": 300, "forMinutes": 5}
	with := func(k string, val any) map[string]any {
		m := map[string]any{}
		for a, b := range ok {
			m[a] = b
		}
		m[k] = val
		return m
	}
	cases := []struct {
		body  any
		code  int
		field string
	}{
		{with("name", ""), http.StatusUnprocessableEntity, "name"},
		{with("name", strings.Repeat("n", 101)), http.StatusUnprocessableEntity, "name"},
		{with("name", "a\x00b"), http.StatusUnprocessableEntity, "name"},
		{with("kind", "cpu"), http.StatusUnprocessableEntity, "kind"},
		{with("threshold", 0), http.StatusUnprocessableEntity, "threshold"},
		{with("threshold", 600001), http.StatusUnprocessableEntity, "threshold"},
		{with("forMinutes", 0), http.StatusUnprocessableEntity, "forMinutes"},
		{with("forMinutes", 1441), http.StatusUnprocessableEntity, "forMinutes"},
		{with("serviceId", "nope"), http.StatusUnprocessableEntity, "serviceId"},
		{with("serviceId", strings.Repeat("s", 65)), http.StatusUnprocessableEntity, "serviceId"},
		{map[string]any{"name": "x", "kind": "error_ratio", "threshold": 101, "forMinutes": 5}, http.StatusUnprocessableEntity, "threshold"},
		{with("forMinutes", "five"), http.StatusBadRequest, ""},
	}
	for _, tc := range cases {
		code, raw := v.do(t, http.MethodPost, "/api/alerts/rules", tc.body)
		if code != tc.code || (tc.field != "" && !strings.Contains(raw, `"field":"`+tc.field+`"`)) {
			t.Errorf("%v: %d %s; want %d naming %s", tc.body, code, raw, tc.code, tc.field)
		}
	}
	if code, raw := v.do(t, http.MethodPost, "/api/alerts/rules", ok); code != http.StatusCreated {
		t.Fatalf("valid: %d %s", code, raw)
	}
	if code, raw := v.do(t, http.MethodPost, "/api/alerts/rules", ok); code != http.StatusConflict || !strings.Contains(raw, `"field":"name"`) {
		t.Fatalf("duplicate name: %d %s", code, raw)
	}
	for q, field := range map[string]string{"?state=open": "state", "?limit=0": "limit", "?limit=501": "limit",
		"?ruleId=" + strings.Repeat("r", 65): "ruleId"} {
		if code, raw := v.do(t, http.MethodGet, "/api/alerts/events"+q, nil); code != http.StatusUnprocessableEntity ||
			!strings.Contains(raw, `"field":"`+field+`"`) {
			t.Errorf("events%s: %d %s", q, code, raw)
		}
	}
	if code, _ := v.do(t, http.MethodGet, "/api/alerts/rules/"+strings.Repeat("x", 100), nil); code != http.StatusNotFound {
		t.Errorf("long id: %d", code)
	}
}
