package traffic

import (
	"context"
	"math"
	"testing"
	"time"

	"github.com/gatehouse-proxy/gatehouse/internal/runtime"
	"github.com/gatehouse-proxy/gatehouse/internal/store"
	"github.com/gatehouse-proxy/gatehouse/internal/testutil"
)

// takes hands out prepared TrafficTakes, one per call.
type takes struct {
	queue []runtime.TrafficTake
	names map[string][]string
}

func (f *takes) TakeTraffic(context.Context) runtime.TrafficTake {
	if len(f.queue) == 0 {
		return runtime.TrafficTake{Configured: true}
	}
	t := f.queue[0]
	f.queue = f.queue[1:]
	return t
}

func (f *takes) TraefikNames(context.Context) (map[string][]string, error) { return f.names, nil }

// services lists fixed services.
type services map[string]string

func (s services) EachEnabledOf(_ context.Context, _ []string, fn func(store.Service) error) error {
	for id, name := range s {
		if err := fn(store.Service{ID: id, Name: name}); err != nil {
			return err
		}
	}
	return nil
}

func (s services) Exists(_ context.Context, id string) (bool, error) {
	_, ok := s[id]
	return ok, nil
}

// base is a whole hour, so the minutes below share one hour row.
var base = time.Date(2026, 3, 2, 10, 0, 0, 0, time.UTC)

func delta(c2, c4, c5, in, out float64, buckets map[float64]float64) runtime.Delta {
	return runtime.Delta{Classes: [4]float64{c2, 0, c4, c5}, BytesIn: in, BytesOut: out, Buckets: buckets}
}

