package managed

import (
	"context"
	"os"
	"strings"
	"testing"
	"time"

	"filippo.io/age"
	"gorm.io/gorm"

	"github.com/gatehouse-proxy/gatehouse/internal/apperr"
	"github.com/gatehouse-proxy/gatehouse/internal/change"
	"github.com/gatehouse-proxy/gatehouse/internal/notify"
	"github.com/gatehouse-proxy/gatehouse/internal/store"
	"github.com/gatehouse-proxy/gatehouse/internal/testutil"
)

func newIdentity(t *testing.T) *age.X25519Identity {
	t.Helper()
	id, err := age.GenerateX25519Identity()
	if err != nil {
		t.Fatal(err)
	}
	return id
}

func newTestService(t *testing.T, db *gorm.DB, dir string, mutate ...func(*Deps)) *Service {
	t.Helper()
	o := Deps{
		DB: db, Bus: change.NewBus(), DataDir: dir, Identity: newIdentity(t), Static: StaticOptions{ProviderURL: "http://gatehouse:8080"},
		Now: func() time.Time { return time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC) },
	}
	for _, m := range mutate {
		m(&o)
	}
	s, err := NewService(o)
	if err != nil {
		t.Fatalf("NewService: %v", err)
	}
	return s
}

func TestIdentityIsRequired(t *testing.T) {
	if _, err := NewService(Deps{DB: testutil.NewDB(t), DataDir: t.TempDir()}); err == nil {
		t.Fatal("NewService without an identity succeeded")
	}
}

func TestSecretsRoundTrip(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	s := newTestService(t, testutil.NewDB(t), dir)
	creds, err := s.UpdateSecrets(ctx, map[string]string{"CF_DNS_API_TOKEN": "tok'en\nline2", "OTHER": "x"}, nil) //nolint:gosec // a made-up value
	if err != nil {
		t.Fatal(err)
	}
	if len(creds) != 2 || creds[0].Name != "CF_DNS_API_TOKEN" || creds[1].Name != "OTHER" {
		t.Fatalf("credentials = %+v", creds)
	}
	sealed, found, err := store.GetSealedCredentials(ctx, s.db)
	if err != nil || !found {
		t.Fatalf("sealed credentials: found %v, %v", found, err)
	}
	if strings.Contains(sealed, "tok") || !strings.HasPrefix(sealed, "-----BEGIN AGE ENCRYPTED FILE-----") {
		t.Fatal("the stored credentials are not age-encrypted")
	}
	doc, hash, err := s.SecretsEnv(ctx)
	if err != nil {
		t.Fatal(err)
	}
	want := "# gatehouse-secrets-hash: " + hash + "\nexport CF_DNS_API_TOKEN='tok'\\''en\nline2'\nexport OTHER='x'\n"
	if string(doc) != want {
		t.Fatalf("secrets-env =\n%s\nwant\n%s", doc, want)
	}
	if _, err := s.UpdateSecrets(ctx, map[string]string{"NEW": "n"}, []string{"OTHER", "NEVER_SET"}); err != nil {
		t.Fatal(err)
	}
	loaded, err := s.vault.load(ctx, s.db)
	if err != nil {
		t.Fatal(err)
	}
	if len(loaded) != 2 || loaded["NEW"] != "n" || loaded["CF_DNS_API_TOKEN"] != "tok'en\nline2" {
		t.Fatalf("after the batch: %v", loaded)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Fatalf("the data directory holds files: %v", entries)
	}
}

