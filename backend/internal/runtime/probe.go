package runtime

import (
	"context"
	"errors"
	"fmt"
)

// Probe is one uncached look at Traefik's API and metrics endpoint, for the
// connection test: what answered, and why not. URLs are shown without
// credentials.
type Probe struct {
	APIConfigured     bool   `json:"apiConfigured"`
	APIURL            string `json:"apiUrl"`
	APIVersion        string `json:"apiVersion"`
	APIError          string `json:"apiError"`
	MetricsConfigured bool   `json:"metricsConfigured"`
	MetricsURL        string `json:"metricsUrl"`
	MetricsError      string `json:"metricsError"`
	// MetricsFamilies counts the metric families the endpoint served.
	MetricsFamilies int `json:"metricsFamilies"`
}

// Probe asks Traefik's API for its version and reads the metrics endpoint
// once each, bypassing the views' caches: a retry sees the answer of now.
func (s *Service) Probe(ctx context.Context) Probe {
	var p Probe
	if c := s.d.Client; c != nil {
		p.APIConfigured, p.APIURL = true, c.where()
		var rv rawVersion
		_, err := c.getJSON(ctx, "/api/version", nil, &rv)
		switch {
		case errors.Is(err, errNotFound):
			p.APIError = fmt.Sprintf("traefik API at %s has no /api/version: is PANEL_PROXY_API_URL Traefik's API?", c.where())
		case err != nil:
			p.APIError = err.Error()
		default:
			p.APIVersion = rv.Version
		}
	}
	if sc := s.d.Scraper; sc != nil {
		p.MetricsConfigured, p.MetricsURL = true, redact(sc.url)
		fams, err := sc.fetch(ctx)
		if err != nil {
			p.MetricsError = err.Error()
		} else {
			p.MetricsFamilies = len(fams)
		}
	}
	return p
}
