package app

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"

	"gorm.io/gorm"

	"github.com/gatehouse-proxy/gatehouse/internal/alerts"
	"github.com/gatehouse-proxy/gatehouse/internal/audit"
	"github.com/gatehouse-proxy/gatehouse/internal/cluster"
	"github.com/gatehouse-proxy/gatehouse/internal/config"
	"github.com/gatehouse-proxy/gatehouse/internal/httpx"
	"github.com/gatehouse-proxy/gatehouse/internal/metrics"
	"github.com/gatehouse-proxy/gatehouse/internal/settings"
	"github.com/gatehouse-proxy/gatehouse/internal/traffic"
)

// publicHosts are the hosts /metrics never answers on: the admin domain,
// the portal host, and the host of PANEL_PUBLIC_URL or PANEL_PORTAL_URL
// when it is a name (an address there is the internal network's).
func publicHosts(cfg config.Config, st *settings.Service) func(ctx context.Context) ([]string, error) {
	var fixed []string
	for _, s := range []string{cfg.PublicURL, cfg.PortalURL, "https://" + cfg.AdminDomain} {
		if u, err := url.Parse(s); err == nil && u.Hostname() != "" && net.ParseIP(u.Hostname()) == nil &&
			!strings.EqualFold(u.Hostname(), "localhost") {
			fixed = append(fixed, u.Hostname())
		}
	}
	return func(ctx context.Context) ([]string, error) {
		g, err := st.Get(ctx)
		if err != nil {
			return nil, err
		}
		p, err := st.Portal(ctx)
		if err != nil {
			return nil, err
		}
		out := append([]string{g.AdminDomain, p.Host}, fixed...)
		return out, nil
	}
}

// signInCounter counts the sign-ins the audit log records, on the panel or
// on the portal (a request on the portal host).
func signInCounter(m *metrics.Metrics, st *settings.Service) func(r *http.Request, action string) {
	return func(r *http.Request, action string) {
		var outcome string
		switch action {
		case audit.ActionSignIn, audit.ActionSetup:
			outcome = "success"
		case audit.ActionSignInFailed:
			outcome = "failure"
		case audit.ActionSignInStep:
			outcome = "step"
		default:
			return
		}
		where := "panel"
		if h := st.PortalHost(r.Context()); h != "" && httpx.ViaPublicDomain(r, h) {
			where = "portal"
		}
		m.SignIn(where, outcome)
	}
}

// clusterReplicas counts the replicas on PostgreSQL; nil without a cluster.
func clusterReplicas(cl *cluster.Cluster, db *gorm.DB) func(ctx context.Context) (int, error) {
	if cl == nil {
		return nil
	}
	return func(ctx context.Context) (int, error) {
		ms, err := cluster.Members(ctx, db)
		return len(ms), err
	}
}

// trafficHistory hands the traffic history to the metrics (the recorder's
// snapshot) and the alerts (Window), which are built before it.
type trafficHistory struct{ svc *traffic.Service }

// decisions is the recorder's snapshot as the metrics read it.
func (h *trafficHistory) decisions() []metrics.Decisions {
	if h.svc == nil {
		return nil
	}
	snap := h.svc.Recorder().Snapshot()
	out := make([]metrics.Decisions, len(snap))
	for i, d := range snap {
		out[i] = metrics.Decisions{ServiceID: d.ServiceID, Counts: d.Counts, LatencyBuckets: d.LatencyBuckets,
			LatencySum: d.LatencySum, LatencyCount: d.LatencyCount}
	}
	return out
}

// windowChunk is the longest range read at once: traffic's Window answers
// minute steps up to its chart's 360 points, longer ranges in coarser ones.
const windowChunk = 360 * time.Minute

// Window reads [from, to] minute by minute, in chunks Window answers at
// one-minute steps. Minutes not written yet are left out; a history without
// Traefik's figures is an error, so that no rule fires or resolves on it.
func (h *trafficHistory) Window(ctx context.Context, serviceID string, from, to time.Time) ([]alerts.Sample, error) {
	if h.svc == nil {
		return nil, errors.New("the traffic history is not running")
	}
	seen := map[int64]bool{}
	var out []alerts.Sample
	for start := from; start.Before(to); start = start.Add(windowChunk) {
		end := start.Add(windowChunk)
		if end.After(to) {
			end = to
		}
		s, err := h.svc.Window(ctx, serviceID, start, end)
		if err != nil {
			return nil, err
		}
		if s.State == traffic.StateNoMetrics {
			return nil, errors.New(s.Reason)
		}
		if s.StepSeconds != 60 {
			return nil, fmt.Errorf("the history answered steps of %d seconds, not minutes", s.StepSeconds)
		}
		v := s.Series
		for i, at := range s.Time {
			if seen[at] || i >= len(v.Requests5xx) || v.Requests2xx[i] == nil {
				continue
			}
			seen[at] = true
			smp := alerts.Sample{At: time.Unix(at, 0).UTC(), P95Ms: v.LatencyP95Ms[i], Up: v.Up[i]}
			for _, c := range [][]*float64{v.Requests2xx, v.Requests3xx, v.Requests4xx, v.Requests5xx} {
				if c[i] != nil {
					smp.Requests += *c[i]
				}
			}
			if v.Requests5xx[i] != nil {
				smp.Errors5xx = *v.Requests5xx[i]
			}
			out = append(out, smp)
		}
	}
	return out, nil
}
