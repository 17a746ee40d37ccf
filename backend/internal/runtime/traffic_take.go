package runtime

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	dto "github.com/prometheus/client_model/go"
)

// Delta is what some Traefik services did over a stretch of scrapes.
type Delta struct {
	Classes  [4]float64 // responses by status class, 2xx..5xx
	BytesIn  float64    // request bytes
	BytesOut float64    // response bytes
	// Buckets are the request-duration histogram's increments by upper
	// bound in seconds (+Inf included), cumulative as Prometheus keeps
	// them: Buckets[b] is how many requests took at most b seconds.
	Buckets map[float64]float64
}

// Add adds o to d.
func (d *Delta) Add(o Delta) {
	for i := range d.Classes {
		d.Classes[i] += o.Classes[i]
	}
	d.BytesIn += o.BytesIn
	d.BytesOut += o.BytesOut
	for b, n := range o.Buckets {
		if d.Buckets == nil {
			d.Buckets = map[float64]float64{}
		}
		d.Buckets[b] += n
	}
}

// Requests is the number of responses counted.
func (d *Delta) Requests() float64 { return d.Classes[0] + d.Classes[1] + d.Classes[2] + d.Classes[3] }

// pend returns the pending figures of Traefik service svc.
func (s *Scraper) pend(svc string) *Delta {
	if s.pending == nil {
		s.pending = map[string]*Delta{}
		s.pendingSince = s.now()
	}
	d := s.pending[svc]
	if d == nil {
		d = &Delta{}
		s.pending[svc] = d
	}
	return d
}

// pendBuckets adds the increments of one duration histogram series (key)
// to the pending figures; count is its sample count's increment (the +Inf
// bucket). delta is record's. Every bound of a series that counted
// requests is kept, those that gained nothing too: an empty bucket below
// the busy ones is what a percentile is interpolated from (a 20 ms
// median read from the 0.02-0.025 bucket, not from 0 to 0.025).
func (s *Scraper) pendBuckets(svc, key string, h *dto.Histogram, count float64, delta func(string, float64) float64) {
	busy := count != 0
	add := func(bound, v float64) {
		if !busy {
			return
		}
		d := s.pend(svc)
		if d.Buckets == nil {
			d.Buckets = map[float64]float64{}
		}
		d.Buckets[bound] += v
	}
	for _, b := range h.GetBucket() {
		ub := b.GetUpperBound()
		if math.IsInf(ub, 1) {
			continue // the sample count is +Inf
		}
		add(ub, delta("b|"+key+"|"+strconv.FormatFloat(ub, 'g', -1, 64), float64(b.GetCumulativeCount())))
	}
	add(math.Inf(1), count)
}

// accumulateBytes adds one scrape's request and response bytes per
// Traefik service to the pending figures. delta is record's.
func (s *Scraper) accumulateBytes(fams map[string]*dto.MetricFamily, delta func(string, float64) float64) {
	for _, name := range [...]string{metricBytesIn, metricBytesOut} {
		f := fams[name]
		if f == nil {
			continue
		}
		for _, m := range f.GetMetric() {
			svc, _ := labels(m)
			if svc == "" || m.GetCounter() == nil {
				continue
			}
			v := delta(name+"|"+seriesKey(m), m.GetCounter().GetValue())
			if v == 0 {
				continue
			}
			if name == metricBytesIn {
				s.pend(svc).BytesIn += v
			} else {
				s.pend(svc).BytesOut += v
			}
		}
	}
}

// Take returns what each Traefik service did since the last Take (or
// since the scraper started), and since when; it starts afresh. A nil
// Scraper has nothing.
func (s *Scraper) Take() (map[string]Delta, time.Time) {
	if s == nil {
		return nil, time.Time{}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make(map[string]Delta, len(s.pending))
	for k, d := range s.pending {
		out[k] = *d
	}
	since := s.pendingSince
	s.pending, s.pendingSince = map[string]*Delta{}, s.now()
	return out, since
}

// TrafficTake is what Traefik did since the last TakeTraffic, attributed
// to panel services, and their backends' health now.
type TrafficTake struct {
	// Configured says Traefik's metrics are read at all; Error says why
	// the figures are missing or partial ("" when they are whole).
	Configured bool
	Error      string
	Since      time.Time
	Global     Delta            // every Traefik service, the panel's or not
	Services   map[string]Delta // by panel service id, those with traffic
	// Health is, by panel service id, how many of its servers Traefik
	// sees up and how many it has a status for (UP or DOWN).
	Health map[string][2]int
}

// TakeTraffic takes the scraper's pending figures and files them under
// the panel services whose routers use each Traefik service. Without
// Traefik's API only the global figures are known.
func (s *Service) TakeTraffic(ctx context.Context) TrafficTake {
	out := TrafficTake{Services: map[string]Delta{}, Health: map[string][2]int{}}
	if s.d.Scraper == nil {
		out.Error = "Traefik's metrics are not configured: set PANEL_PROXY_API_URL or PANEL_PROXY_METRICS_URL"
		return out
	}
	out.Configured = true
	ms := s.d.Scraper.state()
	if ms.lastErr != nil {
		out.Error = ms.lastErr.Error()
	}
	byName, since := s.d.Scraper.Take()
	out.Since = since
	for _, d := range byName {
		out.Global.Add(d)
	}
	raw, st := s.fetchRaw(ctx)
	if raw == nil {
		if out.Error == "" {
			out.Error = st.Error
		}
		return out
	}
	panel, byService, err := s.panelServicesInTraefik(ctx, raw)
	if err != nil {
		out.Error = err.Error()
		return out
	}
	for _, ps := range panel {
		var d Delta
		var up, known int
		for _, n := range byService[ps.id] {
			d.Add(byName[n])
			var info rawInfo
			if b, ok := raw.Services[n]; ok && json.Unmarshal(b, &info) == nil {
				for _, st := range info.ServerStatus {
					switch strings.ToUpper(st) {
					case "UP":
						up++
						known++
					case "DOWN":
						known++
					}
				}
			}
		}
		if d.Requests() > 0 || len(d.Buckets) > 0 {
			out.Services[ps.id] = d
		}
		if known > 0 {
			out.Health[ps.id] = [2]int{up, known}
		}
	}
	return out
}

// TraefikNames maps each enabled panel service's id to the Traefik
// services its routers use (qualified, as Traefik's metrics label them).
func (s *Service) TraefikNames(ctx context.Context) (map[string][]string, error) {
	raw, st := s.fetchRaw(ctx)
	if raw == nil {
		return nil, fmt.Errorf("traefik's API: %s", st.Error)
	}
	_, byService, err := s.panelServicesInTraefik(ctx, raw)
	return byService, err
}
