package app

import (
	"context"
	"log/slog"
	"time"

	"github.com/gatehouse-proxy/gatehouse/internal/notify"
	"github.com/gatehouse-proxy/gatehouse/internal/runtime"
	"github.com/gatehouse-proxy/gatehouse/internal/status"
)

// notifyWatcher adapts the runtime views to the notify watcher. A backend
// counts as down when Traefik marks it DOWN (its health check) or when a
// direct connection to it is refused, so a dead backend is noticed with or
// without a health check on the service.
func notifyWatcher(rt *runtime.Service, svc *notify.Service, now func() time.Time, log *slog.Logger) *notify.Watcher {
	return &notify.Watcher{
		Publisher: svc, Now: now, Logger: log,
		Backends: func(ctx context.Context) ([]notify.Backend, error) {
			v, err := rt.Health(ctx, true)
			if err != nil {
				return nil, err
			}
			var out []notify.Backend
			for _, it := range v.Items {
				for _, sv := range it.Servers {
					b := notify.Backend{ServiceID: it.ServiceID, Service: it.Name, URL: sv.URL}
					switch {
					case sv.Status == "DOWN":
						b.Down, b.Reason = true, "Traefik's health check marks it DOWN."
					case sv.Probe == "down":
						b.Down, b.Reason = true, "A direct connection failed."
					case sv.Probe == "":
						continue // no evidence either way
					}
					out = append(out, b)
				}
			}
			return out, nil
		},
		Certificates: func(ctx context.Context) ([]notify.Certificate, error) {
			v, err := rt.Certificates(ctx)
			if err != nil || !v.Supported || !v.Reachable {
				return nil, err
			}
			out := make([]notify.Certificate, 0, len(v.Items))
			for _, c := range v.Items {
				out = append(out, notify.Certificate{Fingerprint: c.Fingerprint, Subject: c.Subject, NotAfter: c.NotAfter})
			}
			return out, nil
		},
		WarningDays: func(ctx context.Context) int {
			st, err := svc.Settings(ctx)
			if err != nil {
				return notify.DefaultSettings.CertWarningDays
			}
			return st.CertWarningDays
		},
	}
}

// pollingNotice logs and notifies when Traefik stops polling the dynamic
// configuration and when it polls again.
func pollingNotice(pub notify.Publisher, now func() time.Time, log *slog.Logger) func(status.Stall) {
	return func(s status.Stall) {
		if s.Stopped {
			log.Warn("traefik stopped polling the dynamic configuration", "last_poll", s.Last.At, "remote", s.Last.Remote, "interval", s.Interval)
		} else {
			log.Info("traefik polls the dynamic configuration again", "remote", s.Last.Remote)
		}
		pub.Publish(context.Background(), notify.PollingEvent(s.Stopped, s.Last.At, now()))
	}
}
