package managed

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"filippo.io/age"

	"github.com/gatehouse-proxy/gatehouse/internal/change"
	"github.com/gatehouse-proxy/gatehouse/internal/store"
	"github.com/gatehouse-proxy/gatehouse/internal/testutil"
)

// replicas opens n services on one database, each with its own connections
// and data directory and the same identity, as replicas run.
func replicas(t *testing.T, n int) []*Service {
	t.Helper()
	database := testutil.NewDatabase(t)
	id := newIdentity(t)
	out := make([]*Service, n)
	for i := range out {
		db := testutil.OpenDB(t, database)
		out[i] = newTestService(t, db, t.TempDir(), func(o *Deps) { o.Identity = id })
	}
	return out
}

func TestReplicasServeTheSameCredentials(t *testing.T) {
	ctx := context.Background()
	r := replicas(t, 2)
	if _, err := r[0].UpdateSecrets(ctx, map[string]string{"CF_DNS_API_TOKEN": "cf-value"}, nil); err != nil {
		t.Fatal(err)
	}
	docA, hashA, errA := r[0].SecretsEnv(ctx)
	docB, hashB, errB := r[1].SecretsEnv(ctx)
	if errA != nil || errB != nil {
		t.Fatal(errA, errB)
	}
	if hashA != hashB || !bytes.Equal(docA, docB) || !bytes.Contains(docB, []byte("export CF_DNS_API_TOKEN='cf-value'")) {
		t.Fatalf("the replicas disagree:\n%s (%s)\n%s (%s)", docA, hashA, docB, hashB)
	}
	st, err := r[1].State(ctx)
	if err != nil || len(st.Credentials) != 1 || st.Credentials[0].Name != "CF_DNS_API_TOKEN" {
		t.Fatalf("the other replica's state: %+v, %v", st, err)
	}
	// The same credentials sealed again (a new nonce) keep their hash.
	if _, err := r[1].UpdateSecrets(ctx, map[string]string{"CF_DNS_API_TOKEN": "cf-value"}, nil); err != nil {
		t.Fatal(err)
	}
	if _, again, err := r[0].SecretsEnv(ctx); err != nil || again != hashA {
		t.Fatalf("hash after sealing the same values again = %s, %v; want %s", again, err, hashA)
	}
}

func TestConcurrentSavesLoseNothing(t *testing.T) {
	ctx := context.Background()
	r := replicas(t, 2)
	const workers, each = 4, 5 // per replica
	start := make(chan struct{})
	var wg sync.WaitGroup
	errs := make(chan error, len(r)*workers*each)
	for i, s := range r {
		for w := range workers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				<-start
				for j := range each {
					name := fmt.Sprintf("R%d_W%d_CRED_%d", i, w, j)
					if _, err := s.UpdateSecrets(ctx, map[string]string{name: "v-" + name}, nil); err != nil {
						errs <- err
					}
				}
			}()
		}
	}
	close(start)
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	const want = 2 * workers * each
	got, err := r[1].CredentialValues(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != want {
		t.Fatalf("%d credentials after %d saves: %v", len(got), want, got)
	}
	st, err := r[0].State(ctx)
	if err != nil || len(st.Credentials) != want {
		t.Fatalf("names after the saves: %d, %v", len(st.Credentials), err)
	}
}

