//go:build bench

package bench

import (
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gatehouse-proxy/gatehouse/e2e/harness"
)

// TestBenchContainerRecreate measures the time from a bound container's
// recreation with a new address (podman rm, then podman run returning) to
// the panel pointing the service at the new address, and to Traefik
// routing to it, next to a baseline measured in the same run: the same
// move made by an edit through the API (PUT of the target), which pays
// Traefik's poll (1 s in the harness) but no engine event. Rounds start
// 2.5 s apart, past Traefik's throttle of configuration changes. Podman's
// Docker-compatible API, a real Traefik; skips without podman.
func TestBenchContainerRecreate(t *testing.T) {
	harness.TraefikBin(t)
	pm := harness.StartPodman(t)
	pm.Run(t, "network", "create", "--subnet", "198.18.60.0/24", "gatehouse-bench")
	ips := []string{"198.18.60.40", "198.18.60.41"}
	run := func(ip string) {
		pm.Run(t, "run", "-d", "--name", "app", "--network", "gatehouse-bench", "--ip", ip, "-e", "NAME=app@"+ip, pm.Image)
	}
	run(ips[0])
	p := harness.StartPanel(t, map[string]string{"PANEL_DOCKER_HOST": pm.Host, "PANEL_DOCKER_NETWORK": "gatehouse-bench",
		"PANEL_LOG_LEVEL": "warn"})
	tr := harness.StartTraefik(t, harness.TraefikOptions{ProviderURL: p.URL + "/api/proxy/config"})
	var made struct{ Service struct{ ID string } }
	p.MustJSON(t, http.StatusCreated, http.MethodPost, "/api/containers/services", map[string]any{
		"container": "app",
		"service": map[string]any{"name": "app", "entrypoints": []string{"web"},
			"hostnames": []map[string]string{{"type": "custom", "value": "app.bench.test"}}},
	}, &made)
	// A request in flight to a removed container's address waits for the
	// dial to fail (seconds): probes time out after 150 ms and start every
	// 20 ms, each on its own, so the first answer from the new address is
	// seen within about 20 ms of Traefik sending it there.
	client := &http.Client{Timeout: 150 * time.Millisecond, Transport: &http.Transport{DisableKeepAlives: true}}
	probe := func(ip string) bool {
		req, _ := http.NewRequest(http.MethodGet, tr.WebURL+"/", nil)
		req.Host = "app.bench.test"
		resp, err := client.Do(req)
		if err != nil {
			return false
		}
		defer func() { _ = resp.Body.Close() }()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode == http.StatusOK && strings.Contains(string(b), "app@"+ip+" ")
	}
	waitRouted := func(ip string, from time.Time) time.Duration {
		hit := make(chan time.Duration, 1)
		tick := time.NewTicker(20 * time.Millisecond)
		defer tick.Stop()
		for time.Since(from) < 60*time.Second {
			go func() {
				if probe(ip) {
					select {
					case hit <- time.Since(from):
					default:
					}
				}
			}()
			select {
			case d := <-hit:
				return d
			case <-tick.C:
			}
		}
		t.Fatalf("Traefik did not route to %s within 60s", ip)
		return 0
	}
	// Traefik's own API says when its configuration names the new address.
	waitTraefik := func(ip string, from time.Time) time.Duration {
		for time.Since(from) < 60*time.Second {
			resp, err := http.Get(tr.APIURL + "/api/http/services")
			if err == nil {
				b, _ := io.ReadAll(resp.Body)
				_ = resp.Body.Close()
				if strings.Contains(string(b), "http://"+ip+":8080") {
					return time.Since(from)
				}
			}
			time.Sleep(10 * time.Millisecond)
		}
		t.Fatalf("Traefik's configuration did not name %s within 60s", ip)
		return 0
	}
	waitRouted(ips[0], time.Now())
	waitTarget := func(ip string, from time.Time) time.Duration {
		for time.Since(from) < 60*time.Second {
			var out struct{ Items []struct{ Address string } }
			p.MustJSON(t, http.StatusOK, http.MethodGet, "/api/containers/bindings", nil, &out)
			if len(out.Items) == 1 && out.Items[0].Address == ip+":8080" {
				return time.Since(from)
			}
			time.Sleep(5 * time.Millisecond)
		}
		t.Fatalf("the binding did not follow to %s within 60s", ip)
		return 0
	}

	// Traefik applies a new configuration at most every 2 s
	// (providersThrottleDuration): each round starts after that, so no
	// round waits for the previous one's change.
	const rounds, settle = 6, 2500 * time.Millisecond
	var panel, configured, routed []time.Duration
	for i := 1; i <= rounds; i++ {
		ip := ips[i%2]
		time.Sleep(settle)
		pm.Run(t, "rm", "-f", "-t", "0", "app")
		run(ip)
		start := time.Now()
		panel = append(panel, waitTarget(ip, start))
		configured = append(configured, waitTraefik(ip, start))
		routed = append(routed, waitRouted(ip, start))
	}

	// Baseline: the same move, made through the API. The container stays;
	// a second one answers at the other address.
	pm.Run(t, "run", "-d", "--name", "other", "--network", "gatehouse-bench", "--ip", "198.18.60.42", "-e", "NAME=app@198.18.60.42", pm.Image)
	p.MustJSON(t, http.StatusNoContent, http.MethodDelete, "/api/containers/bindings/"+made.Service.ID, nil, nil)
	var edited []time.Duration
	cur := ips[rounds%2]
	for i := range rounds {
		ip := []string{"198.18.60.42", cur}[i%2]
		time.Sleep(settle)
		start := time.Now()
		p.MustJSON(t, http.StatusOK, http.MethodPut, "/api/services/"+made.Service.ID, map[string]any{
			"name": "app", "entrypoints": []string{"web"},
			"hostnames": []map[string]string{{"type": "custom", "value": "app.bench.test"}},
			"targets":   []map[string]any{{"scheme": "http", "host": ip, "port": 8080}},
		}, nil)
		edited = append(edited, waitRouted(ip, start))
	}

	med := func(d []time.Duration) (time.Duration, time.Duration) {
		s := slices.Clone(d)
		slices.Sort(s)
		return s[len(s)/2], s[len(s)-1]
	}
	fmt.Printf("\nA bound container recreated with a new address (podman %s API, Traefik polling every 1s; %d rounds, same run)\n", "Docker-compatible", rounds)
	fmt.Printf("%-58s %10s %10s\n", "from `podman run` returning to", "median", "max")
	for _, r := range []struct {
		name string
		d    []time.Duration
	}{
		{"the panel's target at the new address (engine event)", panel},
		{"Traefik's configuration naming the new address", configured},
		{"Traefik routing to the new address", routed},
		{"baseline: Traefik routing after a PUT of the target", edited},
	} {
		m, x := med(r.d)
		fmt.Printf("%-58s %10s %10s\n", r.name, ms3(m), ms3(x))
	}
}
