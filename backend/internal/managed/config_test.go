package managed

import (
	"strings"
	"testing"

	"github.com/gatehouse-proxy/gatehouse/internal/apperr"
)

func validConfig() Config {
	c := Defaults("ops@gatehouse.dev")
	return c
}

// Without an e-mail the defaults are valid and the resolver is inactive, so
// other settings (the log level, entrypoints) can be saved before it is known.
func TestDefaultsWithoutEmailAreValidAndInactive(t *testing.T) {
	c := Defaults("")
	if err := c.Validate(8080); err != nil {
		t.Fatalf("Validate(Defaults(\"\")) = %v", err)
	}
	if c.Resolvers[0].Active() {
		t.Fatal("a resolver without an e-mail is active")
	}
	c = validConfig()
	if err := c.Validate(8080); err != nil {
		t.Fatalf("Validate(defaults with email) = %v", err)
	}
}

func TestValidate(t *testing.T) {
	tests := []struct {
		name   string
		mutate func(c *Config)
		field  string // "" means valid
	}{
		{"defaults", func(*Config) {}, ""},
		{"no entrypoints", func(c *Config) { c.Entrypoints = nil }, "entrypoints"},
		{"bad entrypoint name", func(c *Config) { c.Entrypoints[0].Name = "we b" }, "entrypoints[0].name"},
		{"reserved entrypoint name", func(c *Config) { c.Entrypoints[0].Name = "traefik"; c.Entrypoints[0].RedirectTo = "" }, "entrypoints[0].name"},
		{"duplicate entrypoint name", func(c *Config) { c.Entrypoints[1].Name = "web"; c.Entrypoints[0].RedirectTo = "" }, "entrypoints[1].name"},
		{"duplicate port", func(c *Config) { c.Entrypoints[1].Port = 80 }, "entrypoints[1].port"},
		{"port zero", func(c *Config) { c.Entrypoints[0].Port = 0 }, "entrypoints[0].port"},
		{"port too big", func(c *Config) { c.Entrypoints[0].Port = 70000 }, "entrypoints[0].port"},
		{"port of the API entrypoint", func(c *Config) { c.Entrypoints[0].Port = 8080 }, "entrypoints[0].port"},
		{"host must be an IP", func(c *Config) { c.Entrypoints[0].Host = "localhost" }, "entrypoints[0].host"},
		{"host IPv6", func(c *Config) { c.Entrypoints[0].Host = "::1" }, ""},
		{"unknown resolver", func(c *Config) { c.Entrypoints[1].Resolver = "nope" }, "entrypoints[1].resolver"},
		{"resolver without tls", func(c *Config) { c.Entrypoints[1].TLS = false }, "entrypoints[1].resolver"},
		{"self redirect", func(c *Config) { c.Entrypoints[0].RedirectTo = "web" }, "entrypoints[0].redirectTo"},
		{"redirect to unknown", func(c *Config) { c.Entrypoints[0].RedirectTo = "secure" }, "entrypoints[0].redirectTo"},
		{"redirect chain", func(c *Config) { c.Entrypoints[1].RedirectTo = "web"; c.Entrypoints[0].RedirectTo = "websecure" }, "entrypoints[0].redirectTo"},
		{"no resolvers is fine", func(c *Config) { c.Resolvers = nil; c.Entrypoints[1].Resolver = "" }, ""},
		{"bad resolver name", func(c *Config) { c.Resolvers[0].Name = "le/1"; c.Entrypoints[1].Resolver = "le/1" }, "resolvers[0].name"},
		{"duplicate resolver", func(c *Config) { c.Resolvers = append(c.Resolvers, c.Resolvers[0]) }, "resolvers[1].name"},
		{"bad email", func(c *Config) { c.Resolvers[0].Email = "not-an-email" }, "resolvers[0].email"},
		{"display name email", func(c *Config) { c.Resolvers[0].Email = "Ops <ops@corp.io>" }, "resolvers[0].email"},
		{"example.com email", func(c *Config) { c.Resolvers[0].Email = "me@example.com" }, "resolvers[0].email"},
		{"dotless email domain", func(c *Config) { c.Resolvers[0].Email = "me@localhost" }, "resolvers[0].email"},
		{"unknown challenge", func(c *Config) { c.Resolvers[0].Challenge = "smtp" }, "resolvers[0].challenge"},
		{"http without entrypoint", func(c *Config) { c.Resolvers[0].Challenge = "http" }, "resolvers[0].httpEntrypoint"},
		{"http unknown entrypoint", func(c *Config) { c.Resolvers[0].Challenge = "http"; c.Resolvers[0].HTTPEntrypoint = "x" }, "resolvers[0].httpEntrypoint"},
		{"http on tls entrypoint", func(c *Config) { c.Resolvers[0].Challenge = "http"; c.Resolvers[0].HTTPEntrypoint = "websecure" }, "resolvers[0].httpEntrypoint"},
		{"http ok", func(c *Config) { c.Resolvers[0].Challenge = "http"; c.Resolvers[0].HTTPEntrypoint = "web" }, ""},
		{"dns without provider", func(c *Config) { c.Resolvers[0].Challenge = "dns" }, "resolvers[0].dnsProvider"},
		{"dns unknown provider", func(c *Config) { c.Resolvers[0].Challenge = "dns"; c.Resolvers[0].DNSProvider = "nope" }, "resolvers[0].dnsProvider"},
		{"dns exec provider refused", func(c *Config) { c.Resolvers[0].Challenge = "dns"; c.Resolvers[0].DNSProvider = "exec" }, "resolvers[0].dnsProvider"},
		{"dns bad resolver", func(c *Config) { dns(c, "cloudflare", "1.1.1.1:99999") }, "resolvers[0].dnsResolvers[0]"},
		{"dns bad resolver host", func(c *Config) { dns(c, "cloudflare", "bad_host:53") }, "resolvers[0].dnsResolvers[0]"},
		{"dns ok", func(c *Config) { dns(c, "cloudflare", "1.1.1.1", "ns1.cloudflare.com:53", "[2606:4700::1111]:53") }, ""},
		{"dns delay negative", func(c *Config) { dns(c, "hetzner"); c.Resolvers[0].PropagationDelaySeconds = -1 }, "resolvers[0].propagationDelaySeconds"},
		{"log level", func(c *Config) { c.LogLevel = "chatty" }, "logLevel"},
		{"log level lower-case accepted", func(c *Config) { c.LogLevel = "debug" }, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := validConfig()
			tt.mutate(&c)
			err := c.Validate(8080)
			if tt.field == "" {
				if err != nil {
					t.Fatalf("Validate = %v; want nil", err)
				}
				return
			}
			e, ok := apperr.As(err)
			if !ok || e.Code != apperr.CodeValidationFailed {
				t.Fatalf("Validate = %v; want validation_failed", err)
			}
			var got []string
			for _, f := range e.Fields {
				if f.Field == tt.field {
					return
				}
				got = append(got, f.Field+": "+f.Message)
			}
			t.Fatalf("no error on %s; got %s", tt.field, strings.Join(got, "; "))
		})
	}
}

