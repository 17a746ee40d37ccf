package traffic

import (
	"testing"
	"time"
)

func TestWindow(t *testing.T) {
	now := time.Date(2026, 3, 2, 12, 0, 0, 0, time.UTC)
	tests := []struct {
		name     string
		q        map[string]string
		from, to time.Time
		bad      bool
	}{
		{"default: 24 h", nil, now.Add(-24 * time.Hour), now, false},
		{"7d", map[string]string{"range": "7d"}, now.Add(-7 * 24 * time.Hour), now, false},
		{"from and to", map[string]string{"from": "2026-03-01T00:00:00Z", "to": "2026-03-01T06:00:00Z"},
			time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC), time.Date(2026, 3, 1, 6, 0, 0, 0, time.UTC), false},
		{"to with a range", map[string]string{"range": "1h", "to": "2026-03-01T06:00:00Z"},
			time.Date(2026, 3, 1, 5, 0, 0, 0, time.UTC), time.Date(2026, 3, 1, 6, 0, 0, 0, time.UTC), false},
		{"unknown range", map[string]string{"range": "2y"}, time.Time{}, time.Time{}, true},
		{"bad time", map[string]string{"from": "yesterday"}, time.Time{}, time.Time{}, true},
		{"from after to", map[string]string{"from": "2026-03-02T00:00:00Z", "to": "2026-03-01T00:00:00Z"}, time.Time{}, time.Time{}, true},
		{"too long", map[string]string{"from": "2020-01-01T00:00:00Z"}, time.Time{}, time.Time{}, true},
		{"far future", map[string]string{"to": "2027-01-01T00:00:00Z"}, time.Time{}, time.Time{}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			from, to, err := window(func(k string) string { return tt.q[k] }, now)
			if (err != nil) != tt.bad {
				t.Fatalf("err = %v", err)
			}
			if !tt.bad && (!from.Equal(tt.from) || !to.Equal(tt.to)) {
				t.Fatalf("window = %v .. %v, want %v .. %v", from, to, tt.from, tt.to)
			}
		})
	}
	for _, p := range []string{"0", "201", "x"} {
		if _, err := listPoints(p); err == nil {
			t.Errorf("points %q accepted", p)
		}
	}
	if n, err := listPoints(""); err != nil || n != 24 {
		t.Errorf("default points = %d, %v", n, err)
	}
}

func FuzzWindow(f *testing.F) {
	f.Add("24h", "", "", "12")
	f.Add("", "2026-03-01T00:00:00Z", "2026-03-01T06:00:00+02:00", "")
	f.Add("30d", "9999-12-31T23:59:59Z", "0001-01-01T00:00:00Z", "-1")
	now := time.Date(2026, 3, 2, 12, 0, 0, 0, time.UTC)
	s := NewService(Deps{Now: func() time.Time { return now }})
	f.Fuzz(func(t *testing.T, rng, from, to, points string) {
		q := map[string]string{"range": rng, "from": from, "to": to}
		a, b, err := window(func(k string) string { return q[k] }, now)
		if _, perr := listPoints(points); err != nil || perr != nil {
			return
		}
		if !a.Before(b) || b.Sub(a) > maxSpan {
			t.Fatalf("accepted %v .. %v", a, b)
		}
		if p := s.plan(a, b, maxPoints); p.points() > 2*maxPoints+2 || p.step <= 0 {
			t.Fatalf("plan %+v has %d points", p, p.points())
		}
	})
}
