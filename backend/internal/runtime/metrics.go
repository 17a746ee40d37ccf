package runtime

import (
	"context"
	"fmt"
	"hash/maphash"
	"io"
	"net/http"
	"net/url"
	"sort"
	"strings"
	"sync"
	"time"

	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"

	"github.com/gatehouse-proxy/gatehouse/internal/background"
)

// Traefik's per-service Prometheus series (labels: service, code, method, protocol).
const (
	metricRequests = "traefik_service_requests_total"
	metricDuration = "traefik_service_request_duration_seconds"
	metricBytesIn  = "traefik_service_requests_bytes_total"
	metricBytesOut = "traefik_service_responses_bytes_total"
	// rateSpan is how far back the current request rate looks.
	rateSpan = time.Minute
)

// Defaults for the metrics window.
const (
	DefaultScrapeInterval = 10 * time.Second
	DefaultWindow         = 60 // points, so 10 minutes at the default interval
)

// traffic is what one Traefik service did between two scrapes.
type traffic struct {
	requests float64
	classes  [4]float64 // 2xx, 3xx, 4xx, 5xx
	durSum   float64
	durCount float64
}

func (t *traffic) add(o traffic) {
	t.requests += o.requests
	for i := range t.classes {
		t.classes[i] += o.classes[i]
	}
	t.durSum += o.durSum
	t.durCount += o.durCount
}

// sample is one scrape's deltas: at, the seconds since the previous
// successful scrape, and the traffic per Traefik service name.
type sample struct {
	at       time.Time
	seconds  float64
	services map[string]traffic
}

// Scraper reads Traefik's Prometheus endpoint on an interval and keeps the
// per-service deltas of a bounded window. Counters are turned into deltas per
// series; a counter that went down (Traefik restarted) counts from zero, the
// way Prometheus's rate() treats resets.
type Scraper struct {
	url    *url.URL
	hc     *http.Client
	now    func() time.Time
	window int

	mu sync.Mutex
	// prev is each series' last counter value, by a 64-bit hash of its
	// key: with the histogram buckets kept for the traffic history, a
	// Traefik of 10,000 services has some 300,000 series, whose keys as
	// strings would hold tens of megabytes between scrapes.
	prev      map[uint64]float64
	seed      maphash.Seed
	lastAt    time.Time // last successful scrape
	samples   []sample  // oldest first, at most window
	lastErr   error
	attempted bool
	// pending is what each Traefik service did since the last Take, for
	// the traffic history (the same scrape feeds both).
	pending      map[string]*Delta
	pendingSince time.Time
}

// NewScraper returns a scraper for metricsURL, or nil when it is empty.
func NewScraper(metricsURL string, timeout time.Duration, window int, now func() time.Time) (*Scraper, error) {
	if metricsURL == "" {
		return nil, nil
	}
	u, err := url.Parse(metricsURL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("metrics URL %q must be an absolute http:// or https:// URL", metricsURL)
	}
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	if window <= 0 {
		window = DefaultWindow
	}
	if now == nil {
		now = time.Now
	}
	return &Scraper{url: u, hc: newHTTPClient(timeout), now: now, window: window, prev: map[uint64]float64{},
		seed: maphash.MakeSeed()}, nil
}

// Loops are the background work every replica runs: scraping Traefik's
// metrics every DefaultScrapeInterval (each replica shows its own rates).
// A nil Scraper (no metrics URL) has none.
func (s *Scraper) Loops() []background.Loop {
	if s == nil {
		return nil
	}
	return []background.Loop{background.Every("Traefik metrics scrape", DefaultScrapeInterval, s.Scrape)}
}

// Scrape reads the endpoint once and records the deltas. Errors are kept for
// the metrics view rather than returned: the loop has nobody to tell.
func (s *Scraper) Scrape(ctx context.Context) {
	fams, err := s.fetch(ctx)
	s.mu.Lock()
	defer s.mu.Unlock()
	s.attempted = true
	s.lastErr = err
	if err != nil {
		return
	}
	s.record(fams, s.now())
}

func (s *Scraper) fetch(ctx context.Context) (map[string]*dto.MetricFamily, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, s.url.String(), nil)
	if err != nil {
		return nil, err
	}
	// Ask for the plain text format so the text parser applies.
	req.Header.Set("Accept", "text/plain;version=0.0.4")
	resp, err := s.hc.Do(req)
	if err != nil {
		return nil, fmt.Errorf("cannot reach Traefik metrics at %s: %s", redact(s.url), reason(err, s.hc.Timeout))
	}
	defer func() { _ = resp.Body.Close() }() // read-only: nothing to report
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("traefik metrics at %s answered HTTP %d (is metrics.prometheus enabled?)", redact(s.url), resp.StatusCode)
	}
	p := expfmt.NewTextParser(model.UTF8Validation)
	fams, err := p.TextToMetricFamilies(io.LimitReader(resp.Body, maxBody))
	if err != nil {
		return nil, fmt.Errorf("traefik metrics at %s are not in Prometheus text format: %w", redact(s.url), err)
	}
	return fams, nil
}

