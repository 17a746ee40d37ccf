package admin_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"golang.org/x/crypto/bcrypt"
	"gorm.io/gorm"

	"github.com/gatehouse-proxy/gatehouse/internal/admin"
	"github.com/gatehouse-proxy/gatehouse/internal/apperr"
	"github.com/gatehouse-proxy/gatehouse/internal/store"
	"github.com/gatehouse-proxy/gatehouse/internal/testutil"
)

const password = "correct-horse-battery"

func newService(t *testing.T) (*admin.Service, *testutil.Clock, *gorm.DB) {
	t.Helper()
	db := testutil.NewDB(t)
	clock := testutil.NewClock(time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC))
	svc := admin.NewService(admin.Deps{DB: db, Now: clock.Now, BcryptCost: bcrypt.MinCost})
	if _, err := svc.Create(context.Background(), "admin", password); err != nil {
		t.Fatal(err)
	}
	return svc, clock, db
}

func at(addr string) admin.Client { return admin.Client{Address: addr, UserAgent: "test/1.0"} }

// Failed sign-ins are counted per username and address, and per address: a
// stranger guessing from one address never locks the owner out elsewhere.
func TestLoginLimits(t *testing.T) {
	type failures struct {
		username, addr string
		n              int
	}
	tests := []struct {
		name     string
		failures []failures
		wait     time.Duration
		addr     string
		want     string // "" signs in; else the apperr code
	}{
		{"four failures", []failures{{"admin", "203.0.113.1", 4}}, 0, "203.0.113.1", ""},
		{"five failures block the username from that address", []failures{{"admin", "203.0.113.1", 5}}, 0, "203.0.113.1", "rate_limited"},
		{"the owner signs in from another address", []failures{{"admin", "203.0.113.1", 50}}, 0, "198.51.100.7", ""},
		{"other usernames' failures from the address stay below its limit", []failures{{"root", "203.0.113.1", 5}, {"ops", "203.0.113.1", 5}}, 0, "203.0.113.1", ""},
		{"twenty failures block the address for every username", []failures{
			{"root", "203.0.113.1", 5}, {"ops", "203.0.113.1", 5}, {"www", "203.0.113.1", 5}, {"git", "203.0.113.1", 5},
		}, 0, "203.0.113.1", "rate_limited"},
		{"the block ends with the window", []failures{{"admin", "203.0.113.1", 5}}, admin.FailureWindow, "203.0.113.1", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			svc, clock, _ := newService(t)
			ctx := context.Background()
			for _, f := range tt.failures {
				for range f.n {
					_, _, err := svc.Login(ctx, f.username, "wrong-password!", at(f.addr))
					if !apperr.IsCode(err, apperr.CodeUnauthenticated) && !apperr.IsCode(err, apperr.CodeRateLimited) {
						t.Fatalf("failed sign-in = %v", err)
					}
				}
			}
			clock.Add(tt.wait)
			_, tok, err := svc.Login(ctx, "admin", password, at(tt.addr))
			switch {
			case tt.want == "" && (err != nil || tok == ""):
				t.Fatalf("sign-in = %v; want a session", err)
			case tt.want != "" && !apperr.IsCode(err, apperr.Code(tt.want)):
				t.Fatalf("sign-in = %v; want %s", err, tt.want)
			}
		})
	}
}

func TestRateLimitedSaysWhenToRetry(t *testing.T) {
	svc, clock, _ := newService(t)
	ctx := context.Background()
	for range admin.MaxFailures {
		_, _, _ = svc.Login(ctx, "admin", "wrong-password!", at("203.0.113.1"))
	}
	for _, tt := range []struct {
		after time.Duration
		want  string
	}{
		{0, "try again in 15 minutes"},
		{3 * time.Minute, "try again in 12 minutes"},
		{15*time.Minute - 30*time.Second, "try again in 1 minute"},
	} {
		clock.Add(tt.after)
		_, _, err := svc.Login(ctx, "admin", password, at("203.0.113.1"))
		e, ok := apperr.As(err)
		if !ok || e.Code != apperr.CodeRateLimited || !strings.HasSuffix(e.Message, tt.want) || e.RetryAfter <= 0 {
			t.Fatalf("after %s: %v (retry after %v); want %q", tt.after, err, e.RetryAfter, tt.want)
		}
		clock.Add(-tt.after)
	}
}

