//go:build e2e

package e2e

import (
	"bufio"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/gatehouse-proxy/gatehouse/e2e/harness"
)

// reply is one answer as a client saw it.
type reply struct {
	code    int
	header  http.Header
	body    string
	backend harness.BackendReply
}

// passed reports whether the request reached the upstream.
func (r reply) passed() bool { return r.code == http.StatusOK && r.backend.Backend != "" }

func readReply(resp *http.Response) reply {
	b, _ := io.ReadAll(resp.Body)
	_ = resp.Body.Close()
	r := reply{code: resp.StatusCode, header: resp.Header, body: string(b)}
	_ = json.Unmarshal(b, &r.backend)
	return r
}

// send makes a request the way a program (not a browser) would: no Accept
// header unless hdr has one. A transport error is status 0.
func send(t *testing.T, c *http.Client, method, rawURL string, hdr map[string]string) reply {
	t.Helper()
	req, err := http.NewRequest(method, rawURL, nil)
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range hdr {
		req.Header.Set(k, v)
	}
	resp, err := c.Do(req)
	if err != nil {
		return reply{body: err.Error()}
	}
	return readReply(resp)
}

// sendRaw writes a GET with target exactly as given (no client-side
// cleaning or re-encoding) to the listener at addr.
func sendRaw(t *testing.T, addr, host, target string, hdr map[string]string) reply {
	t.Helper()
	return rawRequest(t, addr, http.MethodGet, host, target, hdr)
}

// rawRequest is sendRaw with any method.
func rawRequest(t *testing.T, addr, method, host, target string, hdr map[string]string) reply {
	t.Helper()
	conn, err := net.DialTimeout("tcp", addr, 5*time.Second)
	if err != nil {
		return reply{body: err.Error()} // an entrypoint may still be starting
	}
	defer func() { _ = conn.Close() }()
	_ = conn.SetDeadline(time.Now().Add(10 * time.Second))
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s HTTP/1.1\r\nHost: %s\r\nConnection: close\r\n", method, target, host)
	for k, v := range hdr {
		fmt.Fprintf(&b, "%s: %s\r\n", k, v)
	}
	b.WriteString("\r\n")
	if _, err := io.WriteString(conn, b.String()); err != nil {
		return reply{body: err.Error()}
	}
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		return reply{body: err.Error()}
	}
	return readReply(resp)
}

func basicAuth(user, pass string) string {
	return "Basic " + base64.StdEncoding.EncodeToString([]byte(user+":"+pass))
}

// ruleService creates a service on host with the given entrypoints, extra
// service fields (routing rules...) and protections.
func ruleService(t *testing.T, p *harness.Panel, be *harness.Backend, host string, entrypoints []string,
	extra map[string]any, protections ...map[string]any) string {
	t.Helper()
	body := map[string]any{
		"name": host, "hostnames": []map[string]string{{"type": "custom", "value": host}},
		"targets": []map[string]any{{"host": be.Host, "port": be.Port}}, "entrypoints": entrypoints,
	}
	for k, v := range extra {
		body[k] = v
	}
	var svc struct{ ID string }
	p.MustJSON(t, http.StatusCreated, http.MethodPost, "/api/services", body, &svc)
	for _, pr := range protections {
		p.MustJSON(t, http.StatusCreated, http.MethodPost, "/api/services/"+svc.ID+"/security-configs", pr, nil)
	}
	return svc.ID
}

// putRules replaces a service's access rules.
func putRules(t *testing.T, p *harness.Panel, id, defaultAction string, rules []map[string]any) {
	t.Helper()
	p.MustJSON(t, http.StatusOK, http.MethodPut, "/api/services/"+id+"/access",
		// The rules under test may open a protected service to everyone on purpose.
		map[string]any{"defaultAction": defaultAction, "rules": rules, "confirmPublic": true}, nil)
}

