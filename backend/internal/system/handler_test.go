package system_test

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"testing"
	"time"

	"github.com/gatehouse-proxy/gatehouse/internal/httpapi"
	"github.com/gatehouse-proxy/gatehouse/internal/paneladdr"
	"github.com/gatehouse-proxy/gatehouse/internal/store"
	"github.com/gatehouse-proxy/gatehouse/internal/system"
	"github.com/gatehouse-proxy/gatehouse/internal/testutil"
)

// TestInfo: GET /api/system/info answers the version, uptime, data
// directory, database size and the addresses in effect, set or derived.
func TestInfo(t *testing.T) {
	domain := func(d string) func(context.Context) (string, error) {
		return func(context.Context) (string, error) { return d, nil }
	}
	tests := []struct {
		name                     string
		internal, public, admin  string
		wantPublic, wantInternal string
		wantInternalSet          bool
		wantForwardAuth          string
	}{
		{"derived", "", "", "", "http://127.0.0.1:8080", "http://127.0.0.1:8080", false, "http://127.0.0.1:8080"},
		{"admin domain", "", "", "panel.example.com", "https://panel.example.com", "http://127.0.0.1:8080", false, "https://panel.example.com"},
		{"set", "http://gatehouse:8080", "https://gh.example.com", "panel.example.com", "https://gh.example.com", "http://gatehouse:8080", true, "http://gatehouse:8080"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			database := testutil.NewDatabase(t)
			db := testutil.OpenDB(t, database)
			clock := testutil.NewClock(time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC))
			started := clock.Now()
			clock.Add(90 * time.Minute)
			panel := paneladdr.New(tc.internal, tc.public, domain(tc.admin))
			panel.Bind("127.0.0.1:8080")
			dataDir := t.TempDir()
			d := system.Deps{DB: db, Postgres: store.IsPostgres(database), DataDir: dataDir, Version: "1.2.3",
				Panel: panel, AdminDomain: domain(tc.admin), Started: started, Now: clock.Now}
			if !d.Postgres {
				d.SQLiteFile = database
			}
			e := httpapi.New(httpapi.Deps{
				Logger: slog.New(slog.NewTextHandler(io.Discard, nil)), RequireAdmin: testutil.AsAdmin,
				Features: []httpapi.Feature{system.NewHandler(system.NewService(d))},
			}).Echo
			rec := testutil.Request(e, http.MethodGet, "/api/system/info", "")
			if rec.Code != http.StatusOK {
				t.Fatalf("GET /api/system/info: %d %s", rec.Code, rec.Body)
			}
			var v system.Info
			if err := json.Unmarshal(rec.Body.Bytes(), &v); err != nil {
				t.Fatal(err)
			}
			if v.Version != "1.2.3" || v.UptimeSeconds != 5400 || v.StartedAt != "2026-01-02T03:04:05Z" || v.DataDir != dataDir {
				t.Errorf("info = %+v", v)
			}
			if v.Database.SizeBytes <= 0 || (v.Database.Engine == system.EnginePostgres) != d.Postgres {
				t.Errorf("database = %+v", v.Database)
			}
			u := v.URLs
			if u.Public != tc.wantPublic || u.Internal != tc.wantInternal || u.InternalSet != tc.wantInternalSet || u.ForwardAuth != tc.wantForwardAuth || u.Portal != "" {
				t.Errorf("urls = %+v", u)
			}
		})
	}
}
