package npm

import (
	"fmt"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"golang.org/x/crypto/bcrypt"

	"github.com/gatehouse-proxy/gatehouse/internal/access/rules"
	"github.com/gatehouse-proxy/gatehouse/internal/store"
	"github.com/gatehouse-proxy/gatehouse/internal/transfer/document"
)

// Rows inserted into the fixture's own tables, with NPM's column set.
const (
	insertProxy = `INSERT INTO proxy_host (id, created_on, modified_on, owner_user_id, domain_names, forward_host,
		forward_port, root_dir, index_file, meta, forward_scheme, access_list_id, locations)
		VALUES (%d, '2025-01-01', '2025-01-01', 1, '%s', '%s', %s, '', '', '{}', '%s', %d, '[]')`
	insertRedirect = `INSERT INTO redirection_host (id, created_on, modified_on, owner_user_id, domain_names,
		forward_domain_name, meta, forward_scheme, forward_http_code, preserve_path)
		VALUES (%d, '2025-01-01', '2025-01-01', 1, '%s', '%s', '{}', '%s', %d, %d)`
	insertList = `INSERT INTO access_list (id, created_on, modified_on, owner_user_id, name, meta, satisfy_any, pass_auth)
		VALUES (%d, '2025-01-01', '2025-01-01', 1, '%s', '{}', %d, 1)`
	insertUser = `INSERT INTO access_list_auth (created_on, modified_on, access_list_id, username, password, meta)
		VALUES ('2025-01-01', '2025-01-01', %d, '%s', '%s', '{}')`
	insertClient = `INSERT INTO access_list_client (created_on, modified_on, access_list_id, address, directive, meta)
		VALUES ('2025-01-01', '2025-01-01', %d, '%s', '%s', '{}')`
)

// empty clears the fixture's rows, keeping its schema.
var empty = []string{
	`DELETE FROM proxy_host`, `DELETE FROM redirection_host`, `DELETE FROM dead_host`, `DELETE FROM stream`,
	`DELETE FROM access_list`, `DELETE FROM access_list_auth`, `DELETE FROM access_list_client`,
}

func proxy(id int, domains, host, port, scheme string, list int) string {
	return fmt.Sprintf(insertProxy, id, domains, host, port, scheme, list)
}

func readWith(t *testing.T, stmts ...string) (document.Document, []document.Skipped) {
	t.Helper()
	return read(t, withSQL(t, append(append([]string{}, empty...), stmts...)...))
}

func reasons(sk []document.Skipped) string {
	var b strings.Builder
	for _, s := range sk {
		fmt.Fprintf(&b, "%s: %s\n", s.Source, s.Reason)
	}
	return b.String()
}

