package managed

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/gatehouse-proxy/gatehouse/internal/httpx"
)

// connectionVars change how Traefik or lego connect (proxies, trusted
// certificate authorities, TLS and Go runtime knobs, lego's own switches):
// never a DNS provider's credential.
var connectionVars = []string{
	"HTTP_PROXY", "HTTPS_PROXY", "NO_PROXY", "ALL_PROXY", "FTP_PROXY", "REQUEST_METHOD",
	"SSL_CERT_FILE", "SSL_CERT_DIR", "SSLKEYLOGFILE", "AWS_CA_BUNDLE",
	"GODEBUG", "GOMAXPROCS", "GOGC", "GOMEMLIMIT", "GOTRACEBACK", "GOFIPS140", "GOEXPERIMENT",
	"RES_OPTIONS", "LOCALDOMAIN", "HOSTALIASES",
	"LEGO_CA_CERTIFICATES", "LEGO_CA_SERVER_NAME", "LEGO_CA_SYSTEM_CERT_POOL", "LEGO_DISABLE_CNAME_SUPPORT",
	"LEGO_DEBUG_DNS_API_HTTP_CLIENT", "LEGO_DEBUG_CLIENT_VERBOSE_ERROR", "LEGO_EXPERIMENTAL_DNS_TCP_ONLY", "LEGO_SERVER",
}

func TestCheckNameConnectionVars(t *testing.T) {
	tests := []struct {
		name string
		ok   bool
	}{
		// lego's providers' own variables stay allowed.
		{"CLOUDFLARE_DNS_API_TOKEN", true},
		{"CF_API_EMAIL", true},
		{"AWS_ACCESS_KEY_ID", true},
		{"AWS_SECRET_ACCESS_KEY", true},
		{"AWS_REGION", true},
		{"GODADDY_API_KEY", true},
		{"GOOGLE_APPLICATION_CREDENTIALS", true},
		{"GCE_PROJECT", true},
		{"HTTPREQ_ENDPOINT", true},
		{"HTTPNET_API_KEY", true},
		{"NAMECHEAP_HTTP_PROXY", true}, // the provider's own proxy for its API
		{"INFOBLOX_SSL_VERIFY", true},
		{"SSL_CIPHERS", false},
		// A switch of the deprecated azure provider (azuredns replaces it),
		// not a credential: refused with the rest of LEGO_.
		{"LEGO_AZURE_BYPASS_DEPRECATION", false},
		{"GO", false},
		{"GO_", true},
		{"LD_", false},
		// Lower and mixed case never pass the name's syntax.
		{"http_proxy", false},
		{"https_proxy", false},
		{"no_proxy", false},
		{"Http_Proxy", false},
		{"GoDebug", false},
	}
	for _, n := range connectionVars {
		tests = append(tests, struct {
			name string
			ok   bool
		}{n, false})
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := CheckName(tt.name)
			if (err == nil) != tt.ok {
				t.Fatalf("CheckName(%q) = %v; want ok=%v", tt.name, err, tt.ok)
			}
		})
	}
}

// TestPutSecretsRefusesConnectionVars: each is a 422 naming the field, and
// nothing is stored.
func TestPutSecretsRefusesConnectionVars(t *testing.T) {
	e := newHandlerEnv(t, true, testToken)
	for _, n := range connectionVars {
		t.Run(n, func(t *testing.T) {
			rec := e.do("PUT", "/api/proxy/managed/secrets", `{"upsert":{"`+n+`":"http://attacker.example:3128","CF_DNS_API_TOKEN":"x"}}`)
			if rec.Code != 422 {
				t.Fatalf("PUT %s = %d %s", n, rec.Code, rec.Body)
			}
			var env httpx.ErrorEnvelope
			if err := json.Unmarshal(rec.Body.Bytes(), &env); err != nil || env.Error.Code != "validation_failed" ||
				len(env.Error.Fields) != 1 || env.Error.Fields[0].Field != "upsert."+n {
				t.Fatalf("PUT %s answer = %s", n, rec.Body)
			}
			if strings.Contains(rec.Body.String(), "attacker.example") {
				t.Fatalf("the value came back: %s", rec.Body)
			}
		})
	}
	env := e.do("GET", "/api/proxy/managed/secrets-env", "", "Authorization", "Bearer "+testToken)
	if env.Code != 200 || strings.Contains(env.Body.String(), "export ") {
		t.Fatalf("secrets-env after refused writes = %d %s", env.Code, env.Body)
	}
}

// TestStoredReservedNameNeverReachesTraefik: a credential stored before its
// name was reserved is left out of the environment file and can be removed.
func TestStoredReservedNameNeverReachesTraefik(t *testing.T) {
	e := newHandlerEnv(t, true, testToken)
	ctx := context.Background()
	creds := map[string]string{"HTTPS_PROXY": "http://attacker.example:3128", "CF_DNS_API_TOKEN": "token"}
	if err := e.svc.vault.save(ctx, e.svc.db, creds); err != nil {
		t.Fatal(err)
	}
	env := e.do("GET", "/api/proxy/managed/secrets-env", "", "Authorization", "Bearer "+testToken)
	if env.Code != 200 || strings.Contains(env.Body.String(), "HTTPS_PROXY") || !strings.Contains(env.Body.String(), "export CF_DNS_API_TOKEN='token'") {
		t.Fatalf("secrets-env = %d %s", env.Code, env.Body)
	}
	if rec := e.do("PUT", "/api/proxy/managed/secrets", `{"remove":["HTTPS_PROXY"]}`); rec.Code != 200 {
		t.Fatalf("remove HTTPS_PROXY = %d %s", rec.Code, rec.Body)
	}
	left, err := e.svc.vault.load(ctx, e.svc.db)
	if err != nil || len(left) != 1 || left["CF_DNS_API_TOKEN"] != "token" {
		t.Fatalf("after the removal: %v %v", left, err)
	}
}

// FuzzCheckName: a name CheckName accepts is a plain variable name that no
// rule reserves, and renders as exactly one export line; a refused name
// renders nothing.
func FuzzCheckName(f *testing.F) {
	for _, n := range append(connectionVars, "CF_DNS_API_TOKEN", "GODADDY_API_KEY", "LEGO_AZURE_BYPASS_DEPRECATION",
		"http_proxy", "PATH", "LD_PRELOAD", "TRAEFIK_LOG", "GATEHOUSE_X", "A=B", "", "_") {
		f.Add(n)
	}
	f.Fuzz(func(t *testing.T, n string) {
		out := string(renderExports(map[string]string{n: "v"}))
		if CheckName(n) != nil {
			if out != "" {
				t.Fatalf("refused name %q rendered %q", n, out)
			}
			return
		}
		if out != "export "+n+"='v'\n" {
			t.Fatalf("accepted name %q rendered %q", n, out)
		}
		goRuntime := strings.HasPrefix(n, "GO") && !strings.Contains(n, "_")
		if !envNameRE.MatchString(n) || reservedNames[n] != "" || goRuntime || slices.Contains(connectionVars, n) ||
			strings.HasPrefix(n, "SSL_") || strings.HasPrefix(n, "LEGO_") {
			t.Fatalf("accepted %q", n)
		}
	})
}
