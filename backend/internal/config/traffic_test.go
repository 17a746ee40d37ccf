package config

import (
	"strings"
	"testing"
	"time"
)

func TestTrafficSettings(t *testing.T) {
	c, err := Load(env(nil))
	if err != nil {
		t.Fatal(err)
	}
	if c.Traffic.MinuteRetention != 48*time.Hour || c.Traffic.HourRetention != 90*24*time.Hour || c.Traffic.PrometheusURL != "" {
		t.Fatalf("defaults = %+v", c.Traffic)
	}
	c, err = Load(env(map[string]string{"PANEL_TRAFFIC_MINUTE_RETENTION": "72h", "PANEL_TRAFFIC_HOUR_RETENTION": "30d",
		"PANEL_PROMETHEUS_URL": "http://prometheus:9090/"}))
	if err != nil {
		t.Fatal(err)
	}
	if c.Traffic.MinuteRetention != 72*time.Hour || c.Traffic.HourRetention != 30*24*time.Hour ||
		c.Traffic.PrometheusURL != "http://prometheus:9090" {
		t.Fatalf("traffic = %+v", c.Traffic)
	}
	for name, v := range map[string]string{
		"PANEL_TRAFFIC_MINUTE_RETENTION": "10m", "PANEL_TRAFFIC_HOUR_RETENTION": "5000d", "PANEL_PROMETHEUS_URL": "prometheus:9090",
	} {
		if _, err := Load(env(map[string]string{name: v})); err == nil || !strings.Contains(err.Error(), name) {
			t.Errorf("%s=%s: err = %v", name, v, err)
		}
	}
	if _, err := Load(env(map[string]string{"PANEL_TRAFFIC_HOUR_RETENTION": "xd"})); err == nil {
		t.Error("a bad number of days was accepted")
	}
}