// presetRules fetches a built-in preset's rules as the UI inserts them.
func presetRules(t *testing.T, p *harness.Panel, id string) []map[string]any {
	t.Helper()
	var presets struct {
		Items []struct {
			ID    string
			Rules []map[string]any
		}
	}
	p.MustJSON(t, http.StatusOK, http.MethodGet, "/api/access/presets", nil, &presets)
	for _, pr := range presets.Items {
		if pr.ID == id {
			return pr.Rules
		}
	}
	t.Fatalf("no preset %q among %+v", id, presets.Items)
	return nil
}

// machineToken creates a token for the services, limited to scope's
// pathPrefix and methods when not empty, and returns its id and value.
func machineToken(t *testing.T, p *harness.Panel, name, pathPrefix string, methods []string, serviceIDs ...string) (id, value string) {
	t.Helper()
	var out struct {
		Token struct{ ID string }
		Value string
	}
	p.MustJSON(t, http.StatusCreated, http.MethodPost, "/api/machine-tokens", map[string]any{
		"name": name, "serviceIds": serviceIDs, "scope": map[string]any{"pathPrefix": pathPrefix, "methods": methods},
		"expiresAt": nil}, &out)
	if !strings.HasPrefix(out.Value, "ght_") {
		t.Fatalf("token value %q", out.Value)
	}
	return out.Token.ID, out.Value
}

type logItem struct {
	ServiceID     string
	ClientAddress string
	Method        string
	Host          string
	Path          string
	Decision      string
	By            string
	Identity      string
}

// accessLog reads a service's entries of the panel's access log (all of
// them for an empty id), newest first, and fails the test if any kept a
// query string or a token.
func accessLog(t *testing.T, p *harness.Panel, serviceID string) []logItem {
	t.Helper()
	var raw json.RawMessage
	p.MustJSON(t, http.StatusOK, http.MethodGet, "/api/access-log?limit=1000&serviceId="+serviceID, nil, &raw)
	for _, secret := range []string{"gh_link", "secret=", "ght_"} {
		if strings.Contains(string(raw), secret) {
			t.Errorf("the access log holds %q: %s", secret, raw)
		}
	}
	var page struct{ Items []logItem }
	if err := json.Unmarshal(raw, &page); err != nil {
		t.Fatal(err)
	}
	for _, it := range page.Items {
		if strings.Contains(it.Path, "?") {
			t.Errorf("the access log kept a query string: %+v", it)
		}
	}
	return page.Items
}

// findLog returns the newest entry of the service with the decision (and
// path and address, when not empty).
func findLog(items []logItem, serviceID, decision, path, addr string) (logItem, bool) {
	for _, it := range items {
		if it.ServiceID == serviceID && it.Decision == decision &&
			(path == "" || it.Path == path) && (addr == "" || it.ClientAddress == addr) {
			return it, true
		}
	}
	return logItem{}, false
}

// lastPath is the path of the service's newest access-log entry.
func lastPath(t *testing.T, p *harness.Panel, serviceID string) string {
	t.Helper()
	var page struct{ Items []logItem }
	p.MustJSON(t, http.StatusOK, http.MethodGet, "/api/services/"+serviceID+"/access-log?limit=1", nil, &page)
	if len(page.Items) == 0 {
		return ""
	}
	return page.Items[0].Path
}

// extraEntrypoints is the static configuration of two more entrypoints on
// free loopback ports: raw leaves request paths as the client sent them,
// strict refuses every ambiguous encoded character. It returns the YAML and
// the addresses by name.
func extraEntrypoints(t *testing.T) (string, map[string]string) {
	t.Helper()
	addrs := map[string]string{
		"raw":    net.JoinHostPort("127.0.0.1", fmt.Sprint(harness.FreePort(t))),
		"strict": net.JoinHostPort("127.0.0.1", fmt.Sprint(harness.FreePort(t))),
	}
	static := "entryPoints:\n" +
		"  raw:\n    address: \"" + addrs["raw"] + "\"\n    http:\n      sanitizePath: false\n" +
		"  strict:\n    address: \"" + addrs["strict"] + "\"\n    http:\n      encodedCharacters:\n"
	for _, c := range []string{"Slash", "BackSlash", "NullCharacter", "Semicolon", "Percent", "QuestionMark", "Hash"} {
		static += "        allowEncoded" + c + ": false\n"
	}
	return static, addrs
}
