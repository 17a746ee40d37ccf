package app

import (
	"net/http"
	"strings"
	"testing"
)

// Saving the Security tab's one form is recorded once, with the diff of the
// protections, and a link's PIN is never in the audit log.
func TestProtectionSaveAndLinkPINAudited(t *testing.T) {
	a := newTestApp(t, nil)
	a.signIn()
	d := a.mustCreate("/api/domains", `{"name":"Home","domain":"example.com","certResolver":"le"}`)
	svc := a.mustCreate("/api/services", svcBody(d.ID, "app", ""))
	rec := a.do("PUT", "/api/services/"+svc.ID+"/protection", `{"sharedLinks":{"enabled":true},"tokens":{"enabled":true,"header":"X-Api-Key"}}`)
	if rec.Code != http.StatusOK {
		t.Fatalf("put protection = %d %s", rec.Code, rec.Body)
	}
	if rec := a.do("POST", "/api/services/"+svc.ID+"/shared-links", `{"note":"dana","pin":"583920"}`); rec.Code != http.StatusCreated {
		t.Fatalf("create link = %d %s", rec.Code, rec.Body)
	}
	log := a.do("GET", "/api/audit?limit=50", "")
	body := log.Body.String()
	if log.Code != http.StatusOK || !strings.Contains(body, `"route":"/api/services/:id/protection"`) ||
		!strings.Contains(body, `{"path":"tokens.enabled","before":false,"after":true}`) {
		t.Fatalf("audit log: %d %s", log.Code, body)
	}
	if !strings.Contains(body, `{"path":"challenge","before":null,"after":"pin"}`) {
		t.Fatalf("the audit log does not say the link asks for a PIN: %s", body)
	}
	if strings.Contains(body, "583920") {
		t.Fatalf("the PIN is in the audit log: %s", body)
	}
}
