package transfer

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/gatehouse-proxy/gatehouse/internal/apperr"
	"github.com/gatehouse-proxy/gatehouse/internal/change"
	"github.com/gatehouse-proxy/gatehouse/internal/notify"
	"github.com/gatehouse-proxy/gatehouse/internal/store"
	"github.com/gatehouse-proxy/gatehouse/internal/transfer/document"
)

func compileSchema(t *testing.T) *jsonschema.Schema {
	t.Helper()
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(document.Schema))
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	c.AssertFormat()
	if err := c.AddResource("schema.json", doc); err != nil {
		t.Fatal(err)
	}
	sch, err := c.Compile("schema.json")
	if err != nil {
		t.Fatal(err)
	}
	return sch
}

func TestExportValidatesAndIsDeterministic(t *testing.T) {
	sch := compileSchema(t)
	f := newFixture(t)
	for _, o := range []ExportOptions{{}, {Admins: true}, {Secrets: true, AdminPasswords: true, Passphrase: "twelve chars!"}} {
		data := f.export(o)
		v, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
		if err != nil {
			t.Fatal(err)
		}
		if err := sch.Validate(v); err != nil {
			t.Fatalf("empty panel's export (%+v) does not validate: %v", o, err)
		}
	}
	f.seed()
	for _, o := range []ExportOptions{{}, {Admins: true}, {Secrets: true, AdminPasswords: true, Passphrase: "twelve chars!"}} {
		data := f.export(o)
		v, _ := jsonschema.UnmarshalJSON(bytes.NewReader(data))
		if err := sch.Validate(v); err != nil {
			t.Fatalf("export (%+v) does not validate: %v\n%s", o, err, data)
		}
		if bytes.Contains(data, []byte("client-secret")) || bytes.Contains(data, []byte("hash-of-ci")) || bytes.Contains(data, []byte("channel-token")) {
			t.Fatalf("a secret is in clear in the export:\n%s", data)
		}
	}
	if a, b := f.snapshot(), f.snapshot(); a != b {
		t.Fatalf("two exports differ:\n%s\n%s", a, b)
	}
}

func TestExportRefusesAShortPassphrase(t *testing.T) {
	f := newFixture(t)
	_, err := f.svc.Export(testCtx, ExportOptions{Secrets: true, Passphrase: "short"})
	if e, ok := apperr.As(err); !ok || e.Fields[0].Field != "passphrase" {
		t.Fatalf("err = %v", err)
	}
}

