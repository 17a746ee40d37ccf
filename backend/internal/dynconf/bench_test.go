package dynconf

import (
	"fmt"
	"testing"

	"github.com/gatehouse-proxy/gatehouse/internal/store"
)

func BenchmarkBuild10k(b *testing.B) {
	s := Snapshot{DefaultEntrypoints: []string{"websecure"}, GlobalMiddlewares: []string{"secure@file"},
		EntrypointTLS: map[string]bool{"web": false, "websecure": true}, AuthBase: "http://gatehouse:8080"}
	for i := 0; i < 1000; i++ {
		s.Domains = append(s.Domains, DomainSpec{ID: fmt.Sprint("d", i), Domain: fmt.Sprintf("d%d.example.com", i), CertResolver: "le", Wildcard: i%2 == 0})
	}
	for i := 0; i < 10000; i++ {
		d := &s.Domains[i%1000]
		s.Services = append(s.Services, ServiceSpec{ID: fmt.Sprint("s", i), Name: fmt.Sprintf("Service %d", i%5001),
			Hosts: []string{fmt.Sprintf("app%d.%s", i, d.Domain)}, Domain: d,
			Targets:     []store.Target{{Host: "10.0.0.1", Port: 8000}, {Host: "fd00::2", Port: 80}},
			Entrypoints: []string{"web", "websecure"}, Rules: []store.Rule{{Type: "pathPrefix", Value: "/api"}, {Type: "method", Value: "GET"}},
			Middlewares: []string{"compress@file"}, Headers: map[string]string{"X-Service": "1"}, Protected: i%3 == 0})
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		Build(s)
	}
}