func TestSecretsBatchValidation(t *testing.T) {
	s := newTestService(t, testutil.NewDB(t), t.TempDir())
	tests := []struct {
		name   string
		upsert map[string]string
		remove []string
		field  string
	}{
		{"lower-case name", map[string]string{"cf_token": "x"}, nil, "upsert.cf_token"},
		{"injection in name", map[string]string{"A=$(id)": "x"}, nil, "upsert.A???id?"},
		{"empty value", map[string]string{"A": ""}, nil, "upsert.A"},
		{"NUL in value", map[string]string{"A": "a\x00b"}, nil, "upsert.A"},
		{"reserved name", map[string]string{"LD_PRELOAD": "/x.so"}, nil, "upsert.LD_PRELOAD"},
		{"bad removal", nil, []string{"no way"}, "remove[0]"},
		{"both", map[string]string{"A": "1"}, []string{"A"}, "remove[0]"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := s.UpdateSecrets(context.Background(), tt.upsert, tt.remove)
			e, ok := apperr.As(err)
			if !ok || len(e.Fields) == 0 || e.Fields[0].Field != tt.field {
				t.Fatalf("UpdateSecrets = %v; want a field error on %s", err, tt.field)
			}
		})
	}
}

func TestWrongKeyFailsClosed(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	db := testutil.NewDB(t)
	s := newTestService(t, db, dir)
	if _, err := s.UpdateSecrets(ctx, map[string]string{"A": "secret-a"}, nil); err != nil {
		t.Fatal(err)
	}
	before, _, _ := store.GetSealedCredentials(ctx, db)
	other := newTestService(t, db, dir) // same database, another identity
	if _, _, err := other.SecretsEnv(ctx); !isDecryptError(err) {
		t.Fatalf("SecretsEnv with the wrong key = %v; want a decryption error", err)
	}
	if _, err := other.UpdateSecrets(ctx, map[string]string{"B": "b"}, nil); !isDecryptError(err) {
		t.Fatalf("UpdateSecrets with the wrong key = %v; want a decryption error", err)
	}
	after, _, _ := store.GetSealedCredentials(ctx, db)
	if before != after {
		t.Fatal("the undecryptable credentials were overwritten")
	}
	st, err := other.State(ctx)
	if err != nil || len(st.Credentials) != 1 {
		t.Fatalf("State still lists names without decrypting: %+v, %v", st, err)
	}
}

