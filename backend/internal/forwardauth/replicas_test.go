package forwardauth

import (
	"context"
	"database/sql"
	"net/http"
	"os"
	"sync"
	"testing"
	"time"

	_ "github.com/jackc/pgx/v5/stdlib" // "pgx", for the server's own connection
	"gorm.io/gorm"

	"github.com/gatehouse-proxy/gatehouse/internal/testutil"
)

// Several replicas share one database: a sign-in started on one finishes
// on another, whichever replica Traefik's load balancer picks for each hop.
func TestSSOAcrossReplicas(t *testing.T) {
	a := newEnv(t)
	m := provider(t, a)
	id := a.service("app.example.com")
	protect(t, a, id, map[string]any{"type": "sso"})
	b := a.replica()

	// Started on a, called back on b, redeemed on a.
	_, back := toExchange(t, a, b, m, id, "app.example.com", nil)
	if back == nil {
		t.Fatal("the callback on the other replica refused the sign-in")
	}
	rec := a.verify(fwd{service: id, host: "app.example.com", uri: back.RequestURI(), browser: true})
	ck := sessionCookie(t, rec)
	if rec.Code != http.StatusFound || ck == nil {
		t.Fatalf("exchange: %d", rec.Code)
	}
	// The token is gone for b too; the session opened on a works on b.
	if again := b.verify(fwd{service: id, host: "app.example.com", uri: back.RequestURI(), browser: true}); again.Code != 401 {
		t.Fatalf("exchange token again on the other replica: %d", again.Code)
	}
	if rec := b.verify(fwd{service: id, host: "app.example.com", cookie: ck.Value}); rec.Code != 200 ||
		rec.Header().Get("Remote-User") != "jane.doe" {
		t.Fatalf("session on the other replica: %d %v", rec.Code, rec.Header())
	}

	// And the other way round.
	_, back = toExchange(t, b, a, m, id, "app.example.com", nil)
	if back == nil {
		t.Fatal("the callback on the first replica refused the sign-in")
	}
}

// An exchange token sent to several replicas at once opens one session.
func TestExchangeRedeemedOnceAcrossReplicas(t *testing.T) {
	a := newEnv(t)
	m := provider(t, a)
	id := a.service("app.example.com")
	protect(t, a, id, map[string]any{"type": "sso"})
	b := a.replica()
	panels := []*env{a, b}
	for round := range 3 {
		_, back := toExchange(t, a, a, m, id, "app.example.com", nil)
		if back == nil {
			t.Fatal("callback refused")
		}
		const n = 8
		codes, cookies := make([]int, n), make([]bool, n)
		var wg sync.WaitGroup
		start := make(chan struct{})
		for i := range n {
			wg.Go(func() {
				<-start
				rec := panels[i%2].verify(fwd{service: id, host: "app.example.com", uri: back.RequestURI(), browser: true})
				codes[i], cookies[i] = rec.Code, sessionCookie(t, rec) != nil
			})
		}
		close(start)
		wg.Wait()
		won := 0
		for i := range n {
			switch {
			case codes[i] == http.StatusFound && cookies[i]:
				won++
			case codes[i] != http.StatusUnauthorized:
				t.Fatalf("round %d, request %d: %d", round, i, codes[i])
			}
		}
		if won != 1 {
			t.Fatalf("round %d: %d of %d concurrent redemptions opened a session, want 1 (%v)", round, won, n, codes)
		}
	}
}

// On PostgreSQL the replicas count failed attempts together.
func TestRateLimitSharedAcrossReplicas(t *testing.T) {
	if !testutil.OnPostgres() {
		t.Skip("on SQLite one process serves: failures are counted in memory")
	}
	a := newEnv(t)
	id, _ := basicService(t, a, "app.example.com")
	b := a.replica()
	for i := range MaxFailures {
		v := []*env{a, b}[i%2]
		if rec := v.verify(fwd{service: id, host: "app.example.com", ip: "203.0.113.9", auth: basic("alice", "wrong")}); rec.Code != 401 {
			t.Fatalf("failure %d: %d", i, rec.Code)
		}
	}
	for name, v := range map[string]*env{"a": a, "b": b} {
		// Another address: the user's own count blocks it.
		rec := v.verify(fwd{service: id, host: "app.example.com", ip: "198.51.100.7", auth: basic("alice", "correct horse")})
		if rec.Code != http.StatusTooManyRequests {
			t.Fatalf("replica %s after %d failures spread over two replicas: %d, want 429", name, MaxFailures, rec.Code)
		}
	}
}