func dns(c *Config, provider string, resolvers ...string) {
	c.Resolvers[0].Challenge = "dns"
	c.Resolvers[0].DNSProvider = provider
	c.Resolvers[0].DNSResolvers = resolvers
}

func TestNormalizeClearsUnusedChallengeFields(t *testing.T) {
	c := validConfig()
	c.Resolvers[0].HTTPEntrypoint = "web"
	c.Resolvers[0].DNSProvider = "cloudflare"
	c.Resolvers[0].PropagationDelaySeconds = 30
	if err := c.Validate(8080); err != nil {
		t.Fatal(err)
	}
	r := c.Resolvers[0]
	if r.HTTPEntrypoint != "" || r.DNSProvider != "" || r.PropagationDelaySeconds != 0 {
		t.Fatalf("tlsalpn resolver kept other challenges' fields: %+v", r)
	}
}

func TestProvidersAreValidAndSafe(t *testing.T) {
	seen := map[string]bool{}
	for _, p := range Providers() {
		if seen[p.Code] {
			t.Errorf("provider %s listed twice", p.Code)
		}
		seen[p.Code] = true
		if len(p.Fields) == 0 {
			t.Errorf("provider %s has no credential fields", p.Code)
		}
		for _, f := range append(append([]string{}, p.Fields...), p.Optional...) {
			if err := CheckName(f); err != nil {
				t.Errorf("provider %s field %s: %v", p.Code, f, err)
			}
		}
	}
	for _, want := range []string{"cloudflare", "route53", "digitalocean", "hetzner", "ovh", "gandiv5", "porkbun",
		"duckdns", "namecheap", "godaddy", "linode", "vultr", "azuredns", "gcloud", "ionos", "desec", "rfc2136"} {
		if !seen[want] {
			t.Errorf("provider %s missing", want)
		}
	}
	for _, never := range []string{"exec", "manual", "httpreq"} {
		if seen[never] {
			t.Errorf("provider %s must not be offered", never)
		}
	}
}
