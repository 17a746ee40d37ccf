//go:build bench

package bench

import (
	"context"
	"fmt"
	"net/http"
	"path/filepath"
	"testing"
	"time"

	"gorm.io/gorm"

	"github.com/gatehouse-proxy/gatehouse/e2e/harness"
	"github.com/gatehouse-proxy/gatehouse/internal/store"
)

// TestBenchAuditedWrite measures, on the real app over HTTP, one audited
// write under a list (each recorded in the audit log with its diff) on a
// panel whose lists hold 10 items and on one whose lists hold 10,000, the
// writes interleaved between the two panels in the same run: creating and
// revoking a shared link among the service's links, creating an API token
// among the panel's tokens, and updating one credential set among the
// panel's sets. The audit entry is the one resource the write changed, so
// the ratio stays near 1. The last row is the GET of the service's links,
// what the audit middleware read twice around each link write before.
func TestBenchAuditedWrite(t *testing.T) {
	const writes = 60
	sizes := []int{10, 10000}
	panels := make([]*auditPanel, len(sizes))
	for i, n := range sizes {
		panels[i] = startAuditPanel(t, n)
	}
	fmt.Printf("\nOne audited write with 10 and with 10,000 siblings (app.Run over HTTP, %d writes each,\n", writes)
	fmt.Printf("interleaved between the two panels; wall time and the process's CPU time per write)\n")
	fmt.Printf("%-38s  %12s  %12s  %7s  %12s  %12s  %7s\n", "write", "10 median", "10,000 median", "ratio",
		"10 CPU", "10,000 CPU", "ratio")
	for _, w := range auditWrites() {
		wall := make([][]time.Duration, len(panels))
		cpu := make([][]time.Duration, len(panels))
		for i := range writes {
			for k, p := range panels {
				start, startCPU := time.Now(), cpuTime()
				w.do(t, p, i)
				wall[k] = append(wall[k], time.Since(start))
				cpu[k] = append(cpu[k], cpuTime()-startCPU)
			}
		}
		s, l := quantile(wall[0], 0.5), quantile(wall[1], 0.5)
		sc, lc := quantile(cpu[0], 0.5), quantile(cpu[1], 0.5)
		fmt.Printf("%-38s  %12s  %12s  %7.2f  %12s  %12s  %7.2f\n", w.name, ms3(s), ms3(l), float64(l)/float64(s),
			ms3(sc), ms3(lc), float64(lc)/float64(sc))
	}
	for _, p := range panels {
		var page struct {
			Items []struct {
				Changes []struct{ Path string } `json:"changes"`
			} `json:"items"`
			RecordFailures int64 `json:"recordFailures"`
		}
		p.MustJSON(t, http.StatusOK, http.MethodGet, "/api/audit?limit=1&action=delete&resourceType=services.shared-links", nil, &page)
		if page.RecordFailures != 0 || len(page.Items) != 1 || len(page.Items[0].Changes) == 0 {
			t.Fatalf("the writes were not recorded with their changes: %+v", page)
		}
	}
	fmt.Println("goal: the ratio near 1 (a write costs the same whatever the size of its list)")
}

type auditWrite struct {
	name string
	do   func(t *testing.T, p *auditPanel, i int)
}

func auditWrites() []auditWrite {
	return []auditWrite{
		{"POST shared link (create)", func(t *testing.T, p *auditPanel, i int) {
			var l struct{ ID string }
			p.MustJSON(t, http.StatusCreated, http.MethodPost, "/api/services/"+p.service+"/shared-links",
				map[string]any{"note": fmt.Sprint("bench ", i)}, &l)
			p.links = append(p.links, l.ID)
		}},
		{"DELETE shared link (revoke)", func(t *testing.T, p *auditPanel, i int) {
			p.MustJSON(t, http.StatusNoContent, http.MethodDelete, "/api/services/"+p.service+"/shared-links/"+p.links[i], nil, nil)
		}},
		{"POST API token (create)", func(t *testing.T, p *auditPanel, i int) {
			p.MustJSON(t, http.StatusCreated, http.MethodPost, "/api/admin/tokens",
				map[string]any{"name": fmt.Sprint("bench token ", i), "role": "viewer"}, nil)
		}},
		{"PUT credential set (update one)", func(t *testing.T, p *auditPanel, i int) {
			p.MustJSON(t, http.StatusOK, http.MethodPut, "/api/credential-sets/"+p.set,
				map[string]any{"name": fmt.Sprint("edited ", i), "users": []map[string]string{{"username": "user"}}}, nil)
		}},
		{"reference: GET the service's links", func(t *testing.T, p *auditPanel, _ int) {
			p.MustJSON(t, http.StatusOK, http.MethodGet, "/api/services/"+p.service+"/shared-links", nil, nil)
		}},
	}
}