func TestStoreAndQuery(t *testing.T) {
	db := testutil.NewDB(t)
	ctx := context.Background()
	now := base.Add(10 * time.Minute)
	inf := math.Inf(1)
	src := &takes{queue: []runtime.TrafficTake{
		{Configured: true, Since: base, Global: delta(100, 10, 5, 1000, 9000, map[float64]float64{0.1: 100, 0.3: 115, inf: 115}),
			Services: map[string]runtime.Delta{"a": delta(90, 10, 5, 900, 8000, map[float64]float64{0.1: 90, 0.3: 105, inf: 105})},
			Health:   map[string][2]int{"a": {1, 2}, "b": {1, 1}}},
		{Configured: true, Since: base.Add(time.Minute), Global: delta(60, 0, 0, 600, 6000, map[float64]float64{0.1: 60, inf: 60}),
			Services: map[string]runtime.Delta{"a": delta(60, 0, 0, 600, 6000, map[float64]float64{0.1: 60, inf: 60})},
			Health:   map[string][2]int{"a": {2, 2}}},
	}}
	rec := NewRecorder()
	s := NewService(Deps{DB: db, Now: func() time.Time { return now }, Traefik: src, Recorder: rec,
		Services: services{"a": "alpha", "b": "beta"}})
	for i := range 2 {
		if err := s.StoreTraefik(ctx, base.Add(time.Duration(i)*time.Minute)); err != nil {
			t.Fatal(err)
		}
	}
	c := rec.For("a")
	for range 3 {
		c.Observe(DecisionDenied, time.Millisecond)
	}
	c.Observe(DecisionSignedIn, time.Millisecond)
	if err := s.StoreDecisions(ctx, base); err != nil {
		t.Fatal(err)
	}
	c.Observe(DecisionAllowed, time.Millisecond)
	if err := s.StoreDecisions(ctx, base.Add(time.Minute)); err != nil {
		t.Fatal(err)
	}
	if err := s.StoreDecisions(ctx, base.Add(2*time.Minute)); err != nil { // nothing new: no row
		t.Fatal(err)
	}

	got, err := s.Query(ctx, "a", now.Add(-time.Hour), now)
	if err != nil {
		t.Fatal(err)
	}
	if got.State != StateOK || got.Source != SourcePanel || got.StepSeconds != 60 {
		t.Fatalf("state %q source %q step %d", got.State, got.Source, got.StepSeconds)
	}
	i := index(t, got.Time, base)
	v := got.Series
	check := func(name string, vs []*float64, i int, want float64) {
		t.Helper()
		if vs[i] == nil || math.Abs(*vs[i]-want) > 1e-3 {
			t.Errorf("%s[%d] = %v, want %v", name, i, deref(vs[i]), want)
		}
	}
	check("requests2xx", v.Requests2xx, i, 90)
	check("requests4xx", v.Requests4xx, i, 10)
	check("requests5xx", v.Requests5xx, i, 5)
	check("bytesOut", v.BytesOut, i, 8000)
	check("p50", v.LatencyP50Ms, i, 100*52.5/90) // rank 52.5 of 105, the first bucket (0-100 ms) holds 90
	check("up", v.Up, i, 0.5)
	check("denied", v.Denied, i, 3)
	check("signedIn", v.SignedIn, i, 1)
	check("allowed", v.Allowed, i+1, 1)
	check("requests2xx", v.Requests2xx, i+1, 60)
	check("up", v.Up, i+1, 1)
	check("requests2xx (idle minute)", v.Requests2xx, i+2, 0)
	if v.LatencyP50Ms[i+2] != nil || v.Up[i+2] != nil {
		t.Error("an idle minute has a latency or a health share")
	}
	if last := len(got.Time) - 1; v.Requests2xx[last] != nil {
		t.Error("the minute not stored yet is zero, not null")
	}
	if want := (Totals{Requests: 165, Errors5xx: 5, BytesIn: 1500, BytesOut: 14000, Denied: 3}); got.Totals != want {
		t.Errorf("totals = %+v, want %+v", got.Totals, want)
	}

	// The hour rows hold both minutes, histograms merged.
	week, err := s.Query(ctx, Global, now.Add(-7*24*time.Hour), now)
	if err != nil {
		t.Fatal(err)
	}
	if week.StepSeconds != 3600 {
		t.Fatalf("7 d step = %d", week.StepSeconds)
	}
	h := index(t, week.Time, base)
	if r := week.Series.Requests2xx[h]; r == nil || *r != 160 {
		t.Errorf("hour 2xx = %v, want 160", deref(r))
	}
	if p := week.Series.LatencyP99Ms[h]; p == nil || *p <= 100 || *p > 300 {
		t.Errorf("hour p99 = %v, want within the 100-300 ms bucket", deref(p))
	}
	if d := week.Series.Denied[h]; d == nil || *d != 3 {
		t.Errorf("hour denied = %v, want 3 (the global decisions)", deref(d))
	}

	// Rolled up, the hour answers the same (and the minutes are not
	// counted twice).
	now = base.Add(time.Hour + rollupDelay)
	if err := s.Rollup(ctx); err != nil {
		t.Fatal(err)
	}
	var hourRows int64
	db.Model(&sampleRow{}).Where("res = ?", resHour).Count(&hourRows)
	if hourRows != 2 { // a and the global row
		t.Fatalf("%d hour rows, want 2", hourRows)
	}
	if err := s.Rollup(ctx); err != nil { // nothing more to do
		t.Fatal(err)
	}
	rolled, err := s.Query(ctx, Global, now.Add(-7*24*time.Hour), now)
	if err != nil {
		t.Fatal(err)
	}
	r := index(t, rolled.Time, base)
	for _, name := range []string{"requests2xx", "p99", "denied"} {
		a, b := week.Series.Requests2xx[h], rolled.Series.Requests2xx[r]
		switch name {
		case "p99":
			a, b = week.Series.LatencyP99Ms[h], rolled.Series.LatencyP99Ms[r]
		case "denied":
			a, b = week.Series.Denied[h], rolled.Series.Denied[r]
		}
		if deref(a) != deref(b) {
			t.Errorf("%s: %v from the minutes, %v rolled up", name, deref(a), deref(b))
		}
	}
	// A restarted leader rolls nothing twice.
	again := NewService(Deps{DB: db, Now: func() time.Time { return now }})
	if err := again.Rollup(ctx); err != nil {
		t.Fatal(err)
	}
	db.Model(&sampleRow{}).Where("res = ?", resHour).Count(&hourRows)
	if hourRows != 2 {
		t.Fatalf("%d hour rows after a second leader's roll-up", hourRows)
	}
	now = base.Add(10 * time.Minute)

	list, err := s.Services(ctx, now.Add(-time.Hour), now, 6)
	if err != nil {
		t.Fatal(err)
	}
	if len(list.Services) != 2 || list.Services[0].ServiceID != "a" || list.Services[0].Requests != 165 ||
		list.Services[0].Errors5xx != 5 || list.Services[1].Requests != 0 || list.StepSeconds != 600 {
		t.Fatalf("list = %+v", list)
	}
	if r := list.Services[0].ErrorRatio; math.Abs(r-5.0/165) > 1e-4 {
		t.Errorf("error ratio = %v", r)
	}
	month, err := s.Services(ctx, now.Add(-30*24*time.Hour), now, 30)
	if err != nil {
		t.Fatal(err)
	}
	if month.StepSeconds != 86400 || month.Services[0].Requests != 165 {
		t.Fatalf("30-day list: step %d, %+v", month.StepSeconds, month.Services[0])
	}

	// Pruning: 49 hours on, the minute rows are gone, the hour rows stay.
	now = base.Add(49 * time.Hour)
	if _, err := s.Prune(ctx); err != nil {
		t.Fatal(err)
	}
	var minutes, hours int64
	db.Model(&sampleRow{}).Where("res = ?", resMinute).Count(&minutes)
	db.Model(&sampleRow{}).Where("res = ?", resHour).Count(&hours)
	if minutes != 0 || hours == 0 {
		t.Fatalf("after pruning: %d minute rows, %d hour rows", minutes, hours)
	}
	now = base.Add(91 * 24 * time.Hour)
	if _, err := s.Prune(ctx); err != nil {
		t.Fatal(err)
	}
	db.Model(&sampleRow{}).Count(&hours)
	if hours != 0 {
		t.Fatalf("%d rows outlived the hour retention", hours)
	}
}

