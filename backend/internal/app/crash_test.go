package app

import (
	"bufio"
	"context"
	"fmt"
	"net/http"
	"net/http/cookiejar"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"golang.org/x/crypto/bcrypt"

	"github.com/gatehouse-proxy/gatehouse/internal/config"
	"github.com/gatehouse-proxy/gatehouse/internal/store"
	"github.com/gatehouse-proxy/gatehouse/internal/testutil"
)

// TestCrashChild is the child half of TestSIGKILLLosesNoAcknowledgedWrite: it
// runs the real application until it is killed.
func TestCrashChild(t *testing.T) {
	if os.Getenv("GATEHOUSE_CRASH_CHILD") != "1" {
		t.Skip("helper process for TestSIGKILLLosesNoAcknowledgedWrite")
	}
	cfg, err := config.Load(os.Getenv)
	if err != nil {
		t.Fatal(err)
	}
	cfg.BcryptCost = bcrypt.MinCost
	o := Options{Stdout: os.Stderr, Stderr: os.Stderr, Ready: func(addr string) { fmt.Println("READY " + addr) }}
	if err := serve(context.Background(), cfg, newLogger(cfg, os.Stderr), o); err != nil {
		t.Fatal(err)
	}
}

// TestSIGKILLLosesNoAcknowledgedWrite kills the panel with SIGKILL in the
// middle of a stream of concurrent writes, three times over, and checks that
// every write it acknowledged is still there and the database is intact. It
// runs on the engine the tests run on.
func TestSIGKILLLosesNoAcknowledgedWrite(t *testing.T) {
	if testing.Short() {
		t.Skip("starts child processes")
	}
	dir := t.TempDir()
	database := filepath.Join(dir, "gatehouse.db") // the default under PANEL_DATA_DIR
	var env []string
	if testutil.OnPostgres() {
		database = testutil.NewDatabase(t)
		env = []string{"PANEL_DATABASE_URL=" + database}
	}
	var acked []string
	for round := 0; round < 3; round++ {
		acked = append(acked, crashRound(t, dir, env, round)...)
	}
	db, err := store.Open(context.Background(), database)
	if err != nil {
		t.Fatalf("reopen after SIGKILL: %v", err)
	}
	defer closeDB(db)
	if !store.IsPostgres(database) {
		var check string
		if err := db.Raw("PRAGMA integrity_check").Scan(&check).Error; err != nil || check != "ok" {
			t.Fatalf("integrity_check = %q, %v", check, err)
		}
	}
	var ids []string
	if err := db.Model(&store.Service{}).Pluck("id", &ids).Error; err != nil {
		t.Fatal(err)
	}
	have := map[string]bool{}
	for _, id := range ids {
		have[id] = true
	}
	for _, id := range acked {
		if !have[id] {
			t.Errorf("acknowledged service %s is lost", id)
		}
	}
	if len(acked) < 30 {
		t.Fatalf("only %d writes acknowledged; the test did not exercise the stream", len(acked))
	}
	t.Logf("%d acknowledged writes over 3 kills, %d rows present", len(acked), len(ids))
}

func crashRound(t *testing.T, dir string, env []string, round int) []string {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestCrashChild$", "-test.count=1") //nolint:gosec // the test binary itself, as a child
	cmd.Env = append(os.Environ(), "GATEHOUSE_CRASH_CHILD=1", "PANEL_DATA_DIR="+dir,
		"PANEL_LISTEN=127.0.0.1:0", "PANEL_ADMIN_USER=admin", "PANEL_ADMIN_PASSWORD=crash-test-password")
	cmd.Env = append(cmd.Env, env...)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = nil
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	addr := waitReady(t, out)

	jar, _ := cookiejar.New(nil)
	client := &http.Client{Jar: jar, Timeout: 10 * time.Second}
	base := "http://" + addr
	resp, err := client.Post(base+"/api/admin/login", "application/json",
		strings.NewReader(`{"username":"admin","password":"crash-test-password"}`))
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("login: %v %v", err, resp)
	}
	_ = resp.Body.Close()

	var mu sync.Mutex
	var acked []string
	var wg sync.WaitGroup
	stop := make(chan struct{})
	for w := 0; w < 4; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			for i := 0; ; i++ {
				select {
				case <-stop:
					return
				default:
				}
				body := fmt.Sprintf(`{"name":"s","hostnames":[{"type":"custom","value":"r%d-w%d-%d.test"}],`+
					`"targets":[{"host":"10.0.0.1","port":80}]}`, round, w, i)
				resp, err := client.Post(base+"/api/services", "application/json", strings.NewReader(body))
				if err != nil {
					return // the server died
				}
				var created item
				ok := resp.StatusCode == http.StatusCreated && decodeJSON(resp, &created) == nil
				_ = resp.Body.Close()
				if ok {
					mu.Lock()
					acked = append(acked, created.ID)
					mu.Unlock()
				}
			}
		}(w)
	}
	// Kill once some writes are through, while the others are in flight.
	deadline := time.Now().Add(20 * time.Second)
	for {
		mu.Lock()
		n := len(acked)
		mu.Unlock()
		if n >= 15 || time.Now().After(deadline) {
			break
		}
		time.Sleep(5 * time.Millisecond)
	}
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = cmd.Wait()
	close(stop)
	wg.Wait()
	mu.Lock()
	defer mu.Unlock()
	return acked
}

func waitReady(t *testing.T, out interface{ Read([]byte) (int, error) }) string {
	t.Helper()
	sc := bufio.NewScanner(out)
	for sc.Scan() {
		if addr, ok := strings.CutPrefix(sc.Text(), "READY "); ok {
			go func() {
				for sc.Scan() {
				}
			}()
			return addr
		}
	}
	t.Fatal("child exited before it was ready")
	return ""
}
