package alerts

import (
	"math"
	"testing"
	"time"
)

var t0 = time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)

// minutesOf builds one sample per minute ending at t0 (the last starts at
// t0-1m), from f(i) for i = 0 (oldest) .. n-1.
func minutesOf(n int, f func(i int) Sample) []Sample {
	out := make([]Sample, 0, n)
	for i := range n {
		s := f(i)
		s.At = t0.Add(time.Duration(i-n) * time.Minute)
		out = append(out, s)
	}
	return out
}

func f64(v float64) *float64 { return &v }

func TestAssess(t *testing.T) {
	steady := func(req, errs float64) func(int) Sample {
		return func(int) Sample { return Sample{Requests: req, Errors5xx: errs} }
	}
	cases := []struct {
		name           string
		kind           Kind
		threshold      float64
		forMinutes     int
		samples        []Sample
		fire, recovers bool
		value          *float64
	}{
		{"5xx above for every minute", ErrorRatio, 5, 3, minutesOf(3, steady(100, 10)), true, false, f64(10)},
		{"5xx above but one minute below", ErrorRatio, 5, 3, minutesOf(3, func(i int) Sample {
			if i == 1 {
				return Sample{Requests: 100, Errors5xx: 1}
			}
			return Sample{Requests: 100, Errors5xx: 10}
		}), false, false, f64(7)},
		{"5xx exactly at the threshold", ErrorRatio, 5, 3, minutesOf(3, steady(100, 5)), false, true, f64(5)},
		{"5xx with a quiet first minute", ErrorRatio, 5, 3, minutesOf(2, steady(100, 50)), false, false, f64(50)},
		{"no requests at all", ErrorRatio, 5, 3, nil, false, true, nil},
		{"p95 above", LatencyP95, 200, 2, minutesOf(2, func(i int) Sample {
			return Sample{Requests: 1, P95Ms: f64(250 + float64(i))}
		}), true, false, f64(251)},
		{"p95 unknown in a minute", LatencyP95, 200, 2, minutesOf(1, func(int) Sample { return Sample{Requests: 1, P95Ms: f64(900)} }), false, false, f64(900)},
		{"traffic stopped", NoTraffic, 0, 5, minutesOf(30, func(i int) Sample {
			if i < 20 {
				return Sample{Requests: 10}
			}
			return Sample{}
		}), true, false, f64(0)},
		{"never had traffic", NoTraffic, 0, 5, nil, false, false, f64(0)},
		{"traffic still flowing", NoTraffic, 0, 5, minutesOf(30, steady(1, 0)), false, true, f64(0)},
		{"backend down", BackendDown, 0, 2, minutesOf(2, func(int) Sample { return Sample{Up: f64(0.5)} }), true, false, f64(50)},
		{"backend health unknown", BackendDown, 0, 2, nil, false, false, nil},
		{"backends up", BackendDown, 0, 2, minutesOf(2, func(int) Sample { return Sample{Up: f64(1)} }), false, true, f64(100)},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			a := assess(tc.kind, tc.threshold, tc.forMinutes, tc.samples, t0)
			if a.fire != tc.fire || a.recovered != tc.recovers {
				t.Fatalf("fire, recovered = %v, %v; want %v, %v", a.fire, a.recovered, tc.fire, tc.recovers)
			}
			if (a.value == nil) != (tc.value == nil) || (a.value != nil && math.Abs(*a.value-*tc.value) > 1e-9) {
				t.Fatalf("value = %v, want %v", deref(a.value), deref(tc.value))
			}
		})
	}
}

func deref(p *float64) any {
	if p == nil {
		return nil
	}
	return *p
}

// TestAssessIgnoresOutsideTheWindow: minutes before the rule's window (or
// at and after its end) decide nothing.
func TestAssessIgnoresOutsideTheWindow(t *testing.T) {
	s := []Sample{
		{At: t0.Add(-10 * time.Minute), Requests: 100, Errors5xx: 0},
		{At: t0.Add(-2 * time.Minute), Requests: 100, Errors5xx: 90},
		{At: t0.Add(-1 * time.Minute), Requests: 100, Errors5xx: 90},
		{At: t0, Requests: 100, Errors5xx: 0},
	}
	if a := assess(ErrorRatio, 50, 2, s, t0); !a.fire {
		t.Fatal("the two minutes of the window breach; it did not fire")
	}
}