func TestProxyHosts(t *testing.T) {
	cases := []struct {
		name      string
		row       string
		hosts     []string // the service's hostnames; nil: no service
		target    store.Target
		skipped   string // part of the reasons
		insecure  bool
		disabled  bool
		redirect  bool
		hstsMaxAg int64
	}{
		{name: "plain", row: proxy(1, `["A.Example.com."]`, "app", "8080", "http", 0),
			hosts: []string{"a.example.com"}, target: store.Target{Scheme: "http", Host: "app", Port: 8080}},
		{name: "https upstream is not verified, as nginx does", row: proxy(1, `["a.example.com"]`, "10.0.0.1", "443", "https", 0),
			hosts: []string{"a.example.com"}, target: store.Target{Scheme: "https", Host: "10.0.0.1", Port: 443}, insecure: true},
		{name: "ipv6 upstream", row: proxy(1, `["a.example.com"]`, "[fd00::1]", "80", "http", 0),
			hosts: []string{"a.example.com"}, target: store.Target{Scheme: "http", Host: "fd00::1", Port: 80}},
		{name: "wildcard only", row: proxy(1, `["*.example.com"]`, "app", "80", "http", 0),
			skipped: "not wildcards"},
		{name: "wildcard among names", row: proxy(1, `["*.example.com","example.com"]`, "app", "80", "http", 0),
			hosts: []string{"example.com"}, target: store.Target{Scheme: "http", Host: "app", Port: 80}, skipped: `"*.example.com" not imported`},
		{name: "garbage json", row: proxy(1, `{not json`, "app", "80", "http", 0), skipped: "not a JSON list"},
		{name: "json of the wrong shape", row: proxy(1, `{"a":1}`, "app", "80", "http", 0), skipped: "not a JSON list"},
		{name: "numbers in the list", row: proxy(1, `[1,2]`, "app", "80", "http", 0), skipped: "not a JSON list"},
		{name: "empty list", row: proxy(1, `[]`, "app", "80", "http", 0), skipped: "no hostname"},
		{name: "invalid name", row: proxy(1, `["bad_name.example.com","ok.example.com"]`, "app", "80", "http", 0),
			hosts: []string{"ok.example.com"}, target: store.Target{Scheme: "http", Host: "app", Port: 80}, skipped: "each label"},
		{name: "rule breaking name", row: proxy(1, "[\"a.com`) || Host(`b.com\"]", "app", "80", "http", 0), skipped: "no hostname"},
		{name: "port 0", row: proxy(1, `["a.example.com"]`, "app", "0", "http", 0), skipped: "port 0 is not between"},
		{name: "port 70000", row: proxy(1, `["a.example.com"]`, "app", "70000", "http", 0), skipped: "port 70000"},
		{name: "port as text", row: proxy(1, `["a.example.com"]`, "app", "'eighty'", "http", 0), skipped: "port -1"},
		{name: "empty port (newer NPM stores text)", row: proxy(1, `["a.example.com"]`, "app", "''", "http", 0), skipped: "port -1"},
		{name: "scheme", row: proxy(1, `["a.example.com"]`, "app", "80", "ftp", 0), skipped: `scheme "ftp"`},
		{name: "bad upstream host", row: proxy(1, `["a.example.com"]`, "a b", "80", "http", 0), skipped: `forward host "a b"`},
		{name: "disabled", row: proxy(1, `["a.example.com"]`, "app", "80", "http", 0) + `; UPDATE proxy_host SET enabled = 0`,
			hosts: []string{"a.example.com"}, target: store.Target{Scheme: "http", Host: "app", Port: 80}, disabled: true},
		{name: "deleted", row: proxy(1, `["a.example.com"]`, "app", "80", "http", 0) + `; UPDATE proxy_host SET is_deleted = 1`},
		{name: "force ssl without certificate does nothing, as in NPM",
			row:   proxy(1, `["a.example.com"]`, "app", "80", "http", 0) + `; UPDATE proxy_host SET ssl_forced = 1, hsts_enabled = 1`,
			hosts: []string{"a.example.com"}, target: store.Target{Scheme: "http", Host: "app", Port: 80}},
		{name: "force ssl and hsts with a certificate",
			row:   proxy(1, `["a.example.com"]`, "app", "80", "http", 0) + `; UPDATE proxy_host SET certificate_id = 1, ssl_forced = 1, hsts_enabled = 1, hsts_subdomains = 1`,
			hosts: []string{"a.example.com"}, target: store.Target{Scheme: "http", Host: "app", Port: 80},
			redirect: true, hstsMaxAg: 31536000, skipped: "Let's Encrypt certificate #1"},
		{name: "locations that are not json",
			row:   proxy(1, `["a.example.com"]`, "app", "80", "http", 0) + `; UPDATE proxy_host SET locations = 'oops'`,
			hosts: []string{"a.example.com"}, target: store.Target{Scheme: "http", Host: "app", Port: 80}, skipped: "custom locations (unreadable)"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			doc, skipped := readWith(t, strings.Split(tc.row, "; ")...)
			if tc.skipped != "" && !strings.Contains(reasons(skipped), tc.skipped) {
				t.Errorf("skipped does not mention %q:\n%s", tc.skipped, reasons(skipped))
			}
			if tc.hosts == nil {
				if len(doc.Services) != 0 {
					t.Fatalf("services = %+v, want none", doc.Services)
				}
				return
			}
			if len(doc.Services) != 1 {
				t.Fatalf("services = %d, want 1; skipped:\n%s", len(doc.Services), reasons(skipped))
			}
			sv := doc.Services[0]
			var got []string
			for _, h := range sv.Hostnames {
				if h.Type != store.HostCustom {
					t.Errorf("hostname type %q", h.Type)
				}
				got = append(got, h.Value)
			}
			if strings.Join(got, ",") != strings.Join(tc.hosts, ",") {
				t.Errorf("hostnames = %v, want %v", got, tc.hosts)
			}
			if sv.Name != tc.hosts[0] || sv.Kind != store.KindProxy {
				t.Errorf("name %q kind %q", sv.Name, sv.Kind)
			}
			if len(sv.Targets) != 1 || sv.Targets[0] != tc.target {
				t.Errorf("targets = %+v, want %+v", sv.Targets, tc.target)
			}
			if sv.InsecureSkipVerify != tc.insecure || sv.Enabled == tc.disabled {
				t.Errorf("insecure %v enabled %v", sv.InsecureSkipVerify, sv.Enabled)
			}
			if (sv.HTTPSRedirect != nil && *sv.HTTPSRedirect) != tc.redirect {
				t.Errorf("httpsRedirect = %v", sv.HTTPSRedirect)
			}
			if tc.hstsMaxAg == 0 && sv.HSTS != nil || tc.hstsMaxAg != 0 && (sv.HSTS == nil || sv.HSTS.MaxAge != tc.hstsMaxAg) {
				t.Errorf("hsts = %+v", sv.HSTS)
			}
		})
	}
}

