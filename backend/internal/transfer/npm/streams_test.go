package npm

import (
	"fmt"
	"strings"
	"testing"

	"github.com/gatehouse-proxy/gatehouse/internal/services"
)

const insertStream = `INSERT INTO stream (id, created_on, modified_on, owner_user_id, incoming_port, forwarding_host,
	forwarding_port, tcp_forwarding, udp_forwarding, meta, enabled, certificate_id)
	VALUES (%d, '2025-01-01', '2025-01-01', 1, %d, '%s', %d, %d, %d, '{}', %d, %d)`

// TestStreams: each protocol an NPM stream forwards becomes a tcp or udp
// service on an entrypoint named after it, which the panel accepts; a
// stream it cannot express is skipped saying why.
func TestStreams(t *testing.T) {
	doc, skipped := readWith(t,
		fmt.Sprintf(insertStream, 1, 53, "10.0.0.53", 53, 1, 1, 1, 0),
		fmt.Sprintf(insertStream, 2, 993, "mail.internal", 993, 1, 0, 0, 7),
		fmt.Sprintf(insertStream, 3, 5000, "a b", 5000, 1, 0, 1, 0),
		fmt.Sprintf(insertStream, 4, 6000, "10.0.0.6", 6000, 0, 0, 1, 0),
	)
	got := map[string]string{}
	for _, sv := range doc.Services {
		req := services.Request{Name: sv.Name, Hostnames: sv.Hostnames, Targets: sv.Targets, Entrypoints: sv.Entrypoints,
			Kind: sv.Kind, TCP: sv.TCP}
		if err := services.Check(&req); err != nil {
			t.Fatalf("%s: the panel refuses it: %v", sv.Name, err)
		}
		tls := ""
		if sv.TCP != nil {
			tls = sv.TCP.TLS
		}
		got[sv.Name] = fmt.Sprintf("%s %v %s:%d %s enabled=%v", sv.Kind, sv.Entrypoints, sv.Targets[0].Host, sv.Targets[0].Port, tls, sv.Enabled)
	}
	want := map[string]string{
		"Stream 53/tcp":  "tcp [tcp-53] 10.0.0.53:53 none enabled=true",
		"Stream 53/udp":  "udp [udp-53] 10.0.0.53:53  enabled=true",
		"Stream 993/tcp": "tcp [tcp-993] mail.internal:993 terminate enabled=false",
	}
	if len(got) != len(want) {
		t.Fatalf("services %v, want %v", got, want)
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s = %q, want %q", k, got[k], v)
		}
	}
	reasons := ""
	for _, s := range skipped {
		reasons += s.Source + ": " + s.Reason + "\n"
	}
	for _, w := range []string{"stream #3 (port 5000 to a b:5000): not imported: forwarding host", "stream #4", "neither TCP nor UDP",
		"stream #2 (port 993 to mail.internal:993): its certificate #7", `"udp-53" on port 53`} {
		if !strings.Contains(reasons, w) {
			t.Errorf("skipped list lacks %q:\n%s", w, reasons)
		}
	}
}
