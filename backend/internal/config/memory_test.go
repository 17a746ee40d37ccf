package config

import (
	"math"
	"strings"
	"testing"
)

func TestLoadMemoryLimit(t *testing.T) {
	tests := []struct {
		env     map[string]string
		want    int64
		wantErr string
	}{
		{env: nil, want: DefaultMemoryLimit},
		{env: map[string]string{"GOMEMLIMIT": "200MiB"}, want: MemoryLimitFromGo},
		{env: map[string]string{"GOMEMLIMIT": "200MiB", "PANEL_MEMORY_LIMIT": "96MiB"}, want: 96 << 20},
		{env: map[string]string{"PANEL_MEMORY_LIMIT": "off"}, want: math.MaxInt64},
		{env: map[string]string{"PANEL_MEMORY_LIMIT": "OFF"}, want: math.MaxInt64},
		{env: map[string]string{"PANEL_MEMORY_LIMIT": "1GiB"}, want: 1 << 30},
		{env: map[string]string{"PANEL_MEMORY_LIMIT": "65536KiB"}, want: 64 << 20},
		{env: map[string]string{"PANEL_MEMORY_LIMIT": "33554432"}, want: 32 << 20},
		{env: map[string]string{"PANEL_MEMORY_LIMIT": "64"}, wantErr: "under 16MiB"},
		{env: map[string]string{"PANEL_MEMORY_LIMIT": "64MB"}, wantErr: "not a size"},
		{env: map[string]string{"PANEL_MEMORY_LIMIT": "-1MiB"}, wantErr: "not a size"},
		{env: map[string]string{"PANEL_MEMORY_LIMIT": "99999999999TiB"}, wantErr: "not a size"},
	}
	for _, tt := range tests {
		t.Run(tt.env["PANEL_MEMORY_LIMIT"]+"/"+tt.env["GOMEMLIMIT"], func(t *testing.T) {
			c, err := Load(env(tt.env))
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), "PANEL_MEMORY_LIMIT") || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want PANEL_MEMORY_LIMIT ... %s", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if c.MemoryLimit != tt.want {
				t.Fatalf("MemoryLimit = %d, want %d", c.MemoryLimit, tt.want)
			}
		})
	}
}

func FuzzParseSize(f *testing.F) {
	for _, s := range []string{"64MiB", "1GiB", "0", "off", "12B", "9223372036854775807", "8TiB", " 3 MiB"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		n, err := parseSize(s)
		if err == nil && n < 0 {
			t.Fatalf("parseSize(%q) = %d", s, n)
		}
	})
}
