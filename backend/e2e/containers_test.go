//go:build e2e

package e2e

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/gatehouse-proxy/gatehouse/e2e/harness"
)

// The podman network the container scenarios use: a test subnet of
// 198.18.0.0/15, with fixed addresses so a recreated container's new one
// is known.
const (
	containersNet    = "gatehouse-e2e"
	containersSubnet = "198.18.60.0/24"
)

type containerList struct {
	State           string
	TraefikNetworks []string
	Items           []struct {
		Name       string
		Networks   []struct{ Name, Address string }
		Suggestion *struct {
			Network, Host, Via, Reason string
			Port, TargetPort           int
		}
		Declared    bool
		LabelErrors []struct{ Label, Message string }
		Services    []struct{ ServiceID, Source string }
	}
}

type binding struct {
	ServiceID, Container, Network, Source, State, Address, LabelError string
	Port                                                              int
}

func bindingsOf(t *testing.T, p *harness.Panel) []binding {
	var out struct{ Items []binding }
	p.MustJSON(t, http.StatusOK, http.MethodGet, "/api/containers/bindings", nil, &out)
	return out.Items
}

// runWhoami starts the test image as name at ip on the test network.
func runWhoami(t *testing.T, pm *harness.Podman, name, ip string, labels ...string) {
	args := []string{"run", "-d", "--name", name, "--network", containersNet, "--ip", ip, "-e", "NAME=" + name + "@" + ip}
	for _, l := range labels {
		args = append(args, "--label", l)
	}
	pm.Run(t, append(args, pm.Image)...)
}

