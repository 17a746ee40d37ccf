package app

import (
	"bytes"
	"context"
	"database/sql"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/gatehouse-proxy/gatehouse/internal/testutil"
)

// dumpTables reads every table sqlite_master lists, row by row, each row
// printed with its column names, the rows of a table sorted.
func dumpTables(t *testing.T, path string) map[string][]string {
	t.Helper()
	db, err := sql.Open("sqlite3", "file:"+path+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = db.Close() }()
	names, err := db.Query("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")
	if err != nil {
		t.Fatal(err)
	}
	var tables []string
	for names.Next() {
		var n string
		if err := names.Scan(&n); err != nil {
			t.Fatal(err)
		}
		tables = append(tables, n)
	}
	_ = names.Close()
	out := map[string][]string{}
	for _, table := range tables {
		rows, err := db.Query(`SELECT * FROM "` + table + `"`) //nolint:gosec // a table name sqlite_master gave
		if err != nil {
			t.Fatal(err)
		}
		cols, _ := rows.Columns()
		out[table] = []string{}
		for rows.Next() {
			vals := make([]any, len(cols))
			ptrs := make([]any, len(cols))
			for i := range vals {
				ptrs[i] = &vals[i]
			}
			if err := rows.Scan(ptrs...); err != nil {
				t.Fatal(err)
			}
			var b strings.Builder
			for i, c := range cols {
				if v, ok := vals[i].([]byte); ok {
					vals[i] = string(v)
				}
				fmt.Fprintf(&b, "%s=%v; ", c, vals[i])
			}
			out[table] = append(out[table], b.String())
		}
		_ = rows.Close()
		slices.Sort(out[table])
	}
	return out
}

// TestBackupChangeRestoreComparesEveryTable backs up a panel with services,
// domains, credentials, settings, people, groups and managed DNS
// credentials (with `gatehouse backup` while the panel runs), changes all
// of them, restores with `gatehouse restore`, and compares every table row
// by row with the state at backup time. The same archive restored into a
// fresh data directory hands the DNS credentials to the wrapper again.
func TestBackupChangeRestoreComparesEveryTable(t *testing.T) {
	testutil.SQLiteOnly(t) // the panel's own backups are of SQLite
	const token = "wrapper-token-for-the-backup-test"
	dataDir := t.TempDir()
	env := map[string]string{"PANEL_DATA_DIR": dataDir, "PANEL_MANAGED": "true", "PANEL_WRAPPER_TOKEN": token}
	a := newTestApp(t, env)
	a.signIn()
	d := a.mustCreate("/api/domains", `{"name":"Home","domain":"example.com","isDefault":true}`)
	a.mustCreate("/api/services", svcBody(d.ID, "app", ""))
	a.mustCreate("/api/credential-sets", `{"name":"family","users":[{"username":"alice","password":"correct-horse"}]}`)
	viewer := a.createUser(t, "viewer", "viewer")
	family := a.mustCreate("/api/groups", `{"name":"family","description":"at home"}`)
	if rec := a.do("POST", "/api/groups/"+family.ID+"/members", `{"personId":"`+viewer+`"}`); rec.Code != http.StatusOK {
		t.Fatalf("add a member: %d %s", rec.Code, rec.Body)
	}
	if rec := a.do("PUT", "/api/config", `{"adminDomain":"panel.example.com","defaultEntrypoints":["websecure"],"globalMiddlewares":[],"defaultLifetimeSeconds":0}`); rec.Code != http.StatusOK {
		t.Fatalf("settings: %d %s", rec.Code, rec.Body)
	}
	if rec := a.do("PUT", "/api/proxy/managed/secrets", `{"upsert":{"CF_DNS_API_TOKEN":"cf-value-at-backup"},"remove":[]}`); rec.Code != http.StatusOK {
		t.Fatalf("secrets: %d %s", rec.Code, rec.Body)
	}
	run := func(env map[string]string, args ...string) string {
		t.Helper()
		var out, errb bytes.Buffer
		if code := Run(context.Background(), Options{Args: args, Getenv: func(k string) string { return env[k] }, Stdout: &out, Stderr: &errb}); code != 0 {
			t.Fatalf("gatehouse %v: exit %d: %s", args, code, errb.String())
		}
		return out.String()
	}
	archive := filepath.Join(t.TempDir(), "panel.tar.gz")
	run(env, "backup", "-o", archive)
	want := dumpTables(t, filepath.Join(dataDir, "gatehouse.db"))
	if len(want["services"]) != 1 || len(want["people"]) != 2 || len(want["people_groups"]) != 1 || len(want["people_group_members"]) != 1 {
		t.Fatalf("the state at backup time: %d services, %d people, %d groups", len(want["services"]), len(want["people"]), len(want["people_groups"]))
	}

	a.mustCreate("/api/services", svcBody(d.ID, "other", ""))
	a.mustCreate("/api/domains", `{"name":"Work","domain":"example.org"}`)
	a.mustCreate("/api/credential-sets", `{"name":"friends","users":[{"username":"bob","password":"correct-horse"}]}`)
	second := a.createUser(t, "second", "admin")
	a.mustCreate("/api/groups", `{"name":"friends"}`)
	a.do("POST", "/api/groups/"+family.ID+"/members", `{"personId":"`+second+`"}`)
	a.do("PUT", "/api/config", `{"adminDomain":"","defaultEntrypoints":["web"],"globalMiddlewares":[],"defaultLifetimeSeconds":60}`)
	a.do("PUT", "/api/proxy/managed/secrets", `{"upsert":{"CF_DNS_API_TOKEN":"changed"},"remove":[]}`)
	if got := dumpTables(t, filepath.Join(dataDir, "gatehouse.db")); len(got["services"]) != 2 {
		t.Fatal("the changes did not land")
	}
	closeDB(a.c.db)

	out := run(env, "restore", archive)
	if !strings.Contains(out, "the files it replaced are in "+filepath.Join(dataDir, "replaced-")) {
		t.Fatalf("restore said %q", out)
	}
	got := dumpTables(t, filepath.Join(dataDir, "gatehouse.db"))
	for table, rows := range want {
		if !slices.Equal(got[table], rows) {
			t.Errorf("table %s differs after restore:\n got  %q\n want %q", table, got[table], rows)
		}
	}
	for table := range got {
		if _, ok := want[table]; !ok {
			t.Errorf("table %s appeared", table)
		}
	}
	t.Logf("%d tables compared", len(want))

	// The same archive into a fresh data directory: the wrapper gets the
	// credential the panel had at backup time.
	fresh := filepath.Join(t.TempDir(), "fresh")
	freshEnv := map[string]string{"PANEL_DATA_DIR": fresh, "PANEL_MANAGED": "true", "PANEL_WRAPPER_TOKEN": token}
	run(freshEnv, "restore", archive)
	b := newTestApp(t, freshEnv)
	rec := testutil.Request(b.handler, "GET", "/api/proxy/managed/secrets-env", "", "Authorization", "Bearer "+token)
	if rec.Code != http.StatusOK || !strings.Contains(rec.Body.String(), "cf-value-at-backup") {
		t.Fatalf("secrets after restore: %d %s", rec.Code, rec.Body)
	}
	if _, err := os.Stat(filepath.Join(fresh, "age.key")); err != nil {
		t.Fatal(err)
	}
}