func TestIdleMinutesWriteNothing(t *testing.T) {
	db := testutil.NewDB(t)
	ctx := context.Background()
	src := &takes{queue: []runtime.TrafficTake{
		{Configured: true, Since: base, Health: map[string][2]int{"a": {2, 2}}},                                                     // all up, idle
		{Configured: true, Since: base.Add(time.Minute), Health: map[string][2]int{"a": {0, 2}}},                                    // down: kept
		{Configured: true, Since: base.Add(-time.Hour), Global: delta(1000, 0, 0, 0, 0, nil), Services: map[string]runtime.Delta{}}, // stale
	}}
	s := NewService(Deps{DB: db, Now: func() time.Time { return base.Add(5 * time.Minute) }, Traefik: src})
	for i := range 3 {
		if err := s.StoreTraefik(ctx, base.Add(time.Duration(i)*time.Minute)); err != nil {
			t.Fatal(err)
		}
	}
	var rows []sampleRow
	db.Where("res = ?", resMinute).Find(&rows)
	ids, err := s.series.ids(ctx, db, []seriesKey{{"a", ""}, {Global, ""}}, false)
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 2 {
		t.Fatalf("rows = %+v, want the minute with a backend down only (global and a)", rows)
	}
	for _, r := range rows {
		if r.At != base.Add(time.Minute).Unix() || (r.Series == ids[seriesKey{"a", ""}] && (r.Up != 0 || r.Checks != 2)) {
			t.Errorf("row %+v (series of a: %d)", r, ids[seriesKey{"a", ""}])
		}
	}
	q, err := s.Query(ctx, "nothing", base, base.Add(5*time.Minute))
	if err != nil {
		t.Fatal(err)
	}
	if q.State != StateNoTraffic || q.Reason == "" {
		t.Fatalf("state %q reason %q", q.State, q.Reason)
	}
}

