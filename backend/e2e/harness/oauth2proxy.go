package harness

import (
	"crypto/rand"
	"encoding/hex"
	"net/http"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gatehouse-proxy/gatehouse/internal/testutil"
)

// OAuth2ProxyBin returns $OAUTH2_PROXY_BIN, or skips the test with how to
// get one.
func OAuth2ProxyBin(t testing.TB) string {
	t.Helper()
	bin := os.Getenv("OAUTH2_PROXY_BIN")
	if bin == "" {
		t.Skip("OAUTH2_PROXY_BIN is not set: run `make e2e` (it builds and caches oauth2-proxy via backend/scripts/oauth2-proxy.sh)")
	}
	if _, err := os.Stat(bin); err != nil {
		t.Fatalf("OAUTH2_PROXY_BIN=%s: %v", bin, err)
	}
	return bin
}

// OAuth2ProxyOptions configures StartOAuth2Proxy: oauth2-proxy as a
// relying party of the OpenID provider at Issuer, in front of Upstream.
type OAuth2ProxyOptions struct {
	Bin          string // the binary to run; empty for $OAUTH2_PROXY_BIN
	Issuer       string // the provider's issuer URL; discovery is read from it at start
	ClientID     string
	ClientSecret string
	// RedirectURL is the browser-facing callback, <app URL>/oauth2/callback:
	// the client's registered redirect URI.
	RedirectURL string
	Upstream    string // where signed-in requests go, e.g. a Backend's URL
	Port        int    // the listening port on 127.0.0.1; 0 for a free one
	// Scopes asked for; empty for "openid profile email groups".
	Scopes []string
	// ExtraArgs are appended to the command line (a later flag wins).
	ExtraArgs []string
}

// OAuth2Proxy is a running oauth2-proxy.
type OAuth2Proxy struct {
	URL  string // http://127.0.0.1:<port>
	Port int
	Args []string // the command line, as docs/oidc-apps.md shows it
	Log  func() string
	Stop func()
}

// OAuth2ProxyArgs is the command line StartOAuth2Proxy runs: provider oidc
// with PKCE (S256), the identity headers passed to the upstream
// (X-Forwarded-User = sub, X-Forwarded-Email, X-Forwarded-Groups,
// X-Forwarded-Preferred-Username), a Secure cookie when the app is served
// over HTTPS, behind a reverse proxy (Traefik), straight to the provider
// without oauth2-proxy's own sign-in button.
func OAuth2ProxyArgs(o OAuth2ProxyOptions, listen, cookieSecret string) []string {
	scopes := o.Scopes
	if len(scopes) == 0 {
		scopes = []string{"openid", "profile", "email", "groups"}
	}
	args := []string{
		"--provider=oidc",
		"--provider-display-name=Gatehouse",
		"--oidc-issuer-url=" + o.Issuer,
		"--client-id=" + o.ClientID,
		"--client-secret=" + o.ClientSecret,
		"--redirect-url=" + o.RedirectURL,
		"--scope=" + strings.Join(scopes, " "),
		"--code-challenge-method=S256",
		"--oidc-groups-claim=groups",
		"--email-domain=*",
		"--upstream=" + o.Upstream,
		"--http-address=" + listen,
		"--reverse-proxy=true",
		"--skip-provider-button=true",
		"--pass-user-headers=true",
		"--cookie-secret=" + cookieSecret,
		"--cookie-secure=" + strconv.FormatBool(strings.HasPrefix(o.RedirectURL, "https://")),
		"--silence-ping-logging=true",
	}
	return append(args, o.ExtraArgs...)
}

// StartOAuth2Proxy runs the real oauth2-proxy binary with the command line
// of OAuth2ProxyArgs and waits until its /ping answers. oauth2-proxy reads
// the provider's discovery document when it starts, so the provider must
// answer at Issuer first. It is killed when the test ends; its output is
// printed if the test failed.
func StartOAuth2Proxy(t testing.TB, o OAuth2ProxyOptions) *OAuth2Proxy {
	t.Helper()
	bin := o.Bin
	if bin == "" {
		bin = OAuth2ProxyBin(t)
	}
	port := o.Port
	if port == 0 {
		port = FreePort(t)
	}
	// 32 hex characters: a 32-byte AES key for the session cookie.
	secret := make([]byte, 16)
	_, _ = rand.Read(secret)
	args := OAuth2ProxyArgs(o, loopback(port), hex.EncodeToString(secret))

	out := &testutil.LockedBuffer{}
	cmd := exec.Command(bin, args...)
	cmd.Stdout, cmd.Stderr = out, out
	if err := cmd.Start(); err != nil {
		t.Fatalf("start oauth2-proxy: %v", err)
	}
	exited := make(chan struct{})
	go func() { _ = cmd.Wait(); close(exited) }()
	stopped := false
	stop := func() {
		if stopped {
			return
		}
		stopped = true
		_ = cmd.Process.Kill()
		<-exited
	}
	p := &OAuth2Proxy{URL: "http://" + loopback(port), Port: port, Args: args, Log: out.String, Stop: stop}
	t.Cleanup(func() {
		stop()
		if t.Failed() {
			t.Logf("oauth2-proxy %s\noauth2-proxy output:\n%s", strings.Join(redact(args), " "), out.String())
		}
	})

	deadline := time.Now().Add(30 * time.Second)
	for {
		select {
		case <-exited:
			t.Fatalf("oauth2-proxy exited during start-up:\n%s", out.String())
		default:
		}
		if resp, err := http.Get(p.URL + "/ping"); err == nil {
			_ = resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return p
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("oauth2-proxy did not answer /ping within 30s at %s:\n%s", p.URL, out.String())
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// redact hides the values of the secret flags, for logs.
func redact(args []string) []string {
	out := make([]string, len(args))
	for i, a := range args {
		out[i] = a
		for _, f := range []string{"--client-secret=", "--cookie-secret="} {
			if strings.HasPrefix(a, f) {
				out[i] = f + "<redacted>"
			}
		}
	}
	return out
}
