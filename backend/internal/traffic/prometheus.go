package traffic

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"net/http"
	"net/url"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"
)

// Prometheus answers the charts' Traefik figures with PromQL range
// queries (PANEL_PROMETHEUS_URL): where a Prometheus already scrapes
// Traefik, it holds every node's series and keeps them as long as it is
// told to.
type Prometheus struct {
	base *url.URL
	hc   *http.Client
}

// DefaultPrometheusTimeout bounds one range query.
const DefaultPrometheusTimeout = 10 * time.Second

// maxPromBody bounds what is read of one answer.
const maxPromBody = 32 << 20

// NewPrometheus returns a client of the Prometheus at rawURL (its base,
// e.g. http://prometheus:9090), or nil when rawURL is empty.
func NewPrometheus(rawURL string, timeout time.Duration) (*Prometheus, error) {
	if rawURL == "" {
		return nil, nil
	}
	u, err := url.Parse(strings.TrimRight(rawURL, "/"))
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("%q must be an absolute http:// or https:// URL", rawURL)
	}
	if timeout <= 0 {
		timeout = DefaultPrometheusTimeout
	}
	return &Prometheus{base: u, hc: &http.Client{Timeout: timeout}}, nil
}

// promSeries is one series of a range query's answer.
type promSeries struct {
	Metric map[string]string `json:"metric"`
	Values [][2]any          `json:"values"`
}

type promAnswer struct {
	Status    string `json:"status"`
	ErrorType string `json:"errorType"`
	Error     string `json:"error"`
	Data      struct {
		ResultType string       `json:"resultType"`
		Result     []promSeries `json:"result"`
	} `json:"data"`
}

// rangeQuery runs query over p: each evaluation at t covers the step
// ending at t, which is the point t-step. each gets the series, the
// point index and the value.
func (pr *Prometheus) rangeQuery(ctx context.Context, query string, p plan, each func(s *promSeries, i int, v float64)) error {
	q := url.Values{}
	q.Set("query", query)
	q.Set("start", strconv.FormatInt(p.first+p.step, 10))
	q.Set("end", strconv.FormatInt(p.last+p.step, 10))
	q.Set("step", strconv.FormatInt(p.step, 10))
	u := *pr.base
	u.Path += "/api/v1/query_range"
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, u.String(), strings.NewReader(q.Encode()))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	resp, err := pr.hc.Do(req)
	if err != nil {
		return fmt.Errorf("cannot reach Prometheus at %s: %w", pr.base.Redacted(), err)
	}
	defer func() { _ = resp.Body.Close() }()
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxPromBody))
	if err != nil {
		return fmt.Errorf("read Prometheus answer: %w", err)
	}
	var a promAnswer
	if err := json.Unmarshal(body, &a); err != nil {
		return fmt.Errorf("prometheus at %s answered HTTP %d, not its API's JSON", pr.base.Redacted(), resp.StatusCode)
	}
	if a.Status != "success" {
		return fmt.Errorf("prometheus refused the query (%s): %s", a.ErrorType, a.Error)
	}
	for k := range a.Data.Result {
		s := &a.Data.Result[k]
		for _, pair := range s.Values {
			ts, ok1 := pair[0].(float64)
			vs, ok2 := pair[1].(string)
			if !ok1 || !ok2 {
				continue
			}
			v, err := strconv.ParseFloat(vs, 64)
			if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
				continue
			}
			i := int((int64(math.Round(ts)) - p.step - p.first) / p.step)
			if i >= 0 && i < p.points() {
				each(s, i, v)
			}
		}
	}
	return nil
}

// selector is the label matcher of Traefik services names ("" for all).
// ok is false when a service has no Traefik service (nothing to ask).
func selector(names []string, global bool) (string, bool) {
	if global {
		return "", true
	}
	if len(names) == 0 {
		return "", false
	}
	quoted := make([]string, len(names))
	for i, n := range names {
		quoted[i] = regexp.QuoteMeta(n)
	}
	return `{service=~` + strconv.Quote(strings.Join(quoted, "|")) + `}`, true
}