// TestContainers: a container picked from the panel's list becomes a
// routed service and keeps working after it is recreated with a new
// address; a stopped container shows on its binding; a labelled
// container becomes a read-only service, and detaching makes it an
// ordinary one; a bad label is refused on the container's row and breaks
// nothing. All through podman's Docker-compatible API and a real Traefik.
func TestContainers(t *testing.T) {
	harness.TraefikBin(t)
	pm := harness.StartPodman(t)
	pm.Run(t, "network", "create", "--subnet", containersSubnet, containersNet)
	runWhoami(t, pm, "app", "198.18.60.10")

	p := harness.StartPanel(t, map[string]string{
		"PANEL_DOCKER_HOST": pm.Host, "PANEL_DOCKER_NETWORK": containersNet,
	})
	tr := harness.StartTraefik(t, harness.TraefikOptions{ProviderURL: p.URL + "/api/proxy/config"})

	var list containerList
	p.MustJSON(t, http.StatusOK, http.MethodGet, "/api/containers", nil, &list)
	if list.State != "ok" || len(list.Items) != 1 || list.Items[0].Name != "app" {
		t.Fatalf("container list: %+v", list)
	}
	sug := list.Items[0].Suggestion
	if sug == nil || sug.Via != "network" || sug.Host != "198.18.60.10" || sug.TargetPort != 8080 || sug.Network != containersNet {
		t.Fatalf("suggestion: %+v", sug)
	}
	t.Logf("suggested: %s:%d (%s: %s)", sug.Host, sug.TargetPort, sug.Via, sug.Reason)

	var made struct {
		Service struct {
			ID      string
			Targets []struct {
				Host string
				Port int
			}
		}
		Binding binding
	}
	p.MustJSON(t, http.StatusCreated, http.MethodPost, "/api/containers/services", map[string]any{
		"container": "app",
		"service": map[string]any{"name": "app", "entrypoints": []string{"web"},
			"hostnames": []map[string]string{{"type": "custom", "value": "app.containers.test"}}},
	}, &made)
	if len(made.Service.Targets) != 1 || made.Service.Targets[0].Host != "198.18.60.10" || made.Binding.Source != "panel" {
		t.Fatalf("created: %+v", made)
	}
	routedTo(t, tr, "app.containers.test", "name=app@198.18.60.10", 30*time.Second)

	// Recreated with a new address: the target follows.
	pm.Run(t, "rm", "-f", "-t", "0", "app")
	start := time.Now()
	runWhoami(t, pm, "app", "198.18.60.11")
	routedTo(t, tr, "app.containers.test", "name=app@198.18.60.11", 30*time.Second)
	t.Logf("routed to the recreated container %v after it was started (podman run included)", time.Since(start).Round(time.Millisecond))
	if b := bindingsOf(t, p); len(b) != 1 || b[0].Address != "198.18.60.11:8080" || b[0].State != "running" {
		t.Fatalf("bindings after recreation: %+v", b)
	}

	// Stopped, then gone: the binding says so.
	pm.Run(t, "stop", "-t", "0", "app")
	harness.Eventually(t, 20*time.Second, func() bool {
		b := bindingsOf(t, p)
		return len(b) == 1 && b[0].State == "stopped"
	}, "the binding did not say the container stopped")
	pm.Run(t, "rm", "-f", "app")
	harness.Eventually(t, 20*time.Second, func() bool {
		b := bindingsOf(t, p)
		return len(b) == 1 && b[0].State == "gone"
	}, "the binding did not say the container is gone")

	// A service declared by labels: routed and read-only.
	runWhoami(t, pm, "labelled", "198.18.60.20", "gatehouse.enable=true",
		"gatehouse.hostname=labelled.containers.test", "gatehouse.port=8080", "gatehouse.entrypoints=web")
	routedTo(t, tr, "labelled.containers.test", "name=labelled@198.18.60.20", 30*time.Second)
	var labelled binding
	for _, b := range bindingsOf(t, p) {
		if b.Container == "labelled" {
			labelled = b
		}
	}
	if labelled.Source != "labels" {
		t.Fatalf("labelled binding: %+v", labelled)
	}
	id := labelled.ServiceID
	var svc map[string]any
	p.MustJSON(t, http.StatusOK, http.MethodGet, "/api/services/"+id, nil, &svc)
	var refusal struct {
		Error struct{ Code, Message string }
	}
	if code := p.JSON(t, http.MethodPatch, "/api/services/"+id, map[string]any{"enabled": false}, &refusal); code != http.StatusConflict ||
		!strings.Contains(refusal.Error.Message, "labels of container \"labelled\"") {
		t.Fatalf("PATCH of a labelled service: %d %+v", code, refusal)
	}
	if code := p.JSON(t, http.MethodDelete, "/api/services/"+id, nil, &refusal); code != http.StatusConflict {
		t.Fatalf("DELETE of a labelled service: %d", code)
	}

	// Labels asking for the people protection and the LAN-bypass preset:
	// the service has both, and loopback (Traefik's client here) passes.
	runWhoami(t, pm, "guarded", "198.18.60.21", "gatehouse.enable=true", "gatehouse.hostname=guarded.containers.test",
		"gatehouse.entrypoints=web", "gatehouse.protection=people", "gatehouse.access.preset=lan-bypass")
	routedTo(t, tr, "guarded.containers.test", "name=guarded@198.18.60.21", 30*time.Second)
	var guarded string
	for _, b := range bindingsOf(t, p) {
		if b.Container == "guarded" {
			guarded = b.ServiceID
		}
	}
	var gsvc struct{ Protection struct{ People bool } }
	p.MustJSON(t, http.StatusOK, http.MethodGet, "/api/services/"+guarded, nil, &gsvc)
	var access map[string]any
	p.MustJSON(t, http.StatusOK, http.MethodGet, "/api/services/"+guarded+"/access", nil, &access)
	if !gsvc.Protection.People || !strings.Contains(fmt.Sprint(access), "LAN bypass") {
		t.Fatalf("guarded: protection %+v, access %v", gsvc, access)
	}

	// A bad label: refused on the container's row; the rest keeps working.
	runWhoami(t, pm, "broken", "198.18.60.30", "gatehouse.enable=true", "gatehouse.hostname=not a host", "gatehouse.port=99999")
	harness.Eventually(t, 20*time.Second, func() bool {
		p.MustJSON(t, http.StatusOK, http.MethodGet, "/api/containers", nil, &list)
		for _, it := range list.Items {
			if it.Name == "broken" {
				return it.Declared && len(it.LabelErrors) == 2
			}
		}
		return false
	}, "the broken labels were not reported on the container")
	routedTo(t, tr, "labelled.containers.test", "name=labelled@198.18.60.20", 10*time.Second)

	// Detached: an ordinary service again.
	p.MustJSON(t, http.StatusNoContent, http.MethodDelete, "/api/containers/bindings/"+id, nil, nil)
	p.MustJSON(t, http.StatusOK, http.MethodPatch, "/api/services/"+id, map[string]any{"enabled": false}, nil)
}

// routedTo waits until host answers through Traefik with want in its body.
func routedTo(t *testing.T, tr *harness.Traefik, host, want string, within time.Duration) {
	t.Helper()
	deadline := time.Now().Add(within)
	for {
		code, body := tr.Get(tr.WebURL, host, "/")
		if code == http.StatusOK && strings.Contains(body, want) {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("after %v: %s did not answer %q through Traefik (last: %d %s)", within, host, want, code, body)
		}
		time.Sleep(50 * time.Millisecond)
	}
}
