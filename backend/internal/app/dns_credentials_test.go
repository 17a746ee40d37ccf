package app

import (
	"bytes"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"filippo.io/age"

	"github.com/gatehouse-proxy/gatehouse/internal/managed"
	"github.com/gatehouse-proxy/gatehouse/internal/sealbox"
	"github.com/gatehouse-proxy/gatehouse/internal/testutil"
)

// A data directory with the DNS credentials file of an older panel (an
// upgrade, or an archive made then and restored): the next start imports
// it, and the wrapper gets the credentials from the database.
func TestOldCredentialsFileImportedAtStart(t *testing.T) {
	const token = "wrapper-token-for-the-import-test"
	dataDir := t.TempDir()
	env := map[string]string{"PANEL_DATA_DIR": dataDir, "PANEL_MANAGED": "true", "PANEL_WRAPPER_TOKEN": token}
	first := newTestApp(t, env) // makes age.key and the database
	first.c.close()

	key, err := os.ReadFile(filepath.Join(dataDir, "age.key")) //nolint:gosec // the test's temp directory
	if err != nil {
		t.Fatal(err)
	}
	id, err := sealbox.Parse(string(key))
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	w, err := age.Encrypt(&buf, id.Recipient())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.Write([]byte(`{"CF_DNS_API_TOKEN":"from-the-old-file"}`)); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(dataDir, managed.SecretsFile)
	if err := os.WriteFile(file, buf.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}

	a := newTestApp(t, env)
	rec := testutil.Request(a.handler, "GET", "/api/proxy/managed/secrets-env", "", "Authorization", "Bearer "+token)
	if rec.Code != http.StatusOK || !strings.Contains(rec.Body.String(), "export CF_DNS_API_TOKEN='from-the-old-file'") {
		t.Fatalf("secrets-env after the import: %d %s", rec.Code, rec.Body)
	}
	if _, err := os.Stat(file + managed.MigratedSuffix); err != nil {
		t.Fatalf("the imported file was not renamed: %v", err)
	}
	if _, err := os.Stat(file); err == nil {
		t.Fatal("the imported file is still in place")
	}
}
