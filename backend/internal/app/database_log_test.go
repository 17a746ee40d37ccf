package app

import (
	"context"
	"net/url"
	"strings"
	"testing"

	"github.com/gatehouse-proxy/gatehouse/internal/config"
	"github.com/gatehouse-proxy/gatehouse/internal/testutil"
)

// The start-up line names the database; a PostgreSQL password never shows.
func TestStartupLogNamesTheDatabaseWithoutItsPassword(t *testing.T) {
	env := map[string]string{"PANEL_DATA_DIR": t.TempDir(), "PANEL_LISTEN": "127.0.0.1:0"}
	want := "gatehouse.db"
	if testutil.OnPostgres() {
		// The test server trusts local connections: any password does.
		u, err := url.Parse(testutil.NewDatabase(t))
		if err != nil {
			t.Fatal(err)
		}
		u.User = url.UserPassword(u.User.Username(), "s3cret-db-password")
		env["PANEL_DATABASE_URL"] = u.String()
		want = u.Redacted()
	}
	cfg, err := config.Load(func(k string) string { return env[k] })
	if err != nil {
		t.Fatal(err)
	}
	logs := &testutil.LockedBuffer{}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	go func() {
		done <- serve(ctx, cfg, newLogger(cfg, logs), Options{Stdout: logs, Stderr: logs, Ready: func(string) { cancel() }})
	}()
	if err := <-done; err != nil {
		t.Fatalf("serve: %v\n%s", err, logs)
	}
	line := ""
	for _, l := range strings.Split(logs.String(), "\n") {
		if strings.Contains(l, "gatehouse listening") {
			line = l
		}
	}
	if !strings.Contains(line, want) || strings.Contains(logs.String(), "s3cret") {
		t.Fatalf("start-up line %q; want it to name %q, and no password anywhere", line, want)
	}
}
