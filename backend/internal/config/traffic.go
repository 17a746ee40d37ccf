package config

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Traffic is how the traffic history is kept and read.
type Traffic struct {
	// PrometheusURL is PANEL_PROMETHEUS_URL: a Prometheus that scrapes
	// Traefik, which the charts then read with PromQL instead of the
	// panel's database.
	PrometheusURL string
	// MinuteRetention is PANEL_TRAFFIC_MINUTE_RETENTION (default 48h):
	// how long one-minute rows are kept.
	MinuteRetention time.Duration
	// HourRetention is PANEL_TRAFFIC_HOUR_RETENTION (default 90d): how
	// long one-hour rows are kept.
	HourRetention time.Duration
}

// Bounds of the retention settings.
const (
	minRetention = time.Hour
	maxRetention = 10 * 365 * 24 * time.Hour
)

func (l *loader) traffic() Traffic {
	return Traffic{
		PrometheusURL:   strings.TrimRight(l.str("PANEL_PROMETHEUS_URL", ""), "/"),
		MinuteRetention: l.retention("PANEL_TRAFFIC_MINUTE_RETENTION", 48*time.Hour),
		HourRetention:   l.retention("PANEL_TRAFFIC_HOUR_RETENTION", 90*24*time.Hour),
	}
}

// retention reads a duration such as 48h or 90d (days), between an hour
// and ten years.
func (l *loader) retention(name string, def time.Duration) time.Duration {
	v := l.str(name, "")
	if v == "" {
		return def
	}
	d, err := parseDays(v)
	if (err != nil || d < minRetention || d > maxRetention) && l.err == nil {
		l.err = fmt.Errorf("%s: %q must be a duration between 1h and 3650d (for example 48h or 90d)", name, v)
	}
	return d
}

// parseDays is time.ParseDuration that also reads whole days ("90d").
func parseDays(s string) (time.Duration, error) {
	if n, ok := strings.CutSuffix(s, "d"); ok {
		days, err := strconv.Atoi(n)
		if err != nil || days < 0 || days > 100_000 {
			return 0, fmt.Errorf("not a number of days: %q", s)
		}
		return time.Duration(days) * 24 * time.Hour, nil
	}
	return time.ParseDuration(s)
}
