package dynconf

import (
	"net/http"
	"net/textproto"
	"regexp"
	"strings"
	"testing"

	"github.com/gatehouse-proxy/gatehouse/internal/forwardauth/contract"
	"github.com/gatehouse-proxy/gatehouse/internal/store"
)

// traefikForwardAuth applies a forwardAuth middleware's header rules to a
// request the way Traefik's pkg/middlewares/auth/forward.go does after a 2xx
// from the auth server: each authResponseHeaders name is deleted from the
// request and copied from the answer, then every request header matching
// authResponseHeadersRegex is deleted and the answer's matching ones copied.
func traefikForwardAuth(t *testing.T, fa *ForwardAuth, req, answer http.Header) {
	t.Helper()
	for _, name := range fa.AuthResponseHeaders {
		k := http.CanonicalHeaderKey(name)
		req.Del(k)
		if len(answer[k]) > 0 {
			req[k] = append([]string(nil), answer[k]...)
		}
	}
	if fa.AuthResponseHeadersRegex == "" {
		return
	}
	re, err := regexp.Compile(fa.AuthResponseHeadersRegex)
	if err != nil {
		t.Fatalf("authResponseHeadersRegex %q does not compile: %v", fa.AuthResponseHeadersRegex, err)
	}
	for k := range req {
		if re.MatchString(k) {
			req.Del(k)
		}
	}
	for k, v := range answer {
		if re.MatchString(k) {
			req[k] = append([]string(nil), v...)
		}
	}
}

// fold is how CGI, WSGI and PHP name a request header: upper case, "-" as "_".
func fold(k string) string { return strings.ToUpper(strings.ReplaceAll(k, "-", "_")) }

// TestForwardAuthStripsEverySpelling: a client's identity header in any
// spelling an upstream reads as the real one (Remote_User, remote-user,
// REMOTE_GROUPS) is gone after the middleware; verify's values arrive.
func TestForwardAuthStripsEverySpelling(t *testing.T) {
	cfg := Build(base(Snapshot{Services: []ServiceSpec{{ID: "s1", Name: "wiki", Hosts: []string{"wiki.test"},
		Targets: []store.Target{tgt("10.0.0.1", 80)}, Protected: true}}}))
	fa := cfg.HTTP.Middlewares[Prefix+"auth-wiki"].ForwardAuth
	if fa == nil {
		t.Fatalf("no forwardAuth middleware: %+v", cfg.HTTP.Middlewares)
	}
	answer := http.Header{contract.HeaderUser: {"alice"}, contract.HeaderGroups: {"staff"}}
	want := map[string]string{fold(contract.HeaderUser): "alice", fold(contract.HeaderGroups): "staff"}

	for _, h := range contract.IdentityHeaders() {
		lower := strings.ToLower(h)
		for _, spelling := range []string{h, lower, strings.ToUpper(h), strings.ReplaceAll(h, "-", "_"),
			strings.ReplaceAll(lower, "-", "_"), strings.ToUpper(strings.ReplaceAll(h, "-", "_"))} {
			t.Run(spelling, func(t *testing.T) {
				// Go's server canonicalises names as they arrive: Remote_user.
				req := http.Header{textproto.CanonicalMIMEHeaderKey(spelling): {"mallory"}, "Accept": {"*/*"}}
				traefikForwardAuth(t, fa, req, answer)
				seen := map[string][]string{}
				for k, v := range req {
					seen[fold(k)] = append(seen[fold(k)], v...)
				}
				for _, id := range contract.IdentityHeaders() {
					got := seen[fold(id)]
					if w, ok := want[fold(id)]; ok {
						if len(got) != 1 || got[0] != w {
							t.Errorf("%s reaches the upstream as %q, want only %q (request %v)", fold(id), got, w, req)
						}
					} else if len(got) != 0 {
						t.Errorf("forged %s reaches the upstream as %q (request %v)", fold(id), got, req)
					}
				}
				if req.Get("Accept") != "*/*" {
					t.Errorf("an unrelated header was removed: %v", req)
				}
			})
		}
	}
}

// TestIdentityHeadersRegexMatchesOnlyThem: the regex covers each identity
// header in every spelling and nothing else (another header a client sends
// must survive).
func TestIdentityHeadersRegexMatchesOnlyThem(t *testing.T) {
	re := regexp.MustCompile(contract.IdentityHeadersRegex())
	for _, k := range []string{"Remote-User", "Remote_user", "REMOTE-EMAIL", "remote_name", "Remote-Groups", "rEmOtE_gRoUpS"} {
		if !re.MatchString(k) {
			t.Errorf("%q does not match", k)
		}
	}
	for _, k := range []string{"X-Remote-User", "Remote-User-Agent", "Remote-Username", "Remote.User", "RemoteUser", "Remote--User", "Remote-Addr"} {
		if re.MatchString(k) {
			t.Errorf("%q matches", k)
		}
	}
}