// auditPanel is a running panel whose service has n shared links and which
// has n API tokens and n credential sets.
type auditPanel struct {
	*harness.Panel
	service string   // the service whose links are listed
	links   []string // the links the creates made, revoked one per write
	set     string   // the credential set updated
}

func startAuditPanel(t *testing.T, n int) *auditPanel {
	t.Helper()
	p := &auditPanel{Panel: harness.StartPanel(t, map[string]string{"PANEL_LOG_LEVEL": "warn"})}
	var dom, svc struct{ ID string }
	p.MustJSON(t, http.StatusCreated, http.MethodPost, "/api/domains",
		map[string]any{"domain": "bench.test", "certResolver": "le"}, &dom)
	p.MustJSON(t, http.StatusCreated, http.MethodPost, "/api/services", map[string]any{
		"name": "app", "domainId": dom.ID, "hostnames": []map[string]string{{"type": "subdomain", "value": "app"}},
		"targets": []map[string]any{{"scheme": "http", "host": "10.0.0.5", "port": 8080}},
	}, &svc)
	p.MustJSON(t, http.StatusCreated, http.MethodPost, "/api/services/"+svc.ID+"/security-configs",
		map[string]any{"type": "shared_links"}, nil)
	p.service = svc.ID
	var set struct{ ID string }
	p.MustJSON(t, http.StatusCreated, http.MethodPost, "/api/credential-sets",
		map[string]any{"name": "edited", "users": []map[string]string{{"username": "user", "password": "bench-password"}}}, &set)
	p.set = set.ID
	seedSiblings(t, filepath.Join(p.DataDir, "gatehouse.db"), svc.ID, n)
	return p
}

// seedSiblings writes n shared links of the service, n API tokens and n-1
// more credential sets straight into the panel's database.
func seedSiblings(t *testing.T, database, serviceID string, n int) {
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
	var admin store.Person
	if err := db.Where("username = ?", harness.AdminUser).Take(&admin).Error; err != nil {
		t.Fatal(err)
	}
	// A bcrypt hash of no password anyone types: the sets are never used.
	const hash = "$2a$10$CwTycUXWue0Thq9StjUM0uJ8.Jx0bSx5aVz6G8Yf5u3S1XJ0yZ6iK" //nolint:gosec // not a credential
	err = db.Transaction(func(tx *gorm.DB) error {
		for i := range n {
			at := now.Add(-time.Duration(n-i) * time.Millisecond)
			l := store.SharedLink{ID: store.NewID(), ServiceID: serviceID, TokenHash: fmt.Sprintf("bench-link-%d", i),
				Note: fmt.Sprint("link ", i), Path: "/", SessionSeconds: 3600, ExpiresAt: now.Add(24 * time.Hour), CreatedAt: at}
			if err := tx.Create(&l).Error; err != nil {
				return err
			}
			tok := store.AdminToken{ID: store.NewID(), Name: fmt.Sprint("token ", i), TokenHash: fmt.Sprintf("bench-token-%d", i),
				Prefix: "gha_bench", Role: "viewer", CreatedBy: admin.ID, CreatedAt: at}
			if err := tx.Create(&tok).Error; err != nil {
				return err
			}
			if i == 0 {
				continue // the set the writes update
			}
			set := store.CredentialSet{ID: store.NewID(), Name: fmt.Sprint("set ", i), CreatedAt: at, UpdatedAt: at,
				Users: []store.CredentialUser{{ID: store.NewID(), Username: "user", PasswordHash: hash, CreatedAt: at}}}
			if err := tx.Create(&set).Error; err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatalf("seed %d siblings: %v", n, err)
	}
}