// Names maps panel service ids to the Traefik services their routers use.
type Names func(ctx context.Context) (map[string][]string, error)

// fill puts Traefik's figures for serviceID into g.
func (pr *Prometheus) fill(ctx context.Context, g *grid, serviceID string, names Names) error {
	var ns []string
	if serviceID != Global {
		m, err := names(ctx)
		if err != nil {
			return err
		}
		ns = m[serviceID]
	}
	sel, ok := selector(ns, serviceID == Global)
	n := g.points()
	g.upKnown = make([]bool, n)
	qs := [3][]*float64{make([]*float64, n), make([]*float64, n), make([]*float64, n)}
	g.quantiles = &qs
	if !ok {
		return nil
	}
	w := "[" + strconv.FormatInt(g.step, 10) + "s]"
	if err := pr.rangeQuery(ctx, "sum by (code) (increase(traefik_service_requests_total"+sel+w+"))", g.plan,
		func(s *promSeries, i int, v float64) {
			if c := s.Metric["code"]; len(c) == 3 && c[0] >= '2' && c[0] <= '5' {
				g.classes[c[0]-'2'][i] += v
				g.samples = g.samples || v > 0
			}
		}); err != nil {
		return err
	}
	for _, b := range [...]struct {
		metric string
		into   []float64
	}{{"traefik_service_requests_bytes_total", g.bytesIn}, {"traefik_service_responses_bytes_total", g.bytesOut}} {
		if err := pr.rangeQuery(ctx, "sum(increase("+b.metric+sel+w+"))", g.plan,
			func(_ *promSeries, i int, v float64) { b.into[i] += v }); err != nil {
			return err
		}
	}
	for k, q := range [3]string{"0.5", "0.95", "0.99"} {
		if err := pr.rangeQuery(ctx, "histogram_quantile("+q+", sum by (le) (increase(traefik_service_request_duration_seconds_bucket"+
			sel+w+")))", g.plan, func(_ *promSeries, i int, v float64) {
			ms := roundTo(v*1000, 3)
			qs[k][i] = &ms
		}); err != nil {
			return err
		}
	}
	return pr.rangeQuery(ctx, "avg(avg_over_time(traefik_service_server_up"+sel+w+"))", g.plan,
		func(_ *promSeries, i int, v float64) { g.up[i], g.upKnown[i] = roundTo(v, 4), true })
}

// services fills the list's requests, 5xx and sparklines by panel service.
func (pr *Prometheus) services(ctx context.Context, p plan, byID map[string]*ServiceTraffic, names Names) (bool, error) {
	m, err := names(ctx)
	if err != nil {
		return false, err
	}
	owner := map[string]string{}
	for id, ns := range m {
		for _, n := range ns {
			owner[n] = id
		}
	}
	w := "[" + strconv.FormatInt(p.step, 10) + "s]"
	var found bool
	err = pr.rangeQuery(ctx, "sum by (service, code) (increase(traefik_service_requests_total"+w+"))", p,
		func(s *promSeries, i int, v float64) {
			st := byID[owner[s.Metric["service"]]]
			if st == nil {
				return
			}
			n := toInt(v)
			found = found || n > 0
			st.Requests += n
			st.Points[i] += n
			if strings.HasPrefix(s.Metric["code"], "5") {
				st.Errors5xx += n
			}
		})
	return found, err
}

// promNames asks runtime which Traefik services each panel service uses.
func (s *Service) promNames(ctx context.Context) (map[string][]string, error) {
	if s.d.Traefik == nil {
		return map[string][]string{}, nil
	}
	m, err := s.d.Traefik.TraefikNames(ctx)
	if err != nil {
		return nil, err
	}
	for _, ns := range m {
		sort.Strings(ns)
	}
	return m, nil
}
