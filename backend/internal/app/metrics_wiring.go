package app

import (
	"context"
	"net"
	"net/http"
	"net/url"
	"strings"

	"gorm.io/gorm"

	"github.com/gatehouse-proxy/gatehouse/internal/alerts"
	"github.com/gatehouse-proxy/gatehouse/internal/audit"
	"github.com/gatehouse-proxy/gatehouse/internal/cluster"
	"github.com/gatehouse-proxy/gatehouse/internal/config"
	"github.com/gatehouse-proxy/gatehouse/internal/httpx"
	"github.com/gatehouse-proxy/gatehouse/internal/metrics"
	"github.com/gatehouse-proxy/gatehouse/internal/settings"
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

// trafficWindow adapts the traffic history to what alerts read; nil until
// the history is there.
func trafficWindow(src alerts.Source) alerts.Source { return src }
