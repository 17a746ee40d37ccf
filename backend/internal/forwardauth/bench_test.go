package forwardauth

import (
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/labstack/echo/v4"
)

// BenchmarkVerifySession is the hot path: a cached session cookie through
// the real Echo stack. Run with -benchmem to see allocations.
func BenchmarkVerifySession(b *testing.B) {
	v := newEnv(b)
	id := linkService(b, v, "app.example.com")
	_, uri := newLink(b, v, id, nil)
	ck := sessionCookie(b, v.verify(press(id, "app.example.com", uri)))
	if ck == nil {
		b.Fatal("the shared link gave no session")
	}
	req := httptest.NewRequest(http.MethodGet, "/api/auth/verify?service="+id, nil)
	for k, val := range map[string]string{"X-Forwarded-Method": "GET", "X-Forwarded-Proto": "https",
		"X-Forwarded-Host": "app.example.com", "X-Forwarded-Uri": "/x?y=1", "X-Forwarded-For": "203.0.113.1",
		"Accept": "text/html", "Cookie": "a=b; " + SessionCookie + "=" + ck.Value} {
		req.Header.Set(k, val)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		rec := httptest.NewRecorder()
		v.h.ServeHTTP(rec, req)
		if rec.Code != 200 {
			b.Fatal(rec.Code)
		}
	}
}

// BenchmarkVerifyPeopleSession is the hot path of the people protection: a
// cached people session whose person, groups and headers come from the
// directory snapshot. Compare with BenchmarkVerifyBareEcho of the same run.
func BenchmarkVerifyPeopleSession(b *testing.B) {
	v := newPeopleEnv(b)
	id := v.service("mail.example.com")
	v.protectPeople(id, map[string]any{"groups": []string{v.family}})
	v.portal.set("p", PortalSignIn{PersonID: v.ann, SessionID: "ps", At: v.clock.Now()})
	tok := v.signIn(id, "mail.example.com", "p")
	req := httptest.NewRequest(http.MethodGet, "/api/auth/verify?service="+id, nil)
	for k, val := range map[string]string{"X-Forwarded-Method": "GET", "X-Forwarded-Proto": "https",
		"X-Forwarded-Host": "mail.example.com", "X-Forwarded-Uri": "/x?y=1", "X-Forwarded-For": "203.0.113.1",
		"Accept": "text/html", "Cookie": "a=b; " + SessionCookie + "=" + tok} {
		req.Header.Set(k, val)
	}
	before := v.queries.Load()
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		rec := httptest.NewRecorder()
		v.h.ServeHTTP(rec, req)
		if rec.Code != 200 {
			b.Fatal(rec.Code)
		}
	}
	b.StopTimer()
	b.ReportMetric(float64(v.queries.Load()-before)/float64(b.N), "queries/op")
}

// BenchmarkVerifyBareEcho is the baseline: a bare Echo handler answering
// 200 with the four identity headers.
func BenchmarkVerifyBareEcho(b *testing.B) {
	e := echo.New()
	e.GET("/api/auth/verify", func(c echo.Context) error {
		h := c.Response().Header()
		h.Set("Remote-User", "ann")
		h.Set("Remote-Email", "ann@example.com")
		h.Set("Remote-Name", "Ann")
		h.Set("Remote-Groups", "family")
		return c.NoContent(http.StatusOK)
	})
	req := httptest.NewRequest(http.MethodGet, "/api/auth/verify?service=x", nil)
	req.Header.Set("Cookie", "a=b; "+SessionCookie+"=x")
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		rec := httptest.NewRecorder()
		e.ServeHTTP(rec, req)
		if rec.Code != 200 {
			b.Fatal(rec.Code)
		}
	}
}
