//go:build e2e

package e2e

import (
	"context"
	"crypto/tls"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gatehouse-proxy/gatehouse/e2e/harness"
)

// streamRouter is a tcp or udp router of the runtime view.
type streamRouter struct {
	Name, Status, ServiceID, Rule string
}

// TestTCPUDP routes real connections through a real Traefik (every version
// the suite knows) from services made through the panel's API: a TLS echo
// server by SNI with passthrough (the client sees the server's own
// certificate) and another with termination (Traefik's certificate, a plain
// backend), a psql session to PostgreSQL through a catch-all router, an
// allow list that refuses a network namespace's address while a router
// without one admits it (and tells the target the namespace's address with
// the PROXY protocol), and a UDP echo. Traefik's runtime view shows each
// router as the service's, and the service's badge is live. The panel
// refuses an entrypoint of the wrong protocol and a second udp service on
// one entrypoint.
func TestTCPUDP(t *testing.T) {
	harness.ForEachTraefik(t, testTCPUDP)
}

func testTCPUDP(t *testing.T, bin harness.TraefikBinary) {
	passEcho := harness.StartEchoServer(t, "pass:", "pass.tcp.test")
	plainEcho := harness.StartEchoServer(t, "plain:", "")
	proxyEcho := harness.StartEchoServer(t, "pp:", "") // reads the PROXY header as its first line
	udpEcho := harness.StartUDPEcho(t, "udp:")
	pgPort := harness.StartPostgresTCP(t)
	outside := harness.StartOutside(t)

	pgEP, guardedEP, openEP, dnsEP := harness.FreePort(t), harness.FreePort(t), harness.FreePort(t), harness.FreePort(t)
	static := fmt.Sprintf(`
entryPoints:
  pg: {address: "127.0.0.1:%d"}
  guarded: {address: "0.0.0.0:%d"}
  open: {address: "0.0.0.0:%d"}
  dns: {address: "127.0.0.1:%d/udp"}
`, pgEP, guardedEP, openEP, dnsEP)
	port := harness.FreePort(t)
	panelURL := "http://127.0.0.1:" + strconv.Itoa(port)
	tr := harness.StartTraefik(t, harness.TraefikOptions{Bin: bin.Path, ProviderURL: panelURL + "/api/proxy/config", Static: static})
	p := harness.StartPanel(t, map[string]string{"PANEL_LISTEN": "127.0.0.1:" + strconv.Itoa(port), "PANEL_PROXY_API_URL": tr.APIURL})

	create := func(body map[string]any) string {
		t.Helper()
		var svc struct{ ID string }
		p.MustJSON(t, http.StatusCreated, http.MethodPost, "/api/services", body, &svc)
		return svc.ID
	}
	target := func(host string, port int) []map[string]any { return []map[string]any{{"host": host, "port": port}} }
	custom := func(h string) []map[string]string { return []map[string]string{{"type": "custom", "value": h}} }
	ids := map[string]string{
		"pass": create(map[string]any{"name": "pass", "kind": "tcp", "hostnames": custom("pass.tcp.test"),
			"entrypoints": []string{"websecure"}, "targets": target(passEcho.Host, passEcho.Port), "tcp": map[string]any{"tls": "passthrough"}}),
		"term": create(map[string]any{"name": "term", "kind": "tcp", "hostnames": custom("term.tcp.test"),
			"entrypoints": []string{"websecure"}, "targets": target(plainEcho.Host, plainEcho.Port), "tcp": map[string]any{"tls": "terminate"}}),
		"postgres": create(map[string]any{"name": "postgres", "kind": "tcp", "entrypoints": []string{"pg"},
			"targets": target("127.0.0.1", pgPort), "tcp": map[string]any{"tls": "none", "maxConnections": 10}}),
		"guarded": create(map[string]any{"name": "guarded", "kind": "tcp", "entrypoints": []string{"guarded"},
			"targets": target(plainEcho.Host, plainEcho.Port), "tcp": map[string]any{"allowList": []string{"127.0.0.1/32"}}}),
		"open": create(map[string]any{"name": "open", "kind": "tcp", "entrypoints": []string{"open"},
			"targets": target(proxyEcho.Host, proxyEcho.Port), "tcp": map[string]any{"proxyProtocol": 1}}),
		"dns": create(map[string]any{"name": "dns", "kind": "udp", "entrypoints": []string{"dns"},
			"targets": target(udpEcho.Host, udpEcho.Port)}),
	}

	t.Run("refusals", func(t *testing.T) {
		var e struct {
			Error struct {
				Fields []struct{ Field, Message string }
			}
		}
		code := p.JSON(t, http.MethodPost, "/api/services", map[string]any{"name": "wrong", "kind": "tcp",
			"entrypoints": []string{"dns"}, "targets": target("127.0.0.1", 1)}, &e)
		if code != http.StatusUnprocessableEntity && code != http.StatusBadRequest || len(e.Error.Fields) == 0 ||
			e.Error.Fields[0].Field != "entrypoints[0]" || !strings.Contains(e.Error.Fields[0].Message, "UDP entrypoint") {
			t.Errorf("tcp on a udp entrypoint: %d %+v", code, e)
		}
		code = p.JSON(t, http.MethodPost, "/api/services", map[string]any{"name": "dns2", "kind": "udp",
			"entrypoints": []string{"dns"}, "targets": target("127.0.0.1", 1)}, &e)
		if code != http.StatusConflict {
			t.Errorf("second udp service on dns: %d %+v", code, e)
		}
	})

	websecure := strings.TrimPrefix(tr.WebsecureURL, "https://")
	tlsEcho := func(name string) (string, *tls.ConnectionState, error) {
		c, err := tls.Dial("tcp", websecure, &tls.Config{ServerName: name, InsecureSkipVerify: true}) //nolint:gosec // the test reads which certificate it got
		if err != nil {
			return "", nil, err
		}
		defer func() { _ = c.Close() }()
		st := c.ConnectionState()
		got, err := harness.EchoLine(c, "hello "+name)
		return got, &st, err
	}

	t.Run("passthrough", func(t *testing.T) {
		var got string
		var st *tls.ConnectionState
		harness.Eventually(t, 30*time.Second, func() bool {
			var err error
			got, st, err = tlsEcho("pass.tcp.test")
			return err == nil && got == "pass:hello pass.tcp.test"
		}, "no echo through the passthrough router")
		if cn := st.PeerCertificates[0].Subject.CommonName; cn != "pass.tcp.test backend" {
			t.Errorf("the client saw %q's certificate, want the backend's own", cn)
		}
	})

	t.Run("termination", func(t *testing.T) {
		var got string
		var st *tls.ConnectionState
		harness.Eventually(t, 30*time.Second, func() bool {
			var err error
			got, st, err = tlsEcho("term.tcp.test")
			return err == nil && got == "plain:hello term.tcp.test"
		}, "no echo through the terminating router")
		if cn := st.PeerCertificates[0].Subject.CommonName; cn != "TRAEFIK DEFAULT CERT" {
			t.Errorf("the client saw %q's certificate, want Traefik's", cn)
		}
	})

	t.Run("psql", func(t *testing.T) {
		var out []byte
		harness.Eventually(t, 30*time.Second, func() bool {
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			cmd := exec.CommandContext(ctx, "psql", //nolint:gosec // the test's own arguments: a port it picked
				"-X", "-At", "-h", "127.0.0.1", "-p", strconv.Itoa(pgEP), "-U", "gatehouse", "-d", "postgres",
				"-c", "select 'through traefik from ' || inet_client_addr() || ' to ' || inet_server_port()")
			cmd.Env = append(os.Environ(), "PGSSLMODE=disable", "PGCONNECT_TIMEOUT=5")
			var err error
			out, err = cmd.CombinedOutput()
			return err == nil
		}, "psql did not get through the tcp router")
		want := fmt.Sprintf("through traefik from 127.0.0.1/32 to %d", pgPort)
		if got := strings.TrimSpace(string(out)); got != want {
			t.Errorf("psql printed %q, want %q", got, want)
		}
	})

	t.Run("allow list", func(t *testing.T) {
		echoFrom := func(dial func(ctx context.Context, network, addr string) (net.Conn, error), addr string) (string, error) {
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			defer cancel()
			c, err := dial(ctx, "tcp", addr)
			if err != nil {
				return "", err
			}
			defer func() { _ = c.Close() }()
			return harness.EchoLine(c, "knock")
		}
		local := (&net.Dialer{}).DialContext
		harness.Eventually(t, 30*time.Second, func() bool {
			got, err := echoFrom(local, "127.0.0.1:"+strconv.Itoa(guardedEP))
			return err == nil && got == "plain:knock"
		}, "the allowed address got no echo")
		// The same path from the namespace, through the router without a
		// list, works, and its PROXY protocol header (version 1, a line of
		// text the echo server answers first) names the namespace's address...
		var got string
		harness.Eventually(t, 30*time.Second, func() bool {
			var err error
			got, err = echoFrom(outside.DialContext, net.JoinHostPort(outside.HostAddr, strconv.Itoa(openEP)))
			return err == nil && strings.HasPrefix(got, "pp:PROXY ")
		}, "the namespace got no echo through the open router")
		if want := "pp:PROXY TCP4 " + outside.Addr + " " + outside.HostAddr + " "; !strings.HasPrefix(got, want) {
			t.Errorf("the target read %q first, want a PROXY header starting %q", got, want)
		}
		// ...and the allow list closes its connection.
		got, err := echoFrom(outside.DialContext, net.JoinHostPort(outside.HostAddr, strconv.Itoa(guardedEP)))
		if err == nil || got != "" {
			t.Errorf("%s got %q through the allow list (err %v)", outside.Addr, got, err)
		}
	})

	t.Run("udp", func(t *testing.T) {
		harness.Eventually(t, 30*time.Second, func() bool {
			c, err := net.Dial("udp", "127.0.0.1:"+strconv.Itoa(dnsEP))
			if err != nil {
				return false
			}
			defer func() { _ = c.Close() }()
			_ = c.SetDeadline(time.Now().Add(time.Second))
			if _, err := c.Write([]byte("ping")); err != nil {
				return false
			}
			buf := make([]byte, 64)
			n, err := c.Read(buf)
			return err == nil && string(buf[:n]) == "udp:ping"
		}, "no UDP echo through the udp router")
	})

	t.Run("runtime", func(t *testing.T) {
		var v struct {
			TCPRouters []streamRouter `json:"tcpRouters"`
			UDPRouters []streamRouter `json:"udpRouters"`
		}
		owned := map[string]streamRouter{}
		// The view reads Traefik through a short cache: wait for a fresh read.
		harness.Eventually(t, 20*time.Second, func() bool {
			p.MustJSON(t, http.StatusOK, http.MethodGet, "/api/proxy/runtime", nil, &v)
			clear(owned)
			for _, r := range append(v.TCPRouters, v.UDPRouters...) {
				if r.ServiceID != "" {
					owned[r.ServiceID] = r
				}
			}
			return len(owned) == len(ids)
		}, "the runtime view does not show every tcp and udp router as the service's")
		for name, id := range ids {
			r, ok := owned[id]
			if !ok || r.Status != "enabled" {
				t.Errorf("%s: no enabled router of the service in the runtime view (%+v)", name, v)
			}
		}
		if r := owned[ids["pass"]]; r.Rule != "HostSNI(`pass.tcp.test`)" {
			t.Errorf("pass router rule %q", r.Rule)
		}
		// The panel's own tcp routers are not conflicts of its services.
		var cf struct {
			Items []struct{ ServiceID, Router string }
		}
		p.MustJSON(t, http.StatusOK, http.MethodGet, "/api/proxy/conflicts", nil, &cf)
		if len(cf.Items) != 0 {
			t.Errorf("conflicts: %+v", cf.Items)
		}
		var st struct {
			Services []struct{ ServiceID, State string }
		}
		harness.Eventually(t, 20*time.Second, func() bool {
			p.MustJSON(t, http.StatusOK, http.MethodGet, "/api/proxy/status", nil, &st)
			live := 0
			for _, s := range st.Services {
				for _, id := range ids {
					if s.ServiceID == id && s.State == "live" {
						live++
					}
				}
			}
			return live == len(ids)
		}, "the tcp and udp services' badges are not all live")
	})

	t.Run("audit", func(t *testing.T) {
		var page struct {
			Items []struct {
				Resource struct{ ID string }
				Changes  []struct{ Path string }
			}
		}
		p.MustJSON(t, http.StatusOK, http.MethodGet, "/api/audit?limit=50&action=create&resourceType=services", nil, &page)
		paths := map[string][]string{}
		for _, it := range page.Items {
			for _, c := range it.Changes {
				paths[it.Resource.ID] = append(paths[it.Resource.ID], c.Path)
			}
		}
		if got := strings.Join(paths[ids["guarded"]], " "); !strings.Contains(got, "tcp.allowList") || !strings.Contains(got, "kind") {
			t.Errorf("the audit entry of the guarded service's creation records %q", got)
		}
		if len(paths[ids["dns"]]) == 0 {
			t.Errorf("no audit entry of the udp service's creation")
		}
	})
}
