package transfer

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/gatehouse-proxy/gatehouse/internal/actor"
	"github.com/gatehouse-proxy/gatehouse/internal/apperr"
	"github.com/gatehouse-proxy/gatehouse/internal/settings"
	"github.com/gatehouse-proxy/gatehouse/internal/store"
	"github.com/gatehouse-proxy/gatehouse/internal/transfer/document"
)

// seedPortal stores portal settings as PUT /api/config/portal would.
func (f *fixture) seedPortal() settings.Portal {
	f.t.Helper()
	// As the settings page stores them: the defaults (the provider's button
	// name among them), then what the admin set.
	p := settings.PortalDefaults()
	p.Host, p.Name, p.Logo, p.AccentColor = "auth.example.com", "Family", "https://example.com/logo.png", "#0a7d55"
	p.IdleTimeoutSeconds, p.RememberMeSeconds, p.AbsoluteLifetimeSeconds = 3600, 86400, 604800
	f.must(store.PutConfig(testCtx, f.db, settings.KeyPortal, p))
	return p
}

func (f *fixture) portal() settings.Portal {
	f.t.Helper()
	var p settings.Portal
	found, err := store.GetConfig(testCtx, f.db, settings.KeyPortal, &p)
	f.must(err)
	if !found {
		f.t.Fatal("no portal settings stored")
	}
	return p
}

// The portal's settings go out in the export and come back in: the plan
// shows them (create, then unchanged, then update naming the field).
func TestPortalSettingsRoundTrip(t *testing.T) {
	src := newFixture(t)
	src.seed()
	want := src.seedPortal()
	data := src.export(ExportOptions{})
	var doc struct {
		Config struct {
			Portal map[string]any `json:"portal"`
		} `json:"config"`
	}
	if err := json.Unmarshal(data, &doc); err != nil || doc.Config.Portal["host"] != "auth.example.com" {
		t.Fatalf("the export's portal section = %v (%v)", doc.Config.Portal, err)
	}

	dst := newFixture(t)
	if it := find(dst.plan(data, ImportOptions{}), KindPortal, settings.KeyPortal); it.Action != ActionCreate {
		t.Fatalf("plan into an empty panel: %+v", it)
	}
	dst.plan(data, ImportOptions{Apply: true})
	if got := dst.portal(); got != want {
		t.Fatalf("imported portal = %+v, want %+v", got, want)
	}
	if it := find(dst.plan(data, ImportOptions{}), KindPortal, settings.KeyPortal); it.Action != ActionUnchanged {
		t.Fatalf("plan again: %+v", it)
	}
	changed := edit(t, data, func(d *document.Document) {
		d.Config.Portal = json.RawMessage(strings.Replace(string(d.Config.Portal), "#0a7d55", "#AA0000", 1))
	})
	it := find(dst.plan(changed, ImportOptions{}), KindPortal, settings.KeyPortal)
	if it.Action != ActionUpdate || !slices.Equal(it.Fields, []string{"accentColor"}) {
		t.Fatalf("plan of a new colour: %+v", it)
	}
	dst.plan(changed, ImportOptions{Apply: true})
	if got := dst.portal().AccentColor; got != "#aa0000" {
		t.Fatalf("imported colour = %q, want it normalized", got)
	}
}

// A portal section is checked as the settings page checks it: a bad one is
// refused with a reason naming its field, and the rest of the file goes in.
func TestPortalSettingsImportChecked(t *testing.T) {
	src := newFixture(t)
	src.seed()
	src.seedPortal()
	data := src.export(ExportOptions{})
	for _, tc := range []struct{ name, portal, field string }{
		{"the panel's own domain", `{"host":"panel.example.com","name":"Family","accentColor":"#0a7d55"}`, "config.portal.host"},
		{"a bad colour", `{"host":"auth.example.com","name":"Family","accentColor":"blue"}`, "config.portal.accentColor"},
		{"a short idle timeout", `{"host":"auth.example.com","name":"x","accentColor":"#0a7d55","idleTimeoutSeconds":1}`, "config.portal.idleTimeoutSeconds"},
		{"an unknown field", `{"host":"auth.example.com","colour":"red"}`, "config.portal"},
		{"not an object", `["auth.example.com"]`, "config.portal"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			bad := edit(t, data, func(d *document.Document) { d.Config.Portal = json.RawMessage(tc.portal) })
			dst := newFixture(t)
			pl := dst.plan(bad, ImportOptions{Apply: true})
			it := find(pl, KindPortal, settings.KeyPortal)
			if it.Action != ActionRefused || !strings.Contains(it.Reason, tc.field) {
				t.Fatalf("item %+v; want refused naming %s", it, tc.field)
			}
			if find(pl, KindService, "app").Action != ActionCreate {
				t.Fatal("the rest of the file was not imported")
			}
		})
	}
	// Fields left out take the defaults, as on the settings page.
	dst := newFixture(t)
	dst.plan(edit(t, data, func(d *document.Document) { d.Config.Portal = json.RawMessage(`{"host":"auth.example.com"}`) }),
		ImportOptions{Apply: true})
	want := settings.PortalDefaults()
	want.Host = "auth.example.com"
	if got := dst.portal(); got != want {
		t.Fatalf("a partial section gave %+v, want %+v", got, want)
	}
}

// Where people sign in is person access: an API token's import that would
// change the portal's settings is refused, dry run too, naming
// config.portal; one that leaves them unchanged passes.
func TestTokenImportCannotChangeThePortal(t *testing.T) {
	token := actor.With(context.Background(), actor.Actor{Kind: actor.KindToken, ID: "t1", Name: "ci", Role: actor.RoleAdmin})
	src := newFixture(t)
	src.seed()
	src.seedPortal()
	data := src.export(ExportOptions{})
	if _, err := src.svc.Import(token, data, ImportOptions{Apply: true}); err != nil {
		t.Fatalf("an unchanged portal section: %v", err)
	}
	changed := edit(t, data, func(d *document.Document) {
		d.Config.Portal = json.RawMessage(strings.Replace(string(d.Config.Portal), "auth.example.com", "login.evil.example", 1))
	})
	for _, apply := range []bool{false, true} {
		_, err := src.svc.Import(token, changed, ImportOptions{Apply: apply})
		e, ok := apperr.As(err)
		if !ok || e.Code != apperr.CodeForbidden || len(e.Fields) != 1 || e.Fields[0].Field != "config.portal" {
			t.Fatalf("apply=%v: %v", apply, err)
		}
	}
	if got := src.portal().Host; got != "auth.example.com" {
		t.Fatalf("the token's import moved the portal to %q", got)
	}
}