func TestPlan(t *testing.T) {
	src := newFixture(t)
	src.seed()
	base := src.export(ExportOptions{})
	for _, tc := range []struct {
		name   string
		mode   string
		change func(d *document.Document)
		kind   string
		item   string
		action string
		fields []string
		reason string
	}{
		{name: "unchanged", kind: KindService, item: "app", action: ActionUnchanged},
		{name: "update names the fields", kind: KindService, item: "app", action: ActionUpdate, fields: []string{"headers", "targets"},
			change: func(d *document.Document) {
				d.Services[0].Targets[0].Port = 9090
				d.Services[0].Headers = map[string]string{"X-B": "2"}
			}},
		{name: "create", kind: KindService, item: "new", action: ActionCreate, change: func(d *document.Document) {
			s := d.Services[1]
			s.ID, s.Name, s.Hostnames = "", "new", []store.Hostname{{Type: store.HostCustom, Value: "new.example.net"}}
			d.Services = append(d.Services, s)
		}},
		{name: "merge keeps what the file lacks", kind: KindService, item: "blog", action: "", change: func(d *document.Document) {
			d.Services = d.Services[:1]
		}},
		{name: "replace deletes what the file lacks", mode: ModeReplace, kind: KindService, item: "blog", action: ActionDelete,
			change: func(d *document.Document) { d.Services = d.Services[:1] }},
		{name: "replace deletes tokens", mode: ModeReplace, kind: KindMachineToken, item: "ci", action: ActionDelete,
			change: func(d *document.Document) { d.MachineTokens = nil }},
		{name: "invalid service", kind: KindService, item: "app", action: ActionRefused, reason: "targets[0].port",
			change: func(d *document.Document) { d.Services[0].Targets[0].Port = 0 }},
		{name: "unknown domain", kind: KindService, item: "app", action: ActionRefused, reason: "neither in the file nor in this panel",
			change: func(d *document.Document) { d.Services[0].Domain = "nowhere.example" }},
		{name: "refused domain refuses its services", kind: KindService, item: "app", action: ActionRefused, reason: "domain example.com is refused",
			change: func(d *document.Document) { d.Domains[0].CertResolver = "bad resolver!" }},
		{name: "unknown credential set", kind: KindService, item: "app", action: ActionRefused, reason: "credential set \"nobody\"",
			change: func(d *document.Document) { d.Services[0].Protections[0].CredentialSet = "nobody" }},
		{name: "not bcrypt", kind: KindCredentialSet, item: "family", action: ActionRefused, reason: "not a bcrypt hash",
			change: func(d *document.Document) { d.CredentialSets[0].Users[0].PasswordHash = "{SHA}abc" }},
		{name: "hostname of a service the file lacks", kind: KindService, item: "other", action: ActionRefused, reason: "already used by service \"blog\"",
			change: func(d *document.Document) {
				s := d.Services[0]
				s.ID, s.Name, s.Domain, s.Protections = "", "other", "", nil
				s.Hostnames = []store.Hostname{{Type: store.HostCustom, Value: "blog.example.net"}}
				d.Services = []document.Service{d.Services[0], s}
			}},
		{name: "listed twice", kind: KindService, item: "blog", action: ActionRefused, reason: "more than once",
			change: func(d *document.Document) { d.Services = append(d.Services, d.Services[1]) }},
		{name: "token without its hash", kind: KindMachineToken, item: "deploy", action: ActionRefused, reason: "encrypted secrets",
			change: func(d *document.Document) {
				tk := d.MachineTokens[0]
				tk.ID, tk.Name = "", "deploy"
				d.MachineTokens = append(d.MachineTokens, tk)
			}},
		{name: "channel without its secrets", kind: KindNotifyChannel, item: "pager", action: ActionRefused, reason: "encrypted secrets",
			change: func(d *document.Document) {
				ch := d.NotifyChannels[0]
				ch.ID, ch.Name = "", "pager"
				d.NotifyChannels = append(d.NotifyChannels, ch)
			}},
		{name: "replace deletes channels", mode: ModeReplace, kind: KindNotifyChannel, item: "phone", action: ActionDelete,
			change: func(d *document.Document) { d.NotifyChannels = nil }},
		{name: "token metadata update", kind: KindMachineToken, item: "ci", action: ActionUpdate, fields: []string{"revoked"},
			change: func(d *document.Document) { d.MachineTokens[0].Revoked = true }},
		{name: "settings update", kind: KindSettings, item: "global", action: ActionUpdate, fields: []string{"adminDomain"},
			change: func(d *document.Document) {
				d.Config.Global = json.RawMessage(`{"adminDomain":"other.example.com","defaultEntrypoints":["websecure"],"globalMiddlewares":[],"defaultLifetimeSeconds":0}`)
			}},
		{name: "invalid settings", kind: KindSettings, item: "global", action: ActionRefused, reason: "unknown field",
			change: func(d *document.Document) { d.Config.Global = json.RawMessage(`{"nope":1}`) }},
		{name: "password sign-in is not switched off", kind: KindAdminSSO, item: "admin_sso", action: ActionRefused, reason: "does not switch password sign-in off",
			change: func(d *document.Document) {
				d.Config.AdminSSO = json.RawMessage(`{"enabled":true,"rules":[],"createAdmins":false,"localPasswords":false}`)
			}},
		{name: "sso keeps the secret out of the diff", kind: KindSSO, item: "sso", action: ActionUnchanged},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t)
			f.seed()
			data := base
			if tc.change != nil {
				data = edit(t, base, tc.change)
			}
			before := f.snapshot()
			pl := f.plan(data, ImportOptions{Mode: tc.mode})
			if f.snapshot() != before {
				t.Fatal("a dry run changed the data")
			}
			it := find(pl, tc.kind, tc.item)
			if it.Action != tc.action {
				t.Fatalf("%s %s: action %q, want %q (%+v)", tc.kind, tc.item, it.Action, tc.action, it)
			}
			if tc.fields != nil && strings.Join(it.Fields, ",") != strings.Join(tc.fields, ",") {
				t.Fatalf("fields = %v, want %v", it.Fields, tc.fields)
			}
			if !strings.Contains(it.Reason, tc.reason) {
				t.Fatalf("reason = %q, want it to contain %q", it.Reason, tc.reason)
			}
			// The same plan applied: refused items stay out, the rest is written.
			if _, err := f.svc.Import(testCtx, data, ImportOptions{Mode: tc.mode, Apply: true, Digest: pl.Digest}); err != nil {
				t.Fatalf("apply: %v", err)
			}
			again := f.plan(data, ImportOptions{Mode: tc.mode})
			for _, it := range again.Items {
				if it.Action != ActionUnchanged && it.Action != ActionRefused {
					t.Errorf("after apply: %+v", it)
				}
			}
		})
	}
}

