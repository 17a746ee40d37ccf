package app

import (
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gatehouse-proxy/gatehouse/internal/store"
)

// TestContainersNotConfigured: without PANEL_DOCKER_HOST the list says so,
// and making a service from a container is refused, naming why.
func TestContainersNotConfigured(t *testing.T) {
	a := newTestApp(t, nil)
	a.signIn()
	rec := a.do(http.MethodGet, "/api/containers", "")
	if rec.Code != http.StatusOK || !strings.Contains(rec.Body.String(), `"state":"not_configured"`) {
		t.Fatalf("list: %d %s", rec.Code, rec.Body)
	}
	rec = a.do(http.MethodPost, "/api/containers/services", `{"container":"web","service":{"name":"web"}}`)
	if rec.Code != http.StatusBadRequest || !strings.Contains(decodeEnvelope(t, rec).Error.Message, "PANEL_DOCKER_HOST") {
		t.Fatalf("create: %d %s", rec.Code, rec.Body)
	}
	rec = a.do(http.MethodPost, "/api/containers/services", `{"container":"`+strings.Repeat("x", 200)+`","service":{"name":"web"}}`)
	if rec.Code != http.StatusUnprocessableEntity || decodeEnvelope(t, rec).Error.Fields[0].Field != "container" {
		t.Fatalf("long name: %d %s", rec.Code, rec.Body)
	}
	if rec = a.do(http.MethodDelete, "/api/containers/bindings/nope", ""); rec.Code != http.StatusNotFound {
		t.Fatalf("detach unknown: %d %s", rec.Code, rec.Body)
	}
}

// TestLabelledServiceReadOnly: a service its container's labels declare
// refuses every write through the API, saying why and how to detach it;
// detached, it is an ordinary service.
func TestLabelledServiceReadOnly(t *testing.T) {
	a := newTestApp(t, nil)
	a.signIn()
	rec := a.do(http.MethodPost, "/api/services", `{"name":"wiki","hostnames":[{"type":"custom","value":"wiki.example.com"}],`+
		`"targets":[{"scheme":"http","host":"10.0.0.5","port":80}]}`)
	if rec.Code != http.StatusCreated {
		t.Fatalf("create: %d %s", rec.Code, rec.Body)
	}
	id := decode[struct{ ID string }](t, rec).ID
	now := time.Now()
	if err := a.c.db.Create(&store.ContainerBinding{ServiceID: id, ContainerName: "wiki", Network: "proxy", Port: 80,
		Source: store.BindingLabels, State: store.ContainerRunning, CreatedAt: now, UpdatedAt: now}).Error; err != nil {
		t.Fatal(err)
	}
	put := `{"name":"wiki2","hostnames":[{"type":"custom","value":"wiki.example.com"}],"targets":[{"scheme":"http","host":"10.0.0.5","port":80}]}`
	// The labels own the service, its protections and its access rules.
	for _, w := range []struct{ method, path, body string }{
		{http.MethodPut, "", put}, {http.MethodPatch, "", `{"enabled":false}`}, {http.MethodDelete, "", ""},
		{http.MethodPut, "/protection", `{}`}, {http.MethodPost, "/security-configs", `{}`},
		{http.MethodDelete, "/security-configs/basic_auth", ""}, {http.MethodPut, "/access", `{}`},
	} {
		rec := a.do(w.method, "/api/services/"+id+w.path, w.body)
		if rec.Code != http.StatusConflict {
			t.Fatalf("%s %s: %d %s", w.method, w.path, rec.Code, rec.Body)
		}
		if msg := decodeEnvelope(t, rec).Error.Message; !strings.Contains(msg, `labels of container "wiki"`) ||
			!strings.Contains(msg, "/api/containers/bindings/"+id) {
			t.Fatalf("%s %s: %s", w.method, w.path, msg)
		}
	}
	rec = a.do(http.MethodGet, "/api/containers/bindings", "")
	if rec.Code != http.StatusOK || !strings.Contains(rec.Body.String(), `"source":"labels"`) {
		t.Fatalf("bindings: %d %s", rec.Code, rec.Body)
	}
	if rec = a.do(http.MethodDelete, "/api/containers/bindings/"+id, ""); rec.Code != http.StatusNoContent {
		t.Fatalf("detach: %d %s", rec.Code, rec.Body)
	}
	if rec = a.do(http.MethodPut, "/api/services/"+id, put); rec.Code != http.StatusOK {
		t.Fatalf("PUT after detach: %d %s", rec.Code, rec.Body)
	}
	if rec = a.do(http.MethodPut, "/api/services/"+id+"/access", `{"rules":[]}`); rec.Code != http.StatusOK {
		t.Fatalf("PUT access after detach: %d %s", rec.Code, rec.Body)
	}
	// Deleting a bound service deletes its binding.
	if err := a.c.db.Create(&store.ContainerBinding{ServiceID: id, ContainerName: "wiki", Port: 80,
		Source: store.BindingPanel, State: store.ContainerRunning, CreatedAt: now, UpdatedAt: now}).Error; err != nil {
		t.Fatal(err)
	}
	if rec = a.do(http.MethodDelete, "/api/services/"+id, ""); rec.Code != http.StatusNoContent {
		t.Fatalf("delete a panel-bound service: %d %s", rec.Code, rec.Body)
	}
	var n int64
	a.c.db.Model(&store.ContainerBinding{}).Count(&n)
	if n != 0 {
		t.Fatalf("%d bindings left", n)
	}
}

