package httpx

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// TestFetchFailureNeverEchoes: whatever the error carries (a body, a
// dialled address, a resolver's address), only fixed words come out.
func TestFetchFailureNeverEchoes(t *testing.T) {
	dead := httptest.NewServer(http.NotFoundHandler())
	dead.Close()
	_, refused := http.Get(dead.URL) //nolint:noctx,bodyclose // a test of the error only: the server is closed, there is no body
	_, dnsErr := net.DefaultResolver.LookupHost(context.Background(), "nothing.invalid")
	ctx, cancel := context.WithTimeout(context.Background(), time.Nanosecond)
	defer cancel()
	<-ctx.Done()
	tests := []struct {
		name string
		err  error
		want string
	}{
		{"status", StatusError{Code: 403}, "answered with status 403"},
		{"wrapped status", fmt.Errorf("discover: %w", StatusError{Code: 500}), "answered with status 500"},
		{"refused", refused, "the connection was refused"},
		{"refused, flattened", errors.New("send: " + refused.Error()), "the connection was refused"},
		{"resolver", dnsErr, "the host name could not be resolved"},
		{"deadline", ctx.Err(), "no answer in time"},
		{"status in a library's text", errors.New("404 Not Found: internal-secret-body"), "answered with status 404"},
		{"status code in text", errors.New("server returned unexpected response status code: 502 Bad Gateway"), "answered with status 502"},
		{"anything else", errors.New("internal-secret-body"), "the request failed"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := FetchFailure(tt.err)
			if got != tt.want || strings.Contains(got, "secret") || strings.Contains(got, "127.0.0.1") {
				t.Fatalf("FetchFailure(%v) = %q, want %q", tt.err, got, tt.want)
			}
		})
	}
}