func TestHostnameTakenTwice(t *testing.T) {
	doc, skipped := readWith(t,
		proxy(1, `["a.example.com","b.example.com"]`, "app", "80", "http", 0),
		proxy(2, `["a.example.com"]`, "other", "80", "http", 0),
		fmt.Sprintf(insertRedirect, 1, `["b.example.com","c.example.com"]`, "example.org", "https", 301, 0))
	if len(doc.Services) != 2 || doc.Services[1].Hostnames[0].Value != "c.example.com" {
		t.Fatalf("services = %+v", doc.Services)
	}
	if r := reasons(skipped); !strings.Contains(r, `"a.example.com" not imported: proxy host #1 (a.example.com) already has it`) {
		t.Fatalf("skipped:\n%s", r)
	}
}

func TestRedirectionHosts(t *testing.T) {
	cases := []struct {
		name      string
		scheme    string
		target    string
		code      int
		keep      int
		want      *store.Redirect // nil: skipped
		skipped   string
		permanent bool
	}{
		{"301 keeps the path", "https", "example.org", 301, 1, &store.Redirect{URL: "https://example.org", Permanent: true, KeepPath: true}, "", true},
		{"308 is permanent", "http", "example.org", 308, 0, &store.Redirect{URL: "http://example.org", Permanent: true}, "", true},
		{"302", "https", "example.org", 302, 0, &store.Redirect{URL: "https://example.org"}, "", false},
		{"307", "https", "example.org", 307, 0, &store.Redirect{URL: "https://example.org"}, "", false},
		{"request scheme becomes https", "$scheme", "example.org", 302, 0, &store.Redirect{URL: "https://example.org"}, "request's own scheme", false},
		{"auto scheme of newer NPM", "auto", "example.org", 302, 0, &store.Redirect{URL: "https://example.org"}, "request's own scheme", false},
		{"a path in the target", "https", "example.org/welcome", 302, 0, &store.Redirect{URL: "https://example.org/welcome"}, "", false},
		{"a query with the path kept", "https", "example.org/?a=1", 302, 1, nil, "query", false},
		{"not a host", "https", "exa mple.org", 302, 0, nil, "not imported: its target", false},
		{"scheme", "gopher", "example.org", 302, 0, nil, `scheme "gopher"`, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			doc, skipped := readWith(t, fmt.Sprintf(insertRedirect, 1, `["old.example.com"]`, tc.target, tc.scheme, tc.code, tc.keep))
			if tc.skipped != "" && !strings.Contains(reasons(skipped), tc.skipped) {
				t.Errorf("skipped does not mention %q:\n%s", tc.skipped, reasons(skipped))
			}
			if tc.want == nil {
				if len(doc.Services) != 0 {
					t.Fatalf("services = %+v, want none", doc.Services)
				}
				return
			}
			if len(doc.Services) != 1 {
				t.Fatalf("services = %d; skipped:\n%s", len(doc.Services), reasons(skipped))
			}
			sv := doc.Services[0]
			if sv.Kind != store.KindRedirect || sv.Redirect == nil || *sv.Redirect != *tc.want || len(sv.Targets) != 0 {
				t.Fatalf("service = %+v redirect %+v, want %+v", sv, sv.Redirect, tc.want)
			}
		})
	}
}