// TestContainersFromEngine lists a real engine's containers (podman's
// Docker-compatible API, started by scripts/podman.sh) and makes a service
// from one; it skips without podman.
func TestContainersFromEngine(t *testing.T) {
	script, _ := filepath.Abs("../../scripts/podman.sh")
	if exec.Command(script, "check").Run() != nil { //nolint:gosec // the repository's own script
		t.Skip("podman is not installed (apt-get install podman runc)")
	}
	dir := t.TempDir()
	run := func(args ...string) string {
		t.Helper()
		cmd := exec.Command(script, args...) //nolint:gosec // the repository's own script
		cmd.Env = append(os.Environ(), "GATEHOUSE_PODMAN_DIR="+dir)
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("podman.sh %v: %v %s", args, err, out)
		}
		return strings.TrimSpace(string(out))
	}
	host := run("start")
	t.Cleanup(func() { run("stop") })
	img := run("image")
	run("podman", "network", "create", "--subnet", "198.18.61.0/24", "gh-app-test")
	run("podman", "run", "-d", "--name", "web", "--network", "gh-app-test", "--ip", "198.18.61.9",
		"--label", "gatehouse.enable=true", "--label", "gatehouse.hostname=bad host", img)

	a := newTestApp(t, map[string]string{"PANEL_DOCKER_HOST": host, "PANEL_DOCKER_NETWORK": "gh-app-test"})
	a.signIn()
	rec := a.do(http.MethodGet, "/api/containers", "")
	body := rec.Body.String()
	if rec.Code != http.StatusOK || !strings.Contains(body, `"address":"198.18.61.9"`) || !strings.Contains(body, `"via":"network"`) ||
		!strings.Contains(body, `"label":"gatehouse.hostname"`) || !strings.Contains(body, `"private":8080`) {
		t.Fatalf("list: %d %s", rec.Code, body)
	}
	rec = a.do(http.MethodPost, "/api/containers/services", `{"container":"web","network":"nope","service":{"name":"web"}}`)
	if rec.Code != http.StatusUnprocessableEntity || decodeEnvelope(t, rec).Error.Fields[0].Field != "network" {
		t.Fatalf("unknown network: %d %s", rec.Code, rec.Body)
	}
	rec = a.do(http.MethodPost, "/api/containers/services", `{"container":"web","service":{"name":"","hostnames":[{"type":"custom","value":"web.example.com"}]}}`)
	if rec.Code != http.StatusUnprocessableEntity || !strings.HasPrefix(decodeEnvelope(t, rec).Error.Fields[0].Field, "service.") {
		t.Fatalf("bad service: %d %s", rec.Code, rec.Body)
	}
	rec = a.do(http.MethodPost, "/api/containers/services", `{"container":"web","scheme":"h2c","service":{"name":"web","hostnames":[{"type":"custom","value":"web.example.com"}]}}`)
	if rec.Code != http.StatusCreated || !strings.Contains(rec.Body.String(), `"host":"198.18.61.9","port":8080`) ||
		!strings.Contains(rec.Body.String(), `"scheme":"h2c"`) {
		t.Fatalf("create: %d %s", rec.Code, rec.Body)
	}
	id := decode[struct{ Service struct{ ID string } }](t, rec).Service.ID
	if rec = a.do(http.MethodDelete, "/api/containers/bindings/"+id, ""); rec.Code != http.StatusNoContent {
		t.Fatalf("detach: %d %s", rec.Code, rec.Body)
	}
	rec = a.do(http.MethodGet, "/api/audit", "")
	body = rec.Body.String()
	if !strings.Contains(body, `"type":"services","id":"`+id+`"`) || !strings.Contains(body, `"route":"/api/containers/services"`) ||
		!strings.Contains(body, `"type":"containers.bindings","id":"`+id+`"`) {
		t.Fatalf("audit log: %s", body)
	}
}
