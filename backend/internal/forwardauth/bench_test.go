package forwardauth

import (
	"net/http"
	"net/http/httptest"
	"testing"
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
