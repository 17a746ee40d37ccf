package httpx

import (
	"net/http/httptest"
	"testing"
)

func TestViaPublicDomain(t *testing.T) {
	const domain = "panel.example.com"
	tests := []struct {
		name, domain, host string
		forwarded          []string
		want               bool
	}{
		{"no admin domain", "", "panel.example.com", nil, false},
		{"internal address", domain, "10.0.0.2:8080", nil, false},
		{"host", domain, "panel.example.com", nil, true},
		{"host with port", domain, "panel.example.com:443", nil, true},
		{"host in other case, trailing dot", domain, "Panel.Example.COM.", nil, true},
		{"forwarded host", domain, "10.0.0.2:8080", []string{"panel.example.com"}, true},
		{"forwarded host in a list", domain, "10.0.0.2:8080", []string{"other.example.com, panel.example.com:443"}, true},
		{"second forwarded header", domain, "10.0.0.2:8080", []string{"other.example.com", "PANEL.example.com."}, true},
		{"other forwarded host", domain, "10.0.0.2:8080", []string{"other.example.com"}, false},
		{"suffix is not the domain", domain, "evil-panel.example.com", []string{"panel.example.com.evil"}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := httptest.NewRequest("GET", "/api/proxy/config", nil)
			r.Host = tt.host
			for _, v := range tt.forwarded {
				r.Header.Add("X-Forwarded-Host", v)
			}
			if got := ViaPublicDomain(r, tt.domain); got != tt.want {
				t.Fatalf("ViaPublicDomain(host %q, forwarded %q) = %v, want %v", tt.host, tt.forwarded, got, tt.want)
			}
		})
	}
}