// TestRestoreRefusesUnderAServingPanel: serve holds the data directory's
// lock; restore says to stop the panel.
func TestRestoreRefusesUnderAServingPanel(t *testing.T) {
	testutil.SQLiteOnly(t)
	dataDir := t.TempDir()
	env := map[string]string{"PANEL_DATA_DIR": dataDir, "PANEL_LISTEN": "127.0.0.1:0"}
	getenv := func(k string) string { return env[k] }
	ctx, cancel := context.WithCancel(context.Background())
	ready := make(chan string, 1)
	done := make(chan int, 1)
	var logs bytes.Buffer
	go func() {
		done <- Run(ctx, Options{Args: []string{"serve"}, Getenv: getenv, Stdout: &logs, Stderr: &logs, Ready: func(a string) { ready <- a }})
	}()
	<-ready
	var out, errb bytes.Buffer
	archive := filepath.Join(t.TempDir(), "b.tar.gz")
	if code := Run(context.Background(), Options{Args: []string{"backup", "-o", archive}, Getenv: getenv, Stdout: &out, Stderr: &errb}); code != 0 {
		t.Fatalf("backup beside the running panel: %s", errb.String())
	}
	code := Run(context.Background(), Options{Args: []string{"restore", archive}, Getenv: getenv, Stdout: &out, Stderr: &errb})
	if code == 0 || !strings.Contains(errb.String(), "a Gatehouse panel is running on this data directory") {
		t.Fatalf("restore under a running panel: exit %d: %s", code, errb.String())
	}
	cancel()
	<-done
	if code := Run(context.Background(), Options{Args: []string{"restore", archive}, Getenv: getenv, Stdout: &out, Stderr: &errb}); code != 0 {
		t.Fatalf("restore after the panel stopped: %s", errb.String())
	}
}

// On PostgreSQL the panel takes no backups of its own: asking answers 409
// naming the engine and saying what to use, and the CLI says the same.
func TestBackupOnPostgresSaysToUseItsTools(t *testing.T) {
	if !testutil.OnPostgres() {
		t.Skip("about PostgreSQL: runs when the tests run on PostgreSQL")
	}
	env := map[string]string{"PANEL_DATA_DIR": t.TempDir()}
	a := newTestApp(t, env)
	a.signIn()
	rec := a.do("POST", "/api/backups", "")
	if env := decodeEnvelope(t, rec); rec.Code != http.StatusConflict || len(env.Error.Fields) == 0 ||
		env.Error.Fields[0].Field != "engine" || !strings.Contains(env.Error.Message, "pg_dump") {
		t.Fatalf("POST /api/backups on PostgreSQL: %d %s", rec.Code, rec.Body)
	}
	var out, errOut bytes.Buffer
	code := Run(context.Background(), Options{Args: []string{"backup"}, Getenv: func(k string) string { return env[k] },
		Stdout: &out, Stderr: &errOut})
	if code == 0 || !strings.Contains(errOut.String(), "pg_dump") {
		t.Fatalf("gatehouse backup on PostgreSQL: %d %s", code, errOut.String())
	}
}
