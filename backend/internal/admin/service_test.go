package admin_test

import (
	"context"
	"testing"

	"golang.org/x/crypto/bcrypt"

	"github.com/gatehouse-proxy/gatehouse/internal/admin"
	"github.com/gatehouse-proxy/gatehouse/internal/store"
	"github.com/gatehouse-proxy/gatehouse/internal/testutil"
)

// The proxy hash is what Traefik checks on every request through the panel's
// own router: it must verify the same password at the cheaper cost, and be
// filled in at the next sign-in for administrators created before it existed.
func TestProxyHash(t *testing.T) {
	db := testutil.NewDB(t)
	ctx := context.Background()
	svc := admin.NewService(db, store.Now, admin.ProxyHashCost+1)
	u, err := svc.Create(ctx, "admin", "correct-horse-battery")
	if err != nil {
		t.Fatal(err)
	}
	check := func() {
		t.Helper()
		var row store.AdminUser
		if err := db.Where("id = ?", u.ID).Take(&row).Error; err != nil {
			t.Fatal(err)
		}
		if cost, err := bcrypt.Cost([]byte(row.ProxyHash)); err != nil || cost != admin.ProxyHashCost {
			t.Fatalf("proxy hash cost = %d, %v; want %d", cost, err, admin.ProxyHashCost)
		}
		if bcrypt.CompareHashAndPassword([]byte(row.ProxyHash), []byte("correct-horse-battery")) != nil {
			t.Fatal("the proxy hash does not verify the password")
		}
	}
	check()

	if err := db.Model(&store.AdminUser{}).Where("id = ?", u.ID).Update("proxy_hash", "").Error; err != nil {
		t.Fatal(err)
	}
	if _, _, err := svc.Login(ctx, "admin", "correct-horse-battery", admin.Client{Address: "10.0.0.1"}); err != nil {
		t.Fatal(err)
	}
	check()
}
