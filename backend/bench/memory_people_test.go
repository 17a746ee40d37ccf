//go:build bench

package bench

import (
	"context"
	"fmt"
	"net/http"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"gorm.io/gorm"

	"github.com/gatehouse-proxy/gatehouse/e2e/harness"
	"github.com/gatehouse-proxy/gatehouse/internal/bearer"
	"github.com/gatehouse-proxy/gatehouse/internal/forwardauth"
	"github.com/gatehouse-proxy/gatehouse/internal/store"
)

// TestBenchMemoryPeople measures the built binary's resident set, as
// TestBenchMemory does, with a directory of 10,000 people in 20 groups and
// 50,000 sessions opened through the sign-in portal: 50,000 portal
// sign-ins, and on a service with the people protection the 50,000 service
// sessions opened from them. The panel is sampled at rest on that data,
// once every service session has been verified (each is then in the
// forward-auth cache, beside the directory snapshot verify answers from),
// and after a verify load on one of them.
func TestBenchMemoryPeople(t *testing.T) {
	const people, groups, sessions = 10_000, 20, 50_000
	bin := harness.BuildGatehouse(t)
	dir := t.TempDir()
	fmt.Printf("\nmemory of the panel (SQLite, built binary) with %d people in %d groups and %d sessions through the portal\n",
		people, groups, sessions)
	fmt.Printf("resident set (VmRSS), its anonymous part (RssAnon) and its peak (VmHWM); no GC forced\n")
	fmt.Printf("%-44s %10s %10s %10s\n", "phase", "RSS", "anon", "peak RSS")
	start := func() (*harness.Replica, func(string)) {
		r := harness.StartReplica(t, bin, "memory-people", map[string]string{"PANEL_DATA_DIR": dir})
		pid := r.PID()
		return r, func(phase string) {
			m := procMemory(t, pid)
			fmt.Printf("%-44s %8.1fMB %8.1fMB %8.1fMB\n", phase, mb(m.rss), mb(m.anon), mb(m.hwm))
		}
	}
	r, sample := start()
	sample("idle")
	r.Kill()

	_, ids := seedServices(t, filepath.Join(dir, "gatehouse.db"), 1)
	svc := ids[0]
	tokens := seedPeople(t, filepath.Join(dir, "gatehouse.db"), svc, people, groups, sessions)
	r, sample = start()
	defer r.Kill()
	p := r.Panel
	headers := func(tok string) []string {
		return []string{"X-Forwarded-Method: GET", "X-Forwarded-Proto: https", "X-Forwarded-Host: app0.bench.test",
			"X-Forwarded-Uri: /", "X-Forwarded-For: 203.0.113.7", "Cookie: " + forwardauth.SessionCookie + "=" + tok}
	}
	verifyURL := p.URL + "/api/auth/verify?service=" + svc
	if code, user := probe(t, verifyURL, headers(tokens[0])); code != http.StatusOK || user == "" {
		t.Fatalf("verify of a people session answered %d with Remote-User %q", code, user)
	}
	sample(fmt.Sprintf("%d people, %d sessions", people, sessions))

	// Every session once, as 50,000 browsers would: each is then cached.
	start2 := time.Now()
	work := make(chan string, len(tokens))
	for _, tok := range tokens {
		work <- tok
	}
	close(work)
	var wg sync.WaitGroup
	var mu sync.Mutex
	refused := 0
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 8}}
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for tok := range work {
				req, _ := http.NewRequest(http.MethodGet, verifyURL, nil)
				for _, h := range headers(tok) {
					k, v, _ := strings.Cut(h, ": ")
					req.Header.Set(k, v)
				}
				resp, err := client.Do(req)
				if err == nil {
					_ = resp.Body.Close()
				}
				if err != nil || resp.StatusCode != http.StatusOK {
					mu.Lock()
					refused++
					mu.Unlock()
				}
			}
		}()
	}
	wg.Wait()
	if refused > 0 {
		t.Fatalf("%d of %d sessions were refused", refused, len(tokens))
	}
	sample(fmt.Sprintf("+ each session verified once (%.0fs)", time.Since(start2).Seconds()))

	wrk(t, verifyURL, 64, headers(tokens[len(tokens)/2]))
	sample("+ verify load (64 conns, 5s)")
	fmt.Println("(the issue sets no goal for this figure; TestBenchMemory's is 10,000 services and 5,000 sessions under 64 MB)")
}

