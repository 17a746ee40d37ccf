package traefikfile

import (
	"fmt"
	"strings"
	"testing"
)

// largeFile is a configuration of n routers, each with its own service, a
// third of them behind a shared redirect and headers middleware.
func largeFile(n int, toml bool) []byte {
	var b strings.Builder
	if toml {
		b.WriteString("[http.middlewares.https.redirectScheme]\nscheme = \"https\"\npermanent = true\n")
		b.WriteString("[http.middlewares.sts.headers]\nstsSeconds = 31536000\n")
		for i := range n {
			fmt.Fprintf(&b, "[http.routers.r%d]\nentryPoints = [\"websecure\"]\nrule = \"Host(`h%d.example.com`) && PathPrefix(`/p%d`)\"\nservice = \"s%d\"\n", i, i, i, i)
			if i%3 == 0 {
				b.WriteString("middlewares = [\"sts\"]\n")
			}
			fmt.Fprintf(&b, "[[http.services.s%d.loadBalancer.servers]]\nurl = \"http://10.%d.%d.%d:8080\"\n", i, i>>16&255, i>>8&255, i&255)
		}
		return []byte(b.String())
	}
	b.WriteString("http:\n  middlewares:\n    sts:\n      headers:\n        stsSeconds: 31536000\n  routers:\n")
	for i := range n {
		fmt.Fprintf(&b, "    r%d:\n      entryPoints: [websecure]\n      rule: Host(`h%d.example.com`) && PathPrefix(`/p%d`)\n      service: s%d\n", i, i, i, i)
		if i%3 == 0 {
			b.WriteString("      middlewares: [sts]\n")
		}
	}
	b.WriteString("  services:\n")
	for i := range n {
		fmt.Fprintf(&b, "    s%d:\n      loadBalancer:\n        servers:\n          - url: http://10.%d.%d.%d:8080\n", i, i>>16&255, i>>8&255, i&255)
	}
	return []byte(b.String())
}

// BenchmarkRead5000 reads a file of 5,000 routers and services.
func BenchmarkRead5000(b *testing.B) {
	for _, format := range []string{"yaml", "toml"} {
		data := largeFile(5000, format == "toml")
		b.Run(format, func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			for b.Loop() {
				doc, _, err := New().Read(data)
				if err != nil || len(doc.Services) != 5000 {
					b.Fatalf("%d services, %v", len(doc.Services), err)
				}
			}
		})
	}
}