func TestApplyIsAtomic(t *testing.T) {
	src := newFixture(t)
	src.seed()
	data := edit(t, src.export(ExportOptions{}), func(d *document.Document) {
		d.Services[0].Targets[0].Port = 9999
		d.Services = append(d.Services, document.Service{Name: "third", Kind: store.KindProxy, Enabled: true,
			Hostnames: []store.Hostname{{Type: store.HostCustom, Value: "third.example.net"}},
			Targets:   []store.Target{{Scheme: "http", Host: "t", Port: 80}}})
	})
	f := newFixture(t)
	f.seed()
	before := f.snapshot()
	var events []change.Event
	f.bus.Subscribe(func(e change.Event) { events = append(events, e) })
	for _, at := range []int{1, 2} { // the plan has two writes: fail before each
		f.svc.failAt = at
		if _, err := f.svc.Import(testCtx, data, ImportOptions{Mode: ModeReplace, Apply: true}); !errors.Is(err, errForced) {
			t.Fatalf("failAt %d: err = %v", at, err)
		}
		if f.snapshot() != before {
			t.Fatalf("a failed apply (at write %d) changed the data", at)
		}
	}
	if len(events) != 0 {
		t.Fatalf("a failed apply published %v", events)
	}
	f.svc.failAt = 0
	pl := f.plan(data, ImportOptions{Apply: true})
	if !pl.Applied || pl.Summary.Create != 1 || pl.Summary.Update != 1 {
		t.Fatalf("summary = %+v %+v", pl.Summary, pl.Items)
	}
	var published bool
	for _, e := range events {
		published = published || (e.Entity == change.Service && e.Kind == change.Created)
	}
	if !published {
		t.Fatalf("events = %v", events)
	}
}

func TestDigestGuardsTheReviewedPlan(t *testing.T) {
	f := newFixture(t)
	f.seed()
	data := edit(t, f.export(ExportOptions{}), func(d *document.Document) { d.Services[0].Targets[0].Port = 9999 })
	pl := f.plan(data, ImportOptions{})
	// The data changes after the review.
	f.must(f.db.Model(&store.Service{}).Where("name = ?", "blog").Update("pass_host_header", false).Error)
	_, err := f.svc.Import(testCtx, data, ImportOptions{Apply: true, Digest: pl.Digest})
	if !apperr.IsCode(err, apperr.CodeConflict) {
		t.Fatalf("err = %v, want a conflict", err)
	}
}