func TestChangePassword(t *testing.T) {
	tests := []struct {
		name          string
		current, next string
		field         string // "" succeeds
		counts        bool   // counts as a failed sign-in
	}{
		{"changed", password, "a-brand-new-password", "", false},
		{"wrong current password", "not-the-password", "a-brand-new-password", "currentPassword", true},
		{"missing current password", "", "a-brand-new-password", "currentPassword", false},
		{"short new password", password, "short", "newPassword", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			svc, clock, db := newService(t)
			ctx := context.Background()
			u, mine, err := svc.Login(ctx, "admin", password, at("10.0.0.1"))
			if err != nil {
				t.Fatal(err)
			}
			clock.Add(time.Second)
			if _, _, err := svc.Login(ctx, "admin", password, at("10.0.0.2")); err != nil {
				t.Fatal(err)
			}
			keep := sessionAt(t, svc, u.ID, "10.0.0.1").ID
			err = svc.ChangePassword(ctx, u, keep, tt.current, tt.next, "10.0.0.1")
			if tt.field != "" {
				e, ok := apperr.As(err)
				if !ok || e.Code != apperr.CodeValidationFailed || len(e.Fields) != 1 || e.Fields[0].Field != tt.field {
					t.Fatalf("ChangePassword = %v; want a validation error on %s", err, tt.field)
				}
				if n := len(sessions(t, svc, u.ID)); n != 2 {
					t.Fatalf("%d sessions left after a refused change; want 2", n)
				}
				for range admin.MaxFailures - 1 {
					_, _, _ = svc.Login(ctx, "admin", "wrong-password!", at("10.0.0.1"))
				}
				_, _, err := svc.Login(ctx, "admin", password, at("10.0.0.1"))
				if got := apperr.IsCode(err, apperr.CodeRateLimited); got != tt.counts {
					t.Fatalf("counted as a failed sign-in = %v; want %v", got, tt.counts)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			left := sessions(t, svc, u.ID)
			if len(left) != 1 || left[0].ID != keep {
				t.Fatalf("sessions after the change = %+v; want only the current one", left)
			}
			if _, err := svc.Authenticate(ctx, mine); err != nil {
				t.Fatalf("the current session ended: %v", err)
			}
			var row store.Person
			if err := db.Where("id = ?", u.ID).Take(&row).Error; err != nil {
				t.Fatal(err)
			}
			if bcrypt.CompareHashAndPassword([]byte(row.PasswordHash), []byte(tt.next)) != nil {
				t.Fatal("the stored hash does not verify the new password")
			}
			if _, _, err := svc.Login(ctx, "admin", tt.next, at("10.0.0.3")); err != nil {
				t.Fatalf("sign-in with the new password: %v", err)
			}
		})
	}
}

func sessions(t *testing.T, svc *admin.Service, userID string) []admin.Session {
	t.Helper()
	items, err := svc.Sessions(context.Background(), userID, "")
	if err != nil {
		t.Fatal(err)
	}
	return items
}

func sessionAt(t *testing.T, svc *admin.Service, userID, addr string) admin.Session {
	t.Helper()
	for _, s := range sessions(t, svc, userID) {
		if s.Address == addr {
			return s
		}
	}
	t.Fatalf("no session from %s", addr)
	return admin.Session{}
}

func TestSessions(t *testing.T) {
	svc, clock, _ := newService(t)
	ctx := context.Background()
	other, err := svc.Create(ctx, "other", password)
	if err != nil {
		t.Fatal(err)
	}
	u, _, err := svc.Login(ctx, "admin", password, admin.Client{Address: "10.0.0.1", UserAgent: "Firefox"})
	if err != nil {
		t.Fatal(err)
	}
	clock.Add(time.Minute)
	if _, _, err := svc.Login(ctx, "admin", password, admin.Client{Address: "10.0.0.2", UserAgent: "Chromium"}); err != nil {
		t.Fatal(err)
	}
	if _, _, err := svc.Login(ctx, "other", password, at("10.0.0.9")); err != nil {
		t.Fatal(err)
	}
	first := sessionAt(t, svc, u.ID, "10.0.0.1")
	items, err := svc.Sessions(ctx, u.ID, first.ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(items) != 2 || items[0].UserAgent != "Chromium" || items[1].UserAgent != "Firefox" ||
		items[0].Current || !items[1].Current || !items[0].CreatedAt.After(items[1].CreatedAt) ||
		!items[1].ExpiresAt.Equal(items[1].CreatedAt.Add(admin.SessionTTL)) {
		t.Fatalf("sessions = %+v; want the Chromium one first and the Firefox one current", items)
	}

	theirs := sessionAt(t, svc, other.ID, "10.0.0.9")
	for _, tt := range []struct{ name, id string }{{"another admin's", theirs.ID}, {"unknown", "nope"}} {
		t.Run(tt.name, func(t *testing.T) {
			if err := svc.EndSession(ctx, u.ID, tt.id); !apperr.IsCode(err, apperr.CodeNotFound) {
				t.Fatalf("EndSession = %v; want not_found", err)
			}
		})
	}
	if n := len(sessions(t, svc, other.ID)); n != 1 {
		t.Fatalf("the other admin has %d sessions; want 1", n)
	}
	if err := svc.EndSession(ctx, u.ID, items[0].ID); err != nil {
		t.Fatal(err)
	}
	if _, _, err := svc.Login(ctx, "admin", password, at("10.0.0.3")); err != nil {
		t.Fatal(err)
	}
	if err := svc.EndOtherSessions(ctx, u.ID, first.ID); err != nil {
		t.Fatal(err)
	}
	if left := sessions(t, svc, u.ID); len(left) != 1 || left[0].ID != first.ID {
		t.Fatalf("after ending the others: %+v", left)
	}
	if n := len(sessions(t, svc, other.ID)); n != 1 {
		t.Fatalf("ending my other sessions ended another admin's")
	}
}

// Requests note the last-seen time at most once a minute; FlushLastSeen
// writes it, and the list shows noted times before they are written.
func TestLastSeen(t *testing.T) {
	svc, clock, db := newService(t)
	ctx := context.Background()
	u, tok, err := svc.Login(ctx, "admin", password, at("10.0.0.1"))
	if err != nil {
		t.Fatal(err)
	}
	opened := clock.Now()
	stored := func() time.Time {
		t.Helper()
		var row store.AdminSession
		if err := db.Where("user_id = ?", u.ID).Take(&row).Error; err != nil {
			t.Fatal(err)
		}
		return row.LastSeenAt
	}
	steps := []struct {
		after      time.Duration
		wantListed time.Time
	}{
		{30 * time.Second, opened},
		{2 * time.Minute, opened.Add(2*time.Minute + 30*time.Second)},
	}
	for _, st := range steps {
		clock.Add(st.after)
		if _, err := svc.Authenticate(ctx, tok); err != nil {
			t.Fatal(err)
		}
		if got := sessions(t, svc, u.ID)[0].LastSeenAt; !got.Equal(st.wantListed) {
			t.Fatalf("listed last seen = %v; want %v", got, st.wantListed)
		}
	}
	if !stored().Equal(opened) {
		t.Fatal("last seen was written on the request path")
	}
	if err := svc.FlushLastSeen(ctx); err != nil {
		t.Fatal(err)
	}
	if got, want := stored(), clock.Now(); !got.Equal(want) {
		t.Fatalf("stored last seen = %v; want %v", got, want)
	}
}

func TestResetPassword(t *testing.T) {
	tests := []struct {
		name, username, password string
		want                     apperr.Code
	}{
		{"reset", "admin", "a-brand-new-password", ""},
		{"unknown administrator", "nobody", "a-brand-new-password", apperr.CodeNotFound},
		{"short password", "admin", "short", apperr.CodeValidationFailed},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			svc, _, _ := newService(t)
			ctx := context.Background()
			u, tok, err := svc.Login(ctx, "admin", password, at("10.0.0.1"))
			if err != nil {
				t.Fatal(err)
			}
			_, err = svc.ResetPassword(ctx, tt.username, tt.password)
			if tt.want != "" {
				if !apperr.IsCode(err, tt.want) {
					t.Fatalf("ResetPassword = %v; want %s", err, tt.want)
				}
				if _, err := svc.Authenticate(ctx, tok); err != nil {
					t.Fatalf("a refused reset ended the session: %v", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if n := len(sessions(t, svc, u.ID)); n != 0 {
				t.Fatalf("%d sessions left after a reset", n)
			}
			if _, _, err := svc.Login(ctx, "admin", tt.password, at("10.0.0.1")); err != nil {
				t.Fatalf("sign-in with the reset password: %v", err)
			}
		})
	}
}