func TestAccessLists(t *testing.T) {
	bcryptHash, err := bcrypt.GenerateFromPassword([]byte("from-a-hash"), bcrypt.MinCost)
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name       string
		stmts      []string
		users      map[string]string // username -> password that must verify
		protected  bool
		disabled   bool
		access     *document.ServiceAccess
		skipped    []string
		noSkipWith string
	}{
		{
			name: "plain passwords are hashed",
			stmts: []string{fmt.Sprintf(insertList, 1, "Team", 0), fmt.Sprintf(insertUser, 1, "ann", "ann-password"),
				fmt.Sprintf(insertUser, 1, "ben", "short")},
			users: map[string]string{"ann": "ann-password", "ben": "short"}, protected: true,
		},
		{
			name: "bcrypt kept, other hashes and empty passwords left out",
			stmts: []string{fmt.Sprintf(insertList, 1, "Team", 0), fmt.Sprintf(insertUser, 1, "ann", string(bcryptHash)),
				fmt.Sprintf(insertUser, 1, "carl", "$apr1$abc$defghijklmnopqrstuvwx."), fmt.Sprintf(insertUser, 1, "dora", "")},
			users: map[string]string{"ann": "from-a-hash"}, protected: true,
			skipped: []string{`user "carl": left out of credential set "Team": its password is stored as a hash of a kind other than bcrypt`,
				`user "dora": left out of credential set "Team": NPM has no password stored for it`, "new password in Gatehouse"},
		},
		{
			name: "user names the panel refuses",
			stmts: []string{fmt.Sprintf(insertList, 1, "Team", 0), fmt.Sprintf(insertUser, 1, "a:b", "password1"),
				fmt.Sprintf(insertUser, 1, "with space", "password1"), fmt.Sprintf(insertUser, 1, "ok", "password1"),
				fmt.Sprintf(insertUser, 1, "ok", "password2"), fmt.Sprintf(insertUser, 1, "long", strings.Repeat("x", 73))},
			users: map[string]string{"ok": "password1"}, protected: true,
			skipped: []string{`"a:b": not imported`, `"with space": not imported`, "the first one is kept", "longer than 72 bytes"},
		},
		{
			name:  "no usable user",
			stmts: []string{fmt.Sprintf(insertList, 1, "Team", 0), fmt.Sprintf(insertUser, 1, "carl", "{SHA}abc")},
			users: map[string]string{}, protected: true, skipped: []string{"has no usable user"},
		},
		{
			name: "satisfy any with users: listed addresses skip the password",
			stmts: []string{fmt.Sprintf(insertList, 1, "Team", 1), fmt.Sprintf(insertUser, 1, "ann", "ann-password"),
				fmt.Sprintf(insertClient, 1, "192.168.0.0/16", "allow")},
			users: map[string]string{"ann": "ann-password"}, protected: true,
			access:  &document.ServiceAccess{DefaultAction: "authenticate", Rules: []rules.Rule{allowFrom("192.168.0.0/16")}},
			skipped: []string{"are translated into the service's access rules, which decide as NPM did: allow from 192.168.0.0/16, otherwise authenticate"},
		},
		{
			name: "satisfy all with users: listed addresses still need the password",
			stmts: []string{fmt.Sprintf(insertList, 1, "Team", 0), fmt.Sprintf(insertUser, 1, "ann", "ann-password"),
				fmt.Sprintf(insertClient, 1, "192.168.0.0/16", "allow")},
			users: map[string]string{"ann": "ann-password"}, protected: true,
			access: &document.ServiceAccess{DefaultAction: "deny", Rules: []rules.Rule{
				{Action: rules.Authenticate, Note: "from NPM access list #1", Sources: []string{"192.168.0.0/16"}}}},
			skipped: []string{"otherwise deny"},
		},
		{
			name:   "IP rules only",
			stmts:  []string{fmt.Sprintf(insertList, 1, "LAN", 1), fmt.Sprintf(insertClient, 1, "10.0.0.0/8", "allow")},
			access: &document.ServiceAccess{DefaultAction: "deny", Rules: []rules.Rule{allowFrom("10.0.0.0/8")}},
		},
		{
			name: "an address Gatehouse cannot read: switched off",
			stmts: []string{fmt.Sprintf(insertList, 1, "LAN", 0), fmt.Sprintf(insertClient, 1, "10.0.0.0/8", "allow"),
				fmt.Sprintf(insertClient, 1, "unix:", "allow")},
			disabled: true, skipped: []string{`"unix:" is not an IP address or a CIDR`, "comes over switched off"},
		},
		{
			name: "allow all first changes nothing",
			stmts: []string{fmt.Sprintf(insertList, 1, "Team", 0), fmt.Sprintf(insertUser, 1, "ann", "ann-password"),
				fmt.Sprintf(insertClient, 1, "all", "allow")},
			users: map[string]string{"ann": "ann-password"}, protected: true, noSkipWith: "IP rules",
		},
		{
			name:    "a deleted list",
			stmts:   []string{fmt.Sprintf(insertList, 1, "Team", 0), `UPDATE access_list SET is_deleted = 1`},
			skipped: []string{"no longer exists"},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			doc, skipped := readWith(t, append(tc.stmts, proxy(1, `["a.example.com"]`, "app", "80", "http", 1))...)
			r := reasons(skipped)
			for _, s := range tc.skipped {
				if !strings.Contains(r, s) {
					t.Errorf("skipped does not mention %q:\n%s", s, r)
				}
			}
			if tc.noSkipWith != "" && strings.Contains(r, tc.noSkipWith) {
				t.Errorf("skipped mentions %q:\n%s", tc.noSkipWith, r)
			}
			if len(doc.Services) != 1 {
				t.Fatalf("services = %d", len(doc.Services))
			}
			sv := doc.Services[0]
			if sv.Enabled == tc.disabled {
				t.Errorf("enabled = %v", sv.Enabled)
			}
			if !reflect.DeepEqual(sv.Access, tc.access) {
				t.Errorf("access = %+v, want %+v", sv.Access, tc.access)
			}
			if tc.users == nil {
				if len(doc.CredentialSets) != 0 || len(sv.Protections) != 0 {
					t.Fatalf("sets %+v protections %+v, want none", doc.CredentialSets, sv.Protections)
				}
				return
			}
			if len(doc.CredentialSets) != 1 {
				t.Fatalf("credential sets = %+v", doc.CredentialSets)
			}
			set := doc.CredentialSets[0]
			if len(set.Users) != len(tc.users) {
				t.Errorf("users = %+v, want %v", set.Users, tc.users)
			}
			for _, u := range set.Users {
				if bcrypt.CompareHashAndPassword([]byte(u.PasswordHash), []byte(tc.users[u.Username])) != nil {
					t.Errorf("user %q: the hash does not verify", u.Username)
				}
			}
			want := []document.Protection{{Type: store.SecurityBasicAuth, Enabled: true, CredentialSet: set.Name}}
			if tc.protected && (len(sv.Protections) != 1 || sv.Protections[0].Type != want[0].Type || sv.Protections[0].CredentialSet != set.Name) {
				t.Errorf("protections = %+v, want %+v", sv.Protections, want)
			}
		})
	}
}