func TestStatusFollowsTheWrapperReport(t *testing.T) {
	ctx := context.Background()
	s := newTestService(t, testutil.NewDB(t), t.TempDir())
	st, err := s.State(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if st.Status != StatusWaiting || st.AppliedAt != nil {
		t.Fatalf("fresh state = %s %v; want waiting without appliedAt", st.Status, st.AppliedAt)
	}
	_, configHash, _ := s.Static(ctx)
	_, secretsHash, _ := s.SecretsEnv(ctx)
	if st, err = s.ReportApplied(ctx, configHash, secretsHash, nil); err != nil || st.Status != StatusApplied || st.AppliedAt == nil {
		t.Fatalf("after the report: %+v, %v", st, err)
	}

	c := Defaults("ops@gatehouse.dev")
	c.Entrypoints[0].Port = 8000
	if st, err = s.PutConfig(ctx, c); err != nil || st.Status != StatusPending {
		t.Fatalf("after a config change: %s, %v; want pending", st.Status, err)
	}
	_, configHash, _ = s.Static(ctx)
	if st, _ = s.ReportApplied(ctx, configHash, secretsHash, nil); st.Status != StatusApplied {
		t.Fatalf("after the new report: %s", st.Status)
	}

	if _, err := s.UpdateSecrets(ctx, map[string]string{"A": "1"}, nil); err != nil {
		t.Fatal(err)
	}
	if st, _ = s.State(ctx); st.Status != StatusPending {
		t.Fatalf("after a credential change: %s; want pending", st.Status)
	}
	_, secretsHash, _ = s.SecretsEnv(ctx)
	if st, _ = s.ReportApplied(ctx, configHash, secretsHash, nil); st.Status != StatusApplied {
		t.Fatalf("after the credentials report: %s", st.Status)
	}

	if _, err := s.ReportApplied(ctx, "nope", secretsHash, nil); !apperr.IsCode(err, apperr.CodeValidationFailed) {
		t.Fatalf("bad hash: %v", err)
	}
}

func TestStatusRejected(t *testing.T) {
	ctx := context.Background()
	s := newTestService(t, testutil.NewDB(t), t.TempDir())
	_, oldConfig, _ := s.Static(ctx)
	_, secretsHash, _ := s.SecretsEnv(ctx)
	if _, err := s.ReportApplied(ctx, oldConfig, secretsHash, nil); err != nil {
		t.Fatal(err)
	}
	c := Defaults("ops@gatehouse.dev")
	c.Entrypoints[0].Port = 8000
	if _, err := s.PutConfig(ctx, c); err != nil {
		t.Fatal(err)
	}
	_, newConfig, _ := s.Static(ctx)
	// The wrapper went back to the old configuration and says why.
	rej := &Rejection{ConfigHash: newConfig, SecretsHash: secretsHash, Reason: "Traefik exited with code 1"}
	st, err := s.ReportApplied(ctx, oldConfig, secretsHash, rej)
	if err != nil || st.Status != StatusRejected || st.Rejection == nil || st.Rejection.Reason != "Traefik exited with code 1" {
		t.Fatalf("after the rejection: %+v, %v", st, err)
	}
	// A later report without a rejection keeps it while nothing changed.
	if st, _ = s.ReportApplied(ctx, oldConfig, secretsHash, nil); st.Status != StatusRejected {
		t.Fatalf("status = %s, want rejected", st.Status)
	}
	// A new configuration is pending again.
	c.Entrypoints[0].Port = 8001
	if st, _ = s.PutConfig(ctx, c); st.Status != StatusPending || st.Rejection != nil {
		t.Fatalf("after a fix: %+v, want pending", st)
	}
	bad := &Rejection{ConfigHash: "x", SecretsHash: secretsHash}
	if _, err := s.ReportApplied(ctx, oldConfig, secretsHash, bad); !apperr.IsCode(err, apperr.CodeValidationFailed) {
		t.Fatalf("bad rejected hash: %v", err)
	}
}

func TestTLSEntrypoints(t *testing.T) {
	s := newTestService(t, testutil.NewDB(t), t.TempDir())
	m, ok := s.TLSEntrypoints(context.Background())
	if !ok || m["websecure"] != true || m["web"] != false || len(m) != 2 {
		t.Fatalf("TLSEntrypoints = %v, %v", m, ok)
	}
}

func TestACMEEmailSeedsTheDefaultResolver(t *testing.T) {
	s := newTestService(t, testutil.NewDB(t), t.TempDir(), func(o *Deps) { o.ACMEEmail = "ops@gatehouse.dev" })
	doc, _, err := s.Static(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(doc), "certResolver: letsencrypt") || !strings.Contains(string(doc), "email: ops@gatehouse.dev") {
		t.Fatalf("the seeded resolver is not active:\n%s", doc)
	}
}

func TestReportAppliedNotifies(t *testing.T) {
	var got []notify.Event
	s := newTestService(t, testutil.NewDB(t), t.TempDir(), func(o *Deps) {
		o.Notify = notify.PublisherFunc(func(_ context.Context, ev notify.Event) { got = append(got, ev) })
	})
	ctx := context.Background()
	_, configHash, err := s.Static(ctx)
	if err != nil {
		t.Fatal(err)
	}
	_, secretsHash, err := s.SecretsEnv(ctx)
	if err != nil {
		t.Fatal(err)
	}
	old := strings.Repeat("0", 64)
	if _, err := s.ReportApplied(ctx, old, secretsHash, nil); err != nil || len(got) != 0 {
		t.Fatalf("an outdated report notified: %v %v", err, got)
	}
	// The wrapper went back to the old configuration: Traefik would not run the current one.
	rej := &Rejection{ConfigHash: configHash, SecretsHash: secretsHash, Reason: "traefik exited with code 1"}
	if _, err := s.ReportApplied(ctx, old, secretsHash, rej); err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || got[0].Kind != notify.ManagedRejected || !strings.Contains(got[0].Body, "exited with code 1") {
		t.Fatalf("events after the rejection %+v", got)
	}
	if _, err := s.ReportApplied(ctx, configHash, secretsHash, nil); err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[1].Kind != notify.ManagedApplied {
		t.Fatalf("events %+v", got)
	}
}