// A replica that loses its database keeps answering from memory what it
// knows (a cached session, cached basic-auth credentials) and refuses,
// quickly, everything that needs the database: an unknown cookie, new
// credentials (the shared rate limit cannot be read) and a policy rebuild.
func TestVerifyWithoutTheDatabase(t *testing.T) {
	if !testutil.OnPostgres() {
		t.Skip("a SQLite file does not go away under a running process; a PostgreSQL server can")
	}
	v := newEnv(t)
	m := provider(t, v)
	app := v.service("app.example.com")
	protect(t, v, app, map[string]any{"type": "sso"})
	_, session := signIn(t, v, m, app, "app.example.com", nil)
	files := v.service("files.example.com")
	var set CredentialSetResponse
	v.must(http.StatusCreated, http.MethodPost, "/api/credential-sets", map[string]any{"name": "team", "users": []map[string]string{
		{"username": "alice", "password": "correct horse"}, {"username": "bob", "password": "battery staple"}}}, &set)
	protect(t, v, files, map[string]any{"type": "basic_auth", "credentialSetId": set.ID})
	cached := []fwd{
		{service: app, host: "app.example.com", cookie: session},
		{service: files, host: "files.example.com", auth: basic("alice", "correct horse")},
	}
	for _, f := range cached {
		if rec := v.verify(f); rec.Code != 200 {
			t.Fatalf("%s before the loss: %d", f.host, rec.Code)
		}
	}

	restore := loseDatabase(t, v)
	tests := []struct {
		name string
		f    fwd
		ok   bool
	}{
		{"cached session", cached[0], true},
		{"cached basic auth", cached[1], true},
		{"unknown cookie", fwd{service: app, host: "app.example.com", cookie: "not-a-session"}, false},
		{"new basic-auth credentials", fwd{service: files, host: "files.example.com", auth: basic("bob", "battery staple")}, false},
		{"wrong basic-auth password", fwd{service: files, host: "files.example.com", auth: basic("alice", "wrong")}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			began := time.Now()
			rec := v.verify(tt.f)
			if took := time.Since(began); took > dbTimeout+time.Second {
				t.Fatalf("answered in %v", took)
			}
			t.Logf("%d in %v", rec.Code, time.Since(began))
			if got := rec.Code >= 200 && rec.Code < 300; got != tt.ok {
				t.Fatalf("%d, want 2xx: %v", rec.Code, tt.ok)
			}
		})
	}
	// A change drops the policy: it cannot be rebuilt, so nothing passes.
	v.acc.InvalidatePolicy()
	for _, f := range cached {
		if rec := v.verify(f); rec.Code < 300 || rec.Code >= 400 && rec.Code < 500 {
			t.Fatalf("%s without a policy: %d", f.host, rec.Code)
		}
	}

	restore()
	for _, f := range cached {
		if rec := v.verify(f); rec.Code != 200 {
			t.Fatalf("%s once the database is back: %d", f.host, rec.Code)
		}
	}
}

// loseDatabase makes v's PostgreSQL database refuse connections and ends
// the ones open, from the server's own database, as a failed or
// unreachable server would. restore (also run when the test ends) lets
// connections in again.
func loseDatabase(t *testing.T, v *env) (restore func()) {
	t.Helper()
	ctx := context.Background()
	var name string
	if err := v.db.WithContext(ctx).Raw("SELECT current_database()").Scan(&name).Error; err != nil {
		t.Fatal(err)
	}
	server, err := sql.Open("pgx", os.Getenv(testutil.PostgresEnv))
	if err != nil {
		t.Fatal(err)
	}
	exec := func(q string, args ...any) {
		if _, err := server.ExecContext(ctx, q, args...); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	exec(`ALTER DATABASE "` + name + `" WITH ALLOW_CONNECTIONS false`)
	exec(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()`, name)
	var once sync.Once
	restore = func() {
		once.Do(func() {
			exec(`ALTER DATABASE "` + name + `" WITH ALLOW_CONNECTIONS true`)
			_ = server.Close()
		})
	}
	t.Cleanup(restore)
	return restore
}

// A database that stops answering (a network partition: no error, no
// answer) costs verify at most dbTimeout: cached decisions still pass at
// once, the rest is refused, and requests waiting for one policy rebuild
// give up together instead of one after another.
func TestVerifyWhenTheDatabaseHangs(t *testing.T) {
	v := newEnv(t)
	id, _ := basicService(t, v, "app.example.com")
	cached := fwd{service: id, host: "app.example.com", auth: basic("alice", "correct horse")}
	if rec := v.verify(cached); rec.Code != 200 {
		t.Fatalf("before: %d", rec.Code)
	}
	hang := func(db *gorm.DB) {
		<-db.Statement.Context.Done()
		_ = db.AddError(db.Statement.Context.Err())
	}
	if err := v.db.Callback().Query().Before("gorm:query").Register("test:hang", hang); err != nil {
		t.Fatal(err)
	}

	began := time.Now()
	if rec := v.verify(cached); rec.Code != 200 || time.Since(began) > time.Second {
		t.Fatalf("cached credentials: %d in %v", rec.Code, time.Since(began))
	}
	began = time.Now()
	rec := v.verify(fwd{service: id, host: "app.example.com", cookie: "not-a-session"})
	if took := time.Since(began); rec.Code < 300 || took > dbTimeout+2*time.Second {
		t.Fatalf("unknown cookie: %d in %v", rec.Code, took)
	}

	v.acc.InvalidatePolicy()
	const n = 6
	codes := make([]int, n)
	var wg sync.WaitGroup
	began = time.Now()
	for i := range n {
		wg.Go(func() { codes[i] = v.verify(cached).Code })
	}
	wg.Wait()
	if took := time.Since(began); took > dbTimeout+2*time.Second {
		t.Fatalf("%d requests waiting for one policy rebuild took %v", n, took)
	}
	for i, c := range codes {
		if c < 300 {
			t.Fatalf("request %d without a policy: %d", i, c)
		}
	}
}
