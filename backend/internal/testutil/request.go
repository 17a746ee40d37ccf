package testutil

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
)

// Request sends one request through h and returns the recorded answer. A
// non-empty body is sent as JSON. headers are name/value pairs; two names
// are not headers: "Host" sets the request's host and "RemoteAddr" its
// direct peer (for example Traefik on a private network). The answer is
// recorded when RecordEnv is set (see Serve).
func Request(h http.Handler, method, path, body string, headers ...string) *httptest.ResponseRecorder {
	var r io.Reader
	if body != "" {
		r = strings.NewReader(body)
	}
	req := httptest.NewRequest(method, path, r)
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	for i := 0; i+1 < len(headers); i += 2 {
		switch headers[i] {
		case "Host":
			req.Host = headers[i+1]
		case "RemoteAddr":
			req.RemoteAddr = headers[i+1]
		default:
			req.Header.Set(headers[i], headers[i+1])
		}
	}
	return Serve(h, req)
}
