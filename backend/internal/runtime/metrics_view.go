package runtime

import (
	"context"
)

// ServiceMetrics is one panel service's traffic.
type ServiceMetrics struct {
	ServiceID string   `json:"serviceId"`
	Name      string   `json:"name"`
	Traefik   []string `json:"traefikServices"` // the Traefik services counted
	Traffic
}

// MetricsView is GET /api/proxy/metrics.
type MetricsView struct {
	Status
	Items []ServiceMetrics `json:"items"`
}

// Metrics summarises each enabled panel service's traffic over the scrape
// window. Traefik's API is needed too, to know which Traefik services are
// the panel service's (through the routers the panel owns).
func (s *Service) Metrics(ctx context.Context) (MetricsView, error) {
	v := MetricsView{Items: []ServiceMetrics{}}
	if s.d.Scraper == nil {
		v.Status = Status{Error: "Traefik's metrics are not configured: set PANEL_PROXY_API_URL or PANEL_PROXY_METRICS_URL"}
		return v, nil
	}
	v.Status = Status{Configured: true, Reachable: true}
	ms := s.d.Scraper.state()
	switch {
	case !ms.attempted:
		v.Reachable, v.Error = false, "Traefik's metrics have not been read yet"
	case ms.lastErr != nil:
		v.Reachable, v.Error = false, ms.lastErr.Error()
	}
	raw, st := s.fetchRaw(ctx)
	if raw == nil {
		if v.Reachable {
			v.Reachable, v.Error = false, st.Error
		}
		return v, nil
	}
	panel, byService, err := s.panelServicesInTraefik(ctx, raw)
	if err != nil {
		return v, err
	}
	for _, ps := range panel {
		names := byService[ps.id]
		if len(names) == 0 {
			continue
		}
		v.Items = append(v.Items, ServiceMetrics{
			ServiceID: ps.id, Name: ps.name, Traefik: names, Traffic: summarize(ms.samples, names),
		})
	}
	return v, nil
}
