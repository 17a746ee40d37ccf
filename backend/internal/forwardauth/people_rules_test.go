package forwardauth

import (
	"context"
	"net/http"
	"net/url"
	"testing"

	"github.com/gatehouse-proxy/gatehouse/internal/access"
	"github.com/gatehouse-proxy/gatehouse/internal/access/rules"
)

// On a people protection, a rule naming a group sees the person of the
// session: an anonymous browser is sent to the portal (not refused), a
// person the rule allows reaches the upstream with their identity headers,
// and one it does not is refused.
func TestPeopleRulesSeeThePerson(t *testing.T) {
	var v *env
	var rs *access.Service
	pe := newPeopleEnv(t, func(o *Deps) {
		rs = access.NewService(access.Deps{DB: o.DB, Bus: o.Bus, Now: o.Now, Info: self{&v}})
		o.Rules = rs
	})
	v = pe.env
	const host = "cloud.example.com"
	svc := pe.service(host)
	pe.protectPeople(svc, map[string]any{"groups": []string{pe.family}})
	pe.join(pe.family, pe.bob)
	pe.join(pe.admins, pe.ann)
	if _, err := rs.Put(context.Background(), svc, access.PutServiceAccess{ConfirmPublic: true, Rules: []rules.Rule{
		{Action: rules.Allow, Paths: []rules.PathMatch{{Type: "prefix", Value: "/admin"}}, Groups: []string{"admins"}},
		{Action: rules.Deny, Paths: []rules.PathMatch{{Type: "prefix", Value: "/admin"}}},
	}}); err != nil {
		t.Fatal(err)
	}

	rec := pe.verify(fwd{service: svc, host: host, uri: "/admin/users", browser: true})
	want := testPortal + PortalContinuePath + "?rd=" + url.QueryEscape("https://"+host+"/admin/users")
	if rec.Code != http.StatusFound || rec.Header().Get("Location") != want {
		t.Fatalf("anonymous browser on /admin = %d %q, want 302 to the portal", rec.Code, rec.Header().Get("Location"))
	}

	at := pe.clock.Now()
	pe.portal.set("p-ann", PortalSignIn{PersonID: pe.ann, SessionID: "ps-ann", At: at})
	pe.portal.set("p-bob", PortalSignIn{PersonID: pe.bob, SessionID: "ps-bob", At: at})
	ann, bob := pe.signIn(svc, host, "p-ann"), pe.signIn(svc, host, "p-bob")

	rec = pe.verify(fwd{service: svc, host: host, uri: "/admin/users", cookie: ann})
	if rec.Code != http.StatusOK || rec.Header().Get("Remote-User") != "ann" || rec.Header().Get("Remote-Groups") != "admins,family" {
		t.Errorf("ann on /admin = %d, Remote-User %q, Remote-Groups %q; want 200 with her identity",
			rec.Code, rec.Header().Get("Remote-User"), rec.Header().Get("Remote-Groups"))
	}
	if rec := pe.verify(fwd{service: svc, host: host, uri: "/admin/users", cookie: bob}); rec.Code != http.StatusForbidden {
		t.Errorf("bob on /admin = %d, want 403", rec.Code)
	}
	if rec := pe.verify(fwd{service: svc, host: host, uri: "/photos", cookie: bob}); rec.Code != http.StatusOK || rec.Header().Get("Remote-User") != "bob" {
		t.Errorf("bob on /photos = %d %q, want 200 as bob", rec.Code, rec.Header().Get("Remote-User"))
	}
}