func TestSealedSecretsRoundTrip(t *testing.T) {
	src := newFixture(t)
	src.seed()
	data := src.export(ExportOptions{Secrets: true, AdminPasswords: true, Passphrase: "correct horse battery"})
	f := newFixture(t)
	if _, err := f.svc.Import(testCtx, data, ImportOptions{Apply: true}); !isField(err, "passphrase") {
		t.Fatalf("no passphrase: err = %v", err)
	}
	if _, err := f.svc.Import(testCtx, data, ImportOptions{Apply: true, Passphrase: "wrong horse battery"}); !isField(err, "passphrase") {
		t.Fatalf("wrong passphrase: err = %v", err)
	}
	if f.snapshot() != newFixture(t).snapshot() {
		t.Fatal("a refused import changed the data")
	}
	pl := f.plan(data, ImportOptions{Apply: true, Passphrase: "correct horse battery"})
	if pl.Summary.Refused != 0 {
		t.Fatalf("refused: %+v", pl.Items)
	}
	var tok store.MachineToken
	f.must(f.db.Where("name = ?", "ci").Take(&tok).Error)
	if tok.TokenHash != "hash-of-ci" || tok.ID != "tok-1" {
		t.Fatalf("token = %+v", tok)
	}
	var sso struct {
		ClientSecret string `json:"clientSecret"`
	}
	_, err := store.GetConfig(testCtx, f.db, store.KeySSO, &sso)
	f.must(err)
	if plain, err := f.box.Open(sso.ClientSecret); err != nil || plain != "client-secret" || !strings.HasPrefix(sso.ClientSecret, "age") && plain == sso.ClientSecret {
		t.Fatalf("client secret = %q (%v)", plain, err)
	}
	var ch notify.StoredChannel
	f.must(f.db.Where("name = ?", "phone").Take(&ch).Error)
	if plain, err := f.box.Open(ch.Secrets); err != nil || plain != `{"token":"channel-token"}` || ch.Settings != `{"server":"https://ntfy.sh","topic":"gh"}` {
		t.Fatalf("channel = %+v (%q, %v)", ch, plain, err)
	}
	var admin store.Person
	f.must(f.db.Where("username = ?", "admin").Take(&admin).Error)
	if !strings.HasPrefix(admin.PasswordHash, "$2a$") {
		t.Fatalf("admin = %+v", admin)
	}
}

func isField(err error, field string) bool {
	e, ok := apperr.As(err)
	return ok && len(e.Fields) > 0 && e.Fields[0].Field == field
}

func TestReadersAreDetectedAndDispatched(t *testing.T) {
	f := newFixture(t, testReader{})
	data := []byte("TEST a.example.net\nTEST b.example.net\nsomething else\n")
	pl := f.plan(data, ImportOptions{})
	if pl.Format != "test" || pl.Summary.Create != 2 || pl.Summary.Skipped != 1 {
		t.Fatalf("plan = %+v", pl)
	}
	if _, err := f.svc.Import(testCtx, []byte("plain text"), ImportOptions{}); !isField(err, "file") {
		t.Fatalf("unknown format: err = %v", err)
	}
	if _, err := f.svc.Import(testCtx, data, ImportOptions{Format: "nope"}); !isField(err, "format") {
		t.Fatalf("unknown format name: err = %v", err)
	}
	pl = f.plan(data, ImportOptions{Format: "test", Apply: true})
	if !pl.Applied {
		t.Fatal("not applied")
	}
	var n int64
	f.must(f.db.Model(&store.Service{}).Count(&n).Error)
	if n != 2 {
		t.Fatalf("services = %d", n)
	}
}

func TestParseRefusesHostileInput(t *testing.T) {
	for _, tc := range []struct{ name, in, field string }{
		{"empty", ``, "file"},
		{"not json", `hello`, "file"},
		{"foreign", `{"a":1}`, "format"},
		{"wrong version", `{"format":"gatehouse-export","version":7}`, "version"},
		{"huge version", `{"format":"gatehouse-export","version":123456789012345678901234567890}`, "version"},
		{"negative version", `{"format":"gatehouse-export","version":-1}`, "version"},
		{"truncated", `{"format":"gatehouse-export","version":1,"domains":[`, "file"},
		{"two values", `{"format":"gatehouse-export","version":1} {}`, "file"},
		{"unknown field", `{"format":"gatehouse-export","version":1,"x":1}`, "x"},
		{"huge number", `{"format":"gatehouse-export","version":1,"services":[{"targets":[{"port":1e999}]}]}`, "services.targets.port"},
		{"deep", `{"format":"gatehouse-export","version":1,"config":{"global":` + strings.Repeat("[", 100000) + `}}`, "file"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := document.Parse([]byte(tc.in))
			e, ok := apperr.As(err)
			if !ok || e.HTTPStatus() != 400 || e.Fields[0].Field != tc.field {
				t.Fatalf("err = %v (%+v)", err, e)
			}
		})
	}
}
