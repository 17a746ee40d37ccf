package app

import (
	"context"
	"log/slog"
	"time"

	"github.com/gatehouse-proxy/gatehouse/internal/notify"
	"github.com/gatehouse-proxy/gatehouse/internal/runtime"
)

// notifyWatchInterval is how often backend health and certificates are read
// for notifications; the debounce setting decides how long a state must
// last before it is sent.
const notifyWatchInterval = 10 * time.Second

// notifyWatcher adapts the runtime views to the notify watcher. A backend
// counts as down when Traefik marks it DOWN (its health check) or when a
// direct connection to it is refused, so a dead backend is noticed with or
// without a health check on the service.
func notifyWatcher(rt *runtime.Service, svc *notify.Service, now func() time.Time) *notify.Watcher {
	return &notify.Watcher{
		Publisher: svc, Now: now,
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

func watchLoop(w *notify.Watcher, log *slog.Logger) func(ctx context.Context) {
	return every(notifyWatchInterval, func(ctx context.Context) {
		if err := w.Check(ctx); err != nil && ctx.Err() == nil {
			log.Debug("notification watcher", "err", err)
		}
	})
}