func TestSetNamesAreUnique(t *testing.T) {
	doc, _ := readWith(t,
		fmt.Sprintf(insertList, 1, "Team", 0), fmt.Sprintf(insertUser, 1, "a", "password1"),
		fmt.Sprintf(insertList, 2, "Team", 0), fmt.Sprintf(insertUser, 2, "b", "password1"),
		fmt.Sprintf(insertList, 3, "  ", 0), fmt.Sprintf(insertUser, 3, "c", "password1"),
		proxy(1, `["a.example.com"]`, "app", "80", "http", 2))
	var names []string
	for _, s := range doc.CredentialSets {
		names = append(names, s.Name)
	}
	if strings.Join(names, "|") != "Team|Team (#2)|access list 3" {
		t.Fatalf("names = %q", names)
	}
	if p := doc.Services[0].Protections; len(p) != 1 || p[0].CredentialSet != "Team (#2)" {
		t.Fatalf("protections = %+v", p)
	}
}

// An NPM database from before most migrations, with NULLs where today's
// schema forbids them: missing columns read as NPM's defaults, NULLs as
// nothing, and nothing panics.
func TestOlderSchemaAndNulls(t *testing.T) {
	data := execSQL(t, filepath.Join(t.TempDir(), "old.sqlite"),
		`CREATE TABLE proxy_host (id INTEGER PRIMARY KEY, is_deleted INTEGER, domain_names JSON, forward_ip TEXT, forward_port INTEGER, access_list_id INTEGER, ssl_forced INTEGER)`,
		`CREATE TABLE redirection_host (id INTEGER PRIMARY KEY, is_deleted INTEGER, domain_names JSON, forward_domain_name TEXT)`,
		`CREATE TABLE dead_host (id INTEGER PRIMARY KEY, domain_names JSON)`,
		`CREATE TABLE stream (id INTEGER PRIMARY KEY, incoming_port INTEGER, forward_ip TEXT, forwarding_port INTEGER)`,
		`CREATE TABLE access_list (id INTEGER PRIMARY KEY, name TEXT)`,
		`CREATE TABLE access_list_auth (id INTEGER PRIMARY KEY, access_list_id INTEGER, username TEXT, password TEXT)`,
		`INSERT INTO proxy_host VALUES (1, NULL, '["old.example.com"]', 'box', 8080, 1, NULL)`,
		`INSERT INTO proxy_host VALUES (2, 0, NULL, NULL, NULL, NULL, NULL)`,
		`INSERT INTO proxy_host VALUES (3, 0, X'00ff', 3.5, 'x', 'y', 'z')`,
		`INSERT INTO redirection_host VALUES (1, NULL, '["r.example.com"]', 'example.org')`,
		`INSERT INTO redirection_host VALUES (2, NULL, NULL, NULL)`,
		`INSERT INTO dead_host VALUES (1, NULL)`,
		`INSERT INTO stream VALUES (1, NULL, NULL, NULL)`,
		`INSERT INTO access_list VALUES (1, NULL)`,
		`INSERT INTO access_list_auth VALUES (1, 1, 'ann', 'ann-password')`,
		`INSERT INTO access_list_auth VALUES (2, 1, NULL, NULL)`,
	)
	doc, skipped := read(t, data)
	if len(doc.Services) != 2 {
		t.Fatalf("services = %+v\nskipped:\n%s", doc.Services, reasons(skipped))
	}
	old := doc.Services[0]
	if old.Targets[0] != (store.Target{Scheme: "http", Host: "box", Port: 8080}) || !old.Enabled || len(old.Protections) != 1 {
		t.Errorf("old host = %+v", old)
	}
	if r := doc.Services[1].Redirect; r == nil || r.URL != "https://example.org" || r.Permanent {
		t.Errorf("redirect = %+v", r)
	}
	if len(doc.CredentialSets) != 1 || doc.CredentialSets[0].Name != "access list 1" || len(doc.CredentialSets[0].Users) != 1 {
		t.Errorf("credential sets = %+v", doc.CredentialSets)
	}
}

func TestTenThousandHosts(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a large database")
	}
	stmts := []string{"BEGIN"}
	for i := 1; i <= 10000; i++ {
		port := "8080"
		switch i % 1000 {
		case 1:
			port = "0"
		case 2:
			port = "70000"
		}
		stmts = append(stmts, proxy(100+i, fmt.Sprintf(`["h%d.example.com","www.h%d.example.com"]`, i, i), "app", port, "http", 0))
	}
	stmts = append(stmts, "COMMIT")
	data := withSQL(t, stmts...)
	start := time.Now()
	doc, skipped := read(t, data)
	t.Logf("read %d bytes, 10,000 more proxy hosts: %d services, %d skipped in %v", len(data), len(doc.Services), len(skipped), time.Since(start))
	if len(doc.Services) != 9980+10 { // the fixture has 9 hosts and a stream that come over
		t.Fatalf("services = %d", len(doc.Services))
	}
}