// seedPeople writes the directory and the sessions straight into the
// database, as a panel that has run for a while holds them: people in
// groups, a people protection on serviceID admitting every group, and
// sessions portal sign-ins, each with the service session opened from it.
// It returns the service sessions' cookie values.
func seedPeople(t *testing.T, database, serviceID string, people, groups, sessions int) []string {
	t.Helper()
	ctx := context.Background()
	db, err := store.Open(ctx, database)
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		if sqlDB, err := db.DB(); err == nil {
			_ = sqlDB.Close()
		}
	}()
	now := store.Now()
	groupIDs := make([]string, groups)
	personIDs := make([]string, people)
	tokens := make([]string, sessions)
	err = db.Transaction(func(tx *gorm.DB) error {
		for i := range groups {
			groupIDs[i] = store.NewID()
			if err := tx.Create(&store.Group{ID: groupIDs[i], Name: fmt.Sprintf("group-%02d", i), CreatedAt: now, UpdatedAt: now}).Error; err != nil {
				return err
			}
		}
		rows := make([]store.Person, people)
		members := make([]store.GroupMember, people)
		for i := range people {
			personIDs[i] = store.NewID()
			rows[i] = store.Person{ID: personIDs[i], Username: fmt.Sprintf("person-%05d", i), Email: fmt.Sprintf("p%05d@example.com", i),
				DisplayName: fmt.Sprintf("Person %05d", i), PanelRole: store.PanelRoleNone, CreatedAt: now, UpdatedAt: now}
			members[i] = store.GroupMember{GroupID: groupIDs[i%groups], PersonID: personIDs[i], CreatedAt: now}
		}
		if err := tx.CreateInBatches(rows, 500).Error; err != nil {
			return err
		}
		if err := tx.CreateInBatches(members, 500).Error; err != nil {
			return err
		}
		if err := tx.Create(&store.SecurityConfig{ID: store.NewID(), ServiceID: serviceID, Type: store.SecurityPeople, Enabled: true,
			Settings:  store.NewJSON(map[string]any{"people": []string{}, "groups": groupIDs, "secondFactor": false, "maxAgeSeconds": 0}),
			CreatedAt: now, UpdatedAt: now}).Error; err != nil {
			return err
		}
		portal := make([]store.AdminSession, 0, 1000)
		svc := make([]store.Session, 0, 1000)
		flush := func() error {
			if err := tx.Create(&portal).Error; err != nil {
				return err
			}
			if err := tx.Create(&svc).Error; err != nil {
				return err
			}
			portal, svc = portal[:0], svc[:0]
			return nil
		}
		for i := range sessions {
			ps, tok := store.NewID(), fmt.Sprintf("bench-people-session-%06d-%s", i, store.NewID())
			tokens[i] = tok
			person := personIDs[i%people]
			at := now
			portal = append(portal, store.AdminSession{ID: ps, TokenHash: bearer.Hash("portal-" + tok), UserID: person,
				UserAgent: "Mozilla/5.0 (bench)", Address: "203.0.113.7", CreatedAt: now, LastSeenAt: now,
				ExpiresAt: now.Add(12 * time.Hour), ProvedAt: &at, Portal: true})
			svc = append(svc, store.Session{ID: store.NewID(), TokenHash: bearer.Hash(tok), ServiceID: serviceID, Kind: store.SessionPeople,
				Subject: fmt.Sprintf("person-%05d", i%people), Groups: store.NewJSON([]string{}), PersonID: person, PortalSessionID: ps,
				SignedInAt: &at, CreatedAt: now, LastSeenAt: now, ExpiresAt: now.Add(12 * time.Hour)})
			if len(svc) == cap(svc) {
				if err := flush(); err != nil {
					return err
				}
			}
		}
		if len(svc) > 0 {
			return flush()
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return tokens
}
