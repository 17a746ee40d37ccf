//go:build bench

package bench

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gatehouse-proxy/gatehouse/e2e/harness"
)

// TestBenchTCPConnect measures TCP connection set-up (connect, one line to
// the target and its echo back, close) straight to an echo server, through
// a real Traefik's catch-all tcp router made by the panel, and through one
// with an address allow list (20 ranges, the client's last), in the same
// run: sequential connections interleaved between the three (median and
// p99), then 4 clients in parallel for a fixed time each (connections/s).
func TestBenchTCPConnect(t *testing.T) {
	const sequential = 1500
	const parallel, window = 4, 2 * time.Second
	echo := harness.StartEchoServer(t, "e:", "")
	plainEP, allowEP := harness.FreePort(t), harness.FreePort(t)
	port := harness.FreePort(t)
	panelURL := "http://127.0.0.1:" + strconv.Itoa(port)
	tr := harness.StartTraefik(t, harness.TraefikOptions{ProviderURL: panelURL + "/api/proxy/config", Static: fmt.Sprintf(`
entryPoints:
  plain: {address: "127.0.0.1:%d"}
  allow: {address: "127.0.0.1:%d"}
`, plainEP, allowEP)})
	p := harness.StartPanel(t, map[string]string{"PANEL_LISTEN": "127.0.0.1:" + strconv.Itoa(port), "PANEL_PROXY_API_URL": tr.APIURL})
	ranges := make([]string, 0, 20)
	for i := range 19 {
		ranges = append(ranges, fmt.Sprintf("10.%d.0.0/16", i))
	}
	ranges = append(ranges, "127.0.0.0/8")
	target := []map[string]any{{"host": echo.Host, "port": echo.Port}}
	p.MustJSON(t, http.StatusCreated, http.MethodPost, "/api/services", map[string]any{"name": "plain", "kind": "tcp",
		"entrypoints": []string{"plain"}, "targets": target}, nil)
	p.MustJSON(t, http.StatusCreated, http.MethodPost, "/api/services", map[string]any{"name": "allow", "kind": "tcp",
		"entrypoints": []string{"allow"}, "targets": target, "tcp": map[string]any{"allowList": ranges}}, nil)

	modes := []struct{ name, addr string }{
		{"direct to the echo server", echo.Addr()},
		{"through Traefik", "127.0.0.1:" + strconv.Itoa(plainEP)},
		{"through Traefik, allow list", "127.0.0.1:" + strconv.Itoa(allowEP)},
	}
	for _, m := range modes[1:] {
		harness.Eventually(t, 30*time.Second, func() bool { _, err := connectOnce(m.addr); return err == nil }, m.name+": no echo")
	}
	lat := make([][]time.Duration, len(modes))
	for range sequential {
		for i, m := range modes {
			d, err := connectOnce(m.addr)
			if err != nil {
				t.Fatalf("%s: %v", m.name, err)
			}
			lat[i] = append(lat[i], d)
		}
	}
	fmt.Printf("\nTCP connection set-up: connect, one echoed line, close (%d sequential connections each, interleaved;\n", sequential)
	fmt.Printf("then %d clients in parallel for %v each)\n", parallel, window)
	fmt.Printf("%-30s  %10s  %10s  %14s\n", "path", "median µs", "p99 µs", "connections/s")
	for i, m := range modes {
		n := throughput(m.addr, parallel, window)
		fmt.Printf("%-30s  %10.0f  %10.0f  %14.0f\n", m.name, us(quantile(lat[i], 0.5)), us(quantile(lat[i], 0.99)), float64(n)/window.Seconds())
	}
	fmt.Println("goal: the allow list costs nothing measurable beside the router itself")
}

// connectOnce opens a connection, sends a line, reads its echo and closes
// with a reset (no TIME_WAIT left behind to run out of ports).
func connectOnce(addr string) (time.Duration, error) {
	start := time.Now()
	c, err := net.DialTimeout("tcp", addr, 5*time.Second)
	if err != nil {
		return 0, err
	}
	defer func() {
		_ = c.(*net.TCPConn).SetLinger(0)
		_ = c.Close()
	}()
	got, err := harness.EchoLine(c, "x")
	if err != nil {
		return 0, err
	}
	if got != "e:x" {
		return 0, fmt.Errorf("echo %q", got)
	}
	return time.Since(start), nil
}

// throughput counts the connections workers complete in window.
func throughput(addr string, workers int, window time.Duration) int64 {
	ctx, cancel := context.WithTimeout(context.Background(), window)
	defer cancel()
	var n atomic.Int64
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for ctx.Err() == nil {
				if _, err := connectOnce(addr); err == nil {
					n.Add(1)
				}
			}
		}()
	}
	wg.Wait()
	return n.Load()
}