// record turns counters into deltas against the previous scrape. The first
// scrape only sets the baseline. A series first seen after the baseline
// counts fully: Traefik creates series on their first request.
func (s *Scraper) record(fams map[string]*dto.MetricFamily, now time.Time) {
	baseline := s.lastAt.IsZero()
	cur := make(map[uint64]float64, len(s.prev))
	deltas := map[string]traffic{}
	delta := func(key string, v float64) float64 {
		h := maphash.String(s.seed, key)
		cur[h] = v
		old, seen := s.prev[h]
		switch {
		case baseline:
			return 0
		case !seen || v < old: // new series, or a counter reset
			return v
		default:
			return v - old
		}
	}
	if f := fams[metricRequests]; f != nil {
		for _, m := range f.GetMetric() {
			svc, code := labels(m)
			if svc == "" || m.GetCounter() == nil {
				continue
			}
			d := delta("r|"+seriesKey(m), m.GetCounter().GetValue())
			t := deltas[svc]
			t.requests += d
			if c := classOf(code); c >= 0 {
				t.classes[c] += d
				if d != 0 {
					s.pend(svc).Classes[c] += d
				}
			}
			deltas[svc] = t
		}
	}
	if f := fams[metricDuration]; f != nil {
		for _, m := range f.GetMetric() {
			svc, _ := labels(m)
			h := m.GetHistogram()
			if svc == "" || h == nil {
				continue
			}
			key := seriesKey(m)
			t := deltas[svc]
			t.durSum += delta("s|"+key, h.GetSampleSum())
			n := delta("c|"+key, float64(h.GetSampleCount()))
			t.durCount += n
			deltas[svc] = t
			s.pendBuckets(svc, key, h, n, delta)
		}
	}
	s.accumulateBytes(fams, delta)
	if !baseline {
		s.samples = append(s.samples, sample{at: now, seconds: now.Sub(s.lastAt).Seconds(), services: deltas})
		if over := len(s.samples) - s.window; over > 0 {
			s.samples = append(s.samples[:0:0], s.samples[over:]...)
		}
	}
	s.prev = cur
	s.lastAt = now
}

func labels(m *dto.Metric) (service, code string) {
	for _, l := range m.GetLabel() {
		switch l.GetName() {
		case "service":
			service = l.GetValue()
		case "code":
			code = l.GetValue()
		}
	}
	return service, code
}

// seriesKey identifies a series by its sorted label pairs.
func seriesKey(m *dto.Metric) string {
	parts := make([]string, 0, len(m.GetLabel()))
	for _, l := range m.GetLabel() {
		parts = append(parts, l.GetName()+"="+l.GetValue())
	}
	sort.Strings(parts)
	return strings.Join(parts, ",")
}

// classOf maps an HTTP status code to 0..3 for 2xx..5xx, or -1.
func classOf(code string) int {
	if len(code) != 3 || code[0] < '2' || code[0] > '5' {
		return -1
	}
	return int(code[0] - '2')
}

// metricsState is what the metrics view reads, under the lock.
type metricsState struct {
	attempted bool
	lastErr   error
	samples   []sample
}

func (s *Scraper) state() metricsState {
	s.mu.Lock()
	defer s.mu.Unlock()
	return metricsState{attempted: s.attempted, lastErr: s.lastErr, samples: append([]sample(nil), s.samples...)}
}

// HistoryPoint is one sparkline point.
type HistoryPoint struct {
	At          time.Time `json:"at"`
	RequestRate float64   `json:"requestRate"`
	ErrorRate   float64   `json:"errorRate"`
}

// StatusCounts are responses per status class over the window.
type StatusCounts struct {
	S2xx float64 `json:"2xx"`
	S3xx float64 `json:"3xx"`
	S4xx float64 `json:"4xx"`
	S5xx float64 `json:"5xx"`
}

// Traffic is one panel service's traffic summary.
type Traffic struct {
	RequestRate   float64        `json:"requestRate"`
	Requests      float64        `json:"requests"`
	Status        StatusCounts   `json:"status"`
	ErrorRate     float64        `json:"errorRate"`
	AvgLatencyMs  float64        `json:"avgLatencyMs"`
	WindowSeconds float64        `json:"windowSeconds"`
	History       []HistoryPoint `json:"history"`
}

// summarize adds up the traffic of the given Traefik services (a panel
// service may own more than one) over the samples.
func summarize(samples []sample, names []string) Traffic {
	out := Traffic{History: make([]HistoryPoint, 0, len(samples))}
	var total traffic
	var recent traffic
	var recentSecs float64
	var latest time.Time
	if len(samples) > 0 {
		latest = samples[len(samples)-1].at
	}
	for _, smp := range samples {
		var t traffic
		for _, n := range names {
			t.add(smp.services[n])
		}
		total.add(t)
		out.WindowSeconds += smp.seconds
		if latest.Sub(smp.at) < rateSpan {
			recent.add(t)
			recentSecs += smp.seconds
		}
		p := HistoryPoint{At: smp.at.UTC()}
		if smp.seconds > 0 {
			p.RequestRate = round(t.requests/smp.seconds, 3)
		}
		if t.requests > 0 {
			p.ErrorRate = round(t.classes[3]/t.requests, 4)
		}
		out.History = append(out.History, p)
	}
	if recentSecs > 0 {
		out.RequestRate = round(recent.requests/recentSecs, 3)
	}
	out.Requests = total.requests
	out.Status = StatusCounts{total.classes[0], total.classes[1], total.classes[2], total.classes[3]}
	if total.requests > 0 {
		out.ErrorRate = round(total.classes[3]/total.requests, 4)
	}
	if total.durCount > 0 {
		out.AvgLatencyMs = round(total.durSum/total.durCount*1000, 2)
	}
	out.WindowSeconds = round(out.WindowSeconds, 1)
	return out
}

func round(v float64, digits int) float64 {
	p := 1.0
	for range digits {
		p *= 10
	}
	if v >= 0 {
		return float64(int64(v*p+0.5)) / p
	}
	return -float64(int64(-v*p+0.5)) / p
}
