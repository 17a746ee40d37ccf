package alerts

import (
	"encoding/json"
	"testing"
	"unicode/utf8"
)

// FuzzNormalize: whatever JSON arrives, normalize never panics, and what
// it accepts stays within the bounds the evaluation and the database rely on.
func FuzzNormalize(f *testing.F) {
	for _, s := range []string{
		`{"name":"x","kind":"error_ratio","threshold":5,"forMinutes":3}`,
		`{"name":"x","serviceId":" s1 ","kind":"latency_p95","threshold":600000,"forMinutes":1440}`,
		`{"name":"\u0000","kind":"no_traffic","threshold":-1,"forMinutes":0}`,
		`{"name":"x","serviceId":"","kind":"backend_down","threshold":1e308,"forMinutes":1}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var req RuleRequest
		if json.Unmarshal(data, &req) != nil {
			return
		}
		out, err := normalize(req)
		if err != nil {
			return
		}
		if n := utf8.RuneCountInString(out.Name); n < 1 || n > maxName || !utf8.ValidString(out.Name) {
			t.Fatalf("accepted name %q", out.Name)
		}
		if out.ForMinutes < 1 || out.ForMinutes > maxForMinutes {
			t.Fatalf("accepted forMinutes %d", out.ForMinutes)
		}
		if out.ServiceID != nil && (*out.ServiceID == "" || len(*out.ServiceID) > maxIDLen) {
			t.Fatalf("accepted serviceId %q", *out.ServiceID)
		}
		switch out.Kind {
		case ErrorRatio:
			if !(out.Threshold > 0 && out.Threshold <= 100) {
				t.Fatalf("accepted ratio %v", out.Threshold)
			}
		case LatencyP95:
			if !(out.Threshold >= 1 && out.Threshold <= maxLatencyMs) {
				t.Fatalf("accepted latency %v", out.Threshold)
			}
		case NoTraffic, BackendDown:
			if out.Threshold != 0 {
				t.Fatalf("kept threshold %v", out.Threshold)
			}
		default:
			t.Fatalf("accepted kind %q", out.Kind)
		}
	})
}
