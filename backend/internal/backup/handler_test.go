package backup

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/labstack/echo/v4"

	"github.com/gatehouse-proxy/gatehouse/internal/httpapi"
	"github.com/gatehouse-proxy/gatehouse/internal/testutil"
)

func newAPI(t *testing.T, f *fixture) *echo.Echo {
	t.Helper()
	return httpapi.New(httpapi.Deps{
		Logger:        slog.New(slog.DiscardHandler),
		Ping:          func(context.Context) error { return nil },
		SetupRequired: func(context.Context) (bool, error) { return false, nil },
		RequireAdmin:  testutil.AsAdmin,
		Features:      []httpapi.Feature{NewHandler(f.svc)},
	}).Echo
}

func TestBackupsAPI(t *testing.T) {
	f := newFixture(t)
	e := newAPI(t, f)
	rec := testutil.Request(e, http.MethodGet, "/api/backups", "")
	if rec.Code != http.StatusOK || !strings.Contains(rec.Body.String(), `"backups":[]`) ||
		!strings.Contains(rec.Body.String(), `"schedule":{"enabled":true,"intervalHours":24,"keep":7}`) ||
		!strings.Contains(rec.Body.String(), `"lastError":null`) {
		t.Fatalf("empty list: %d %s", rec.Code, rec.Body)
	}
	rec = testutil.Request(e, http.MethodPost, "/api/backups", "")
	var created Entry
	if rec.Code != http.StatusCreated || json.Unmarshal(rec.Body.Bytes(), &created) != nil || created.Trigger != "manual" || created.Size == 0 {
		t.Fatalf("create: %d %s", rec.Code, rec.Body)
	}
	var st Status
	rec = testutil.Request(e, http.MethodGet, "/api/backups", "")
	if json.Unmarshal(rec.Body.Bytes(), &st) != nil || len(st.Backups) != 1 || st.Backups[0] != created ||
		st.Directory != f.svc.Dir() || st.Next == nil {
		t.Fatalf("list: %s", rec.Body)
	}
	rec = testutil.Request(e, http.MethodGet, "/api/backups/"+created.Name+"/download", "")
	want, _ := os.ReadFile(filepath.Join(f.svc.Dir(), created.Name))
	if rec.Code != http.StatusOK || !bytes.Equal(rec.Body.Bytes(), want) ||
		rec.Header().Get("Content-Disposition") != `attachment; filename="`+created.Name+`"` || rec.Header().Get("Content-Type") != "application/gzip" {
		t.Fatalf("download: %d %v", rec.Code, rec.Header())
	}
	rec = testutil.Request(e, http.MethodPut, "/api/backups/schedule", `{"enabled":false,"intervalHours":0,"keep":3}`)
	if rec.Code != http.StatusUnprocessableEntity || !strings.Contains(rec.Body.String(), `"field":"intervalHours"`) {
		t.Fatalf("bad schedule: %d %s", rec.Code, rec.Body)
	}
	rec = testutil.Request(e, http.MethodPut, "/api/backups/schedule", `{"enabled":false,"intervalHours":12,"keep":3}`)
	if rec.Code != http.StatusOK || rec.Body.String() != `{"enabled":false,"intervalHours":12,"keep":3}`+"\n" {
		t.Fatalf("schedule: %d %s", rec.Code, rec.Body)
	}
	rec = testutil.Request(e, http.MethodDelete, "/api/backups/"+created.Name, "")
	if rec.Code != http.StatusNoContent {
		t.Fatalf("delete: %d %s", rec.Code, rec.Body)
	}
	if rec = testutil.Request(e, http.MethodDelete, "/api/backups/"+created.Name, ""); rec.Code != http.StatusNotFound {
		t.Fatalf("delete again: %d %s", rec.Code, rec.Body)
	}
}

// TestBackupNamesAreChecked: anything but the fixed name pattern is refused
// before the file system is touched, whatever it points at.
func TestBackupNamesAreChecked(t *testing.T) {
	f := newFixture(t)
	e := newAPI(t, f)
	// A file beside the backups that a traversal would reach.
	if err := os.MkdirAll(f.svc.Dir(), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(f.dataDir, IdentityName), filepath.Join(f.svc.Dir(), "gatehouse-20260101-000000.tar.gz")); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"..%2Fage.key", "..%2F..%2Fetc%2Fpasswd", "age.key", "gatehouse-2026.tar.gz",
		"gatehouse-20260101-000000.tar.gz%00", "%2Fetc%2Fpasswd", "gatehouse-20260101-000000.tar"} {
		for _, m := range []string{http.MethodGet, http.MethodDelete} {
			path := "/api/backups/" + name
			if m == http.MethodGet {
				path += "/download"
			}
			rec := testutil.Request(e, m, path, "")
			if rec.Code != http.StatusUnprocessableEntity && rec.Code != http.StatusNotFound {
				t.Errorf("%s %s: %d %s", m, path, rec.Code, rec.Body)
			}
			if strings.Contains(rec.Body.String(), "AGE-SECRET-KEY") {
				t.Fatalf("%s %s leaked the key", m, path)
			}
		}
	}
	// A symlink under a valid name is not a backup.
	rec := testutil.Request(e, http.MethodGet, "/api/backups/gatehouse-20260101-000000.tar.gz/download", "")
	if rec.Code != http.StatusNotFound {
		t.Fatalf("symlink: %d %s", rec.Code, rec.Body)
	}
	if _, err := os.Stat(filepath.Join(f.dataDir, IdentityName)); err != nil {
		t.Fatal(err)
	}
}