func TestReplicasWriteTheirOwnDecisions(t *testing.T) {
	db := testutil.NewDB(t)
	ctx := context.Background()
	clock := base.Add(5 * time.Minute)
	now := func() time.Time { return clock }
	var svcs [2]*Service
	for i, id := range []string{"replica-a", "replica-b"} {
		svcs[i] = NewService(Deps{DB: db, Now: now, Replica: id})
		c := svcs[i].Recorder().For("svc")
		for range i + 1 {
			c.Observe(DecisionChallenged, time.Millisecond)
		}
		if err := svcs[i].StoreDecisions(ctx, base); err != nil {
			t.Fatal(err)
		}
	}
	for _, id := range []string{"svc", Global} {
		q, err := svcs[0].Query(ctx, id, base, base.Add(5*time.Minute))
		if err != nil {
			t.Fatal(err)
		}
		if c := q.Series.Challenged[0]; c == nil || *c != 3 {
			t.Errorf("%q: challenged = %v, want 3 (1 + 2 from two replicas)", id, deref(c))
		}
		if q.State != StateOK {
			t.Errorf("%q: state = %q", id, q.State)
		}
	}
	q, err := svcs[0].Query(ctx, "svc", base, base.Add(7*24*time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	if c := q.Series.Challenged[0]; c == nil || *c != 3 {
		t.Errorf("hour: challenged = %v, want 3", deref(c))
	}
	// The leader's roll-up sums both replicas into the service's hour.
	clock = base.Add(time.Hour + rollupDelay)
	if err := svcs[1].Rollup(ctx); err != nil {
		t.Fatal(err)
	}
	var hours []decisionRow
	db.Where("res = ?", resHour).Find(&hours)
	if len(hours) != 2 || hours[0].Challenged != 3 || hours[1].Challenged != 3 {
		t.Fatalf("hour rows %+v, want svc and the global row with 3 each", hours)
	}
	q, err = svcs[0].Query(ctx, "svc", base, base.Add(7*24*time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	if c := q.Series.Challenged[0]; c == nil || *c != 3 {
		t.Errorf("rolled-up hour: challenged = %v, want 3", deref(c))
	}
}

func TestNoMetrics(t *testing.T) {
	s := NewService(Deps{DB: testutil.NewDB(t), MetricsReason: "Traefik's metrics are not configured"})
	q, err := s.Query(context.Background(), Global, time.Now().Add(-time.Hour), time.Now())
	if err != nil {
		t.Fatal(err)
	}
	if q.State != StateNoMetrics || q.Reason != "Traefik's metrics are not configured" {
		t.Fatalf("state %q reason %q", q.State, q.Reason)
	}
}

func TestPlanSteps(t *testing.T) {
	now := base
	s := NewService(Deps{Now: func() time.Time { return now }})
	for _, c := range []struct {
		span time.Duration
		step int64
	}{{time.Hour, 60}, {24 * time.Hour, 300}, {7 * 24 * time.Hour, 3600}, {30 * 24 * time.Hour, 7200}, {5 * time.Minute, 60}} {
		p := s.plan(now.Add(-c.span), now, maxPoints)
		if p.step != c.step || p.points() > maxPoints+1 {
			t.Errorf("%v: step %d (%d points), want %d", c.span, p.step, p.points(), c.step)
		}
	}
	// An hour three days ago: the minute rows are gone, hours answer.
	if p := s.plan(now.Add(-72*time.Hour), now.Add(-71*time.Hour), maxPoints); p.step != 3600 || p.res != resHour {
		t.Errorf("old hour: step %d res %d", p.step, p.res)
	}
}

func index(t *testing.T, times []int64, at time.Time) int {
	t.Helper()
	for i, v := range times {
		if v == at.Unix() {
			return i
		}
	}
	t.Fatalf("%v is not a point of %v", at, times)
	return -1
}

func deref(p *float64) any {
	if p == nil {
		return nil
	}
	return *p
}
