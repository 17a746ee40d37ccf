package status

import (
	"context"
	"fmt"
	"math"
	"time"

	"github.com/gatehouse-proxy/gatehouse/internal/runtime"
)

// Prober looks at Traefik's API and metrics once, uncached (runtime.Service).
type Prober interface {
	Probe(ctx context.Context) runtime.Probe
}

// Check states.
const (
	CheckOK      = "ok"
	CheckWarning = "warning" // works, but something is missing or optional is off
	CheckFailed  = "failed"
)

// CheckItem is one part of the connection test, said as a person would.
type CheckItem struct {
	Name   string `json:"name"` // provider, api, metrics
	State  string `json:"state"`
	Answer string `json:"answer"` // what was found
	Hint   string `json:"hint"`   // what to do, "" when nothing
	Detail string `json:"detail"` // the technical cause, for the folded details
}

// Check is GET /api/proxy/status/check: whether Traefik polls the panel,
// and whether its API and metrics answer.
type Check struct {
	State   string      `json:"state"`
	Summary string      `json:"summary"`
	Items   []CheckItem `json:"items"`
	At      time.Time   `json:"at"`
}

// Check runs the connection test now.
func (s *Service) Check(ctx context.Context) (Check, error) {
	pv, err := s.Polls(ctx)
	if err != nil {
		return Check{}, err
	}
	var p runtime.Probe
	if s.d.Prober != nil {
		p = s.d.Prober.Probe(ctx)
	}
	items := []CheckItem{providerItem(pv), apiItem(p), metricsItem(p)}
	c := Check{State: CheckOK, Items: items, At: s.d.Now()}
	for _, it := range items {
		if it.State == CheckFailed {
			c.State = CheckFailed
		} else if it.State == CheckWarning && c.State == CheckOK {
			c.State = CheckWarning
		}
	}
	switch {
	case items[0].State == CheckFailed:
		c.Summary = "Traefik is not fetching the panel's configuration, so your services are not served through it yet."
	case items[0].State == CheckWarning:
		c.Summary = "Traefik fetched the configuration before but has stopped; recent changes are not applied."
	case c.State == CheckOK:
		c.Summary = "Traefik is connected: it fetches the configuration, and its API and metrics answer."
	default:
		c.Summary = "Traefik fetches the configuration, so your services are served. The live views need the points below."
	}
	return c, nil
}

func providerItem(pv PollView) CheckItem {
	it := CheckItem{Name: "provider"}
	where := pv.ConfigURL + "/api/proxy/config"
	switch {
	case !pv.Polled || pv.Last == nil:
		it.State = CheckFailed
		it.Answer = "Traefik has not fetched the configuration since the panel started."
		it.Hint = fmt.Sprintf("Add the HTTP provider from the traefik.yml below to Traefik's static configuration, make sure Traefik can reach %s, and restart Traefik.", where)
	case pv.Stopped:
		it.State = CheckWarning
		it.Answer = fmt.Sprintf("Traefik last fetched the configuration %s and has stopped (it fetched about every %s).",
			Ago(pv.AgeSeconds), roundDuration(pv.IntervalSeconds))
		it.Hint = fmt.Sprintf("Check that Traefik is running and can still reach %s.", where)
	default:
		it.State = CheckOK
		it.Answer = fmt.Sprintf("Traefik fetched the configuration %s", Ago(pv.AgeSeconds))
		if pv.Last.Remote != "" {
			it.Answer += " from " + pv.Last.Remote
		}
		it.Answer += "."
	}
	return it
}

func apiItem(p runtime.Probe) CheckItem {
	it := CheckItem{Name: "api"}
	switch {
	case !p.APIConfigured:
		it.State = CheckWarning
		it.Answer = "The panel does not read Traefik's API: PANEL_PROXY_API_URL is not set."
		it.Hint = "Optional, for live routers, certificates and health: enable api in traefik.yml (as below) and set PANEL_PROXY_API_URL on the panel, then restart it."
	case p.APIError != "":
		it.State = CheckFailed
		it.Answer = fmt.Sprintf("Traefik's API does not answer at %s.", p.APIURL)
		it.Hint = "Check that traefik.yml has api.insecure: true, that Traefik runs, and that the panel can reach that address (a container's name from another container, 127.0.0.1 on the same host)."
		it.Detail = p.APIError
	default:
		it.State = CheckOK
		it.Answer = fmt.Sprintf("Traefik %s answers at %s.", p.APIVersion, p.APIURL)
	}
	return it
}

func metricsItem(p runtime.Probe) CheckItem {
	it := CheckItem{Name: "metrics"}
	switch {
	case !p.MetricsConfigured:
		it.State = CheckWarning
		it.Answer = "The panel does not read Traefik's metrics: neither PANEL_PROXY_API_URL nor PANEL_PROXY_METRICS_URL is set."
		it.Hint = "Optional, for traffic per service: enable metrics.prometheus in traefik.yml (as below) and set PANEL_PROXY_API_URL."
	case p.MetricsError != "":
		it.State = CheckFailed
		it.Answer = fmt.Sprintf("Traefik's metrics do not answer at %s.", p.MetricsURL)
		it.Hint = "Check that traefik.yml has metrics.prometheus (as below) on the API's entrypoint, and that PANEL_PROXY_METRICS_URL, if set, points at it."
		it.Detail = p.MetricsError
	default:
		it.State = CheckOK
		it.Answer = fmt.Sprintf("Traefik's metrics answer at %s.", p.MetricsURL)
	}
	return it
}

// Ago says how long ago something happened as a person would: "just now",
// "12 seconds ago", "3 minutes ago", "2 hours ago".
func Ago(seconds float64) string {
	s := int(math.Round(math.Max(0, seconds)))
	switch {
	case s < 5:
		return "just now"
	case s < 120:
		return fmt.Sprintf("%d seconds ago", s)
	case s < 7200:
		return fmt.Sprintf("%d minutes ago", int(math.Round(float64(s)/60)))
	}
	return fmt.Sprintf("%d hours ago", int(math.Round(float64(s)/3600)))
}

func roundDuration(seconds float64) time.Duration {
	return time.Duration(math.Round(seconds)) * time.Second
}