// writeOldFile writes the credentials file as panels before the
// dns_credentials table did.
func writeOldFile(t *testing.T, dir string, id *age.X25519Identity, plain string) []byte {
	t.Helper()
	var buf bytes.Buffer
	w, err := age.Encrypt(&buf, id.Recipient())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.Write([]byte(plain)); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, SecretsFile), buf.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func TestImportFile(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	id := newIdentity(t)
	bus := change.NewBus()
	var events []change.Event
	bus.Subscribe(func(e change.Event) { events = append(events, e) })
	s, err := NewService(Deps{DB: testutil.NewDB(t), Bus: bus, DataDir: dir, Identity: id})
	if err != nil {
		t.Fatal(err)
	}
	old := writeOldFile(t, dir, id, `{"CF_DNS_API_TOKEN":"from-the-file"}`)
	if err := s.ImportFile(ctx); err != nil {
		t.Fatal(err)
	}
	got, err := s.CredentialValues(ctx)
	if err != nil || got["CF_DNS_API_TOKEN"] != "from-the-file" || len(got) != 1 {
		t.Fatalf("after the import: %v, %v", got, err)
	}
	if _, err := os.Stat(filepath.Join(dir, SecretsFile)); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("the imported file is still in place: %v", err)
	}
	if kept, err := os.ReadFile(filepath.Join(dir, SecretsFile+MigratedSuffix)); err != nil || !bytes.Equal(kept, old) { //nolint:gosec // the test's temp directory
		t.Fatalf("the imported file was not kept as %s%s: %v", SecretsFile, MigratedSuffix, err)
	}
	if len(events) != 1 || events[0].Entity != change.Managed {
		t.Fatalf("events = %+v; want one managed change", events)
	}

	// Every credential removed: nothing comes back from the old file.
	if _, err := s.UpdateSecrets(ctx, nil, []string{"CF_DNS_API_TOKEN"}); err != nil {
		t.Fatal(err)
	}
	if err := s.ImportFile(ctx); err != nil {
		t.Fatal(err)
	}
	if got, _ := s.CredentialValues(ctx); len(got) != 0 {
		t.Fatalf("removed credentials came back: %v", got)
	}

	// A file found while the database holds credentials is ignored, left in place.
	writeOldFile(t, dir, id, `{"STALE":"stale"}`)
	if err := s.ImportFile(ctx); err != nil {
		t.Fatal(err)
	}
	if got, _ := s.CredentialValues(ctx); len(got) != 0 {
		t.Fatalf("a file was imported over stored credentials: %v", got)
	}
	if _, err := os.Stat(filepath.Join(dir, SecretsFile)); err != nil {
		t.Fatalf("the ignored file moved: %v", err)
	}
}

func TestImportFileNone(t *testing.T) {
	s := newTestService(t, testutil.NewDB(t), t.TempDir())
	if err := s.ImportFile(context.Background()); err != nil {
		t.Fatal(err)
	}
	if _, found, err := store.GetSealedCredentials(context.Background(), s.db); err != nil || found {
		t.Fatalf("without a file the import stored something: %v, %v", found, err)
	}
}

// A file the identity cannot open moves as it is and fails closed, as the
// file did.
func TestImportFileWrongKey(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	s := newTestService(t, testutil.NewDB(t), dir)
	writeOldFile(t, dir, newIdentity(t), `{"A":"a"}`)
	if err := s.ImportFile(ctx); err != nil {
		t.Fatal(err)
	}
	if _, _, err := s.SecretsEnv(ctx); !isDecryptError(err) {
		t.Fatalf("SecretsEnv = %v; want a decryption error", err)
	}
	if _, err := s.UpdateSecrets(ctx, map[string]string{"B": "b"}, nil); !isDecryptError(err) {
		t.Fatalf("UpdateSecrets = %v; want a decryption error", err)
	}
}

// Replicas starting together on one data directory import the file once.
func TestImportFileOnceAcrossReplicas(t *testing.T) {
	ctx := context.Background()
	r := replicas(t, 2)
	dir := t.TempDir()
	writeOldFile(t, dir, r[0].o.Identity, `{"A":"a"}`)
	var wg sync.WaitGroup
	errs := make([]error, len(r))
	for i, s := range r {
		s.vault.file = filepath.Join(dir, SecretsFile)
		wg.Add(1)
		go func() { defer wg.Done(); errs[i] = s.ImportFile(ctx) }()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	got, err := r[1].CredentialValues(ctx)
	if err != nil || got["A"] != "a" {
		t.Fatalf("after the imports: %v, %v", got, err)
	}
}
