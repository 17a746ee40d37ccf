package runtime

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// Defaults for talking to Traefik: short, so a slow or dead Traefik never
// holds a UI request for long, and a cache a few seconds long, so the UI's
// polling does not turn into a request per poll per browser tab.
const (
	DefaultTimeout  = 2500 * time.Millisecond
	DefaultCacheTTL = 3 * time.Second
	maxBody         = 16 << 20
	perPage         = 1000
)

// errNotFound is Traefik answering 404: an endpoint this version lacks.
var errNotFound = errors.New("not found")

// Client reads Traefik's API. It is safe for concurrent use: answers are
// cached for a few seconds and concurrent callers share one in-flight fetch.
type Client struct {
	base    *url.URL
	hc      *http.Client
	timeout time.Duration
	ttl     time.Duration
	now     func() time.Time

	mu    sync.Mutex
	cache map[string]*cached
	// lastTLS is the last good entrypoint TLS map, kept through outages so
	// the dynamic configuration does not flip while Traefik restarts.
	lastTLS map[string]bool
	tlsAt   time.Time // when lastTLS was last refreshed (or tried)
	tlsBusy bool      // a background refresh is running
}

type cached struct {
	done chan struct{} // closed when val/err are set
	at   time.Time
	val  any
	err  error
}

// ClientOptions tune a Client; zero values take the defaults.
type ClientOptions struct {
	Timeout  time.Duration
	CacheTTL time.Duration
	Now      func() time.Time
}

// NewClient returns a client for Traefik's API at apiURL (e.g.
// http://traefik:8080), or nil when apiURL is empty (not configured).
func NewClient(apiURL string, o ClientOptions) (*Client, error) {
	if apiURL == "" {
		return nil, nil
	}
	u, err := url.Parse(apiURL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("traefik API URL %q must be an absolute http:// or https:// URL", apiURL)
	}
	if o.Timeout <= 0 {
		o.Timeout = DefaultTimeout
	}
	if o.CacheTTL <= 0 {
		o.CacheTTL = DefaultCacheTTL
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	return &Client{
		base: u, hc: newHTTPClient(o.Timeout), timeout: o.Timeout, ttl: o.CacheTTL, now: o.Now,
		cache: map[string]*cached{},
	}, nil
}

// newHTTPClient never follows redirects: Traefik's API does not redirect, and
// a redirect would mean we are not talking to it.
func newHTTPClient(timeout time.Duration) *http.Client {
	return &http.Client{
		Timeout: timeout,
		Transport: &http.Transport{
			Proxy:                 nil,
			DialContext:           (&net.Dialer{Timeout: timeout}).DialContext,
			TLSHandshakeTimeout:   timeout,
			ResponseHeaderTimeout: timeout,
			MaxIdleConnsPerHost:   4,
			IdleConnTimeout:       90 * time.Second,
		},
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
}

// once returns the cached value under key, or runs fetch (shared by every
// concurrent caller) and caches its result, errors included, for the TTL.
// The fetch runs on its own timeout, not the first caller's context, so one
// caller giving up does not fail the others.
func (c *Client) once(ctx context.Context, key string, fetch func(ctx context.Context) (any, error)) (any, error) {
	c.mu.Lock()
	e, ok := c.cache[key]
	if ok {
		select {
		case <-e.done:
			if c.now().Sub(e.at) < c.ttl {
				c.mu.Unlock()
				return e.val, e.err
			}
			ok = false
		default: // in flight: wait below
		}
	}
	if !ok {
		e = &cached{done: make(chan struct{})}
		c.cache[key] = e
		go func() { //nolint:gosec // one fetch shared by every waiter: no single request may cancel it
			fctx, cancel := context.WithTimeout(context.Background(), c.timeout)
			defer cancel()
			val, err := fetch(fctx)
			c.mu.Lock()
			e.val, e.err, e.at = val, err, c.now()
			c.mu.Unlock()
			close(e.done)
		}()
	}
	c.mu.Unlock()
	select {
	case <-e.done:
		c.mu.Lock()
		defer c.mu.Unlock()
		return e.val, e.err
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// getJSON fetches path from the API into out and returns the response headers.
func (c *Client) getJSON(ctx context.Context, path string, q url.Values, out any) (http.Header, error) {
	u := *c.base
	u.Path = joinPath(u.Path, path)
	u.RawQuery = q.Encode()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Accept", "application/json")
	resp, err := c.hc.Do(req)
	if err != nil {
		return nil, c.describe(err)
	}
	defer func() { _ = resp.Body.Close() }() // read-only: nothing to report
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxBody))
	if err != nil {
		return nil, c.describe(err)
	}
	switch {
	case resp.StatusCode == http.StatusNotFound:
		return nil, errNotFound
	case resp.StatusCode == http.StatusUnauthorized || resp.StatusCode == http.StatusForbidden:
		return nil, fmt.Errorf("traefik API at %s refused access (HTTP %d); check the credentials in PANEL_PROXY_API_URL", c.where(), resp.StatusCode)
	case resp.StatusCode != http.StatusOK:
		return nil, fmt.Errorf("traefik API at %s answered HTTP %d for %s", c.where(), resp.StatusCode, path)
	}
	if err := json.Unmarshal(body, out); err != nil {
		return nil, fmt.Errorf("traefik API at %s sent an unreadable answer for %s (is this Traefik's API?)", c.where(), path)
	}
	return resp.Header, nil
}

// getPages fetches every page of a paginated list endpoint.
func getPages[T any](ctx context.Context, c *Client, path string) ([]T, error) {
	var all []T
	for page := 1; page <= 100; page++ {
		var items []T
		h, err := c.getJSON(ctx, path, url.Values{"per_page": {strconv.Itoa(perPage)}, "page": {strconv.Itoa(page)}}, &items)
		if err != nil {
			return nil, err
		}
		all = append(all, items...)
		// Traefik sets X-Next-Page to 1 on the last page.
		next, _ := strconv.Atoi(h.Get("X-Next-Page"))
		if next <= page {
			break
		}
	}
	return all, nil
}

func joinPath(base, p string) string {
	if base == "" || base == "/" {
		return p
	}
	if base[len(base)-1] == '/' {
		base = base[:len(base)-1]
	}
	return base + p
}

// where is the API address without credentials, for messages.
func (c *Client) where() string { return redact(c.base) }

func redact(u *url.URL) string {
	v := *u
	v.User = nil
	v.RawQuery = ""
	return v.String()
}

// describe turns a transport error into a short message for the UI; it never
// includes the URL's credentials.
func (c *Client) describe(err error) error {
	return fmt.Errorf("cannot reach Traefik API at %s: %s", c.where(), reason(err, c.timeout))
}

func reason(err error, timeout time.Duration) string {
	var ne net.Error
	switch {
	case errors.Is(err, syscall.ECONNREFUSED):
		return "connection refused"
	case errors.Is(err, context.DeadlineExceeded) || (errors.As(err, &ne) && ne.Timeout()):
		return fmt.Sprintf("no answer within %s", timeout)
	case errors.Is(err, context.Canceled):
		return "request cancelled"
	}
	var dnsErr *net.DNSError
	if errors.As(err, &dnsErr) {
		return "unknown host " + dnsErr.Name
	}
	var opErr *net.OpError
	if errors.As(err, &opErr) && opErr.Err != nil {
		return opErr.Err.Error()
	}
	return "connection failed"
}

// rawData returns the runtime configuration (cached).
func (c *Client) rawData(ctx context.Context) (*rawData, error) {
	v, err := c.once(ctx, "rawdata", func(ctx context.Context) (any, error) {
		var d rawData
		if _, err := c.getJSON(ctx, "/api/rawdata", nil, &d); err != nil {
			if errors.Is(err, errNotFound) {
				return nil, fmt.Errorf("traefik API at %s has no /api/rawdata: is PANEL_PROXY_API_URL Traefik's API (api.insecure or an api@internal router)?", c.where())
			}
			return nil, err
		}
		return &d, nil
	})
	if err != nil {
		return nil, err
	}
	return v.(*rawData), nil
}

// entrypoints returns the static entrypoints (cached).
func (c *Client) entrypoints(ctx context.Context) ([]rawEntrypoint, error) {
	v, err := c.once(ctx, "entrypoints", func(ctx context.Context) (any, error) {
		eps, err := getPages[rawEntrypoint](ctx, c, "/api/entrypoints")
		if errors.Is(err, errNotFound) {
			return nil, fmt.Errorf("traefik API at %s has no /api/entrypoints", c.where())
		}
		return eps, err
	})
	if err != nil {
		return nil, err
	}
	return v.([]rawEntrypoint), nil
}

// version returns Traefik's version string (cached).
func (c *Client) version(ctx context.Context) (string, error) {
	v, err := c.once(ctx, "version", func(ctx context.Context) (any, error) {
		var rv rawVersion
		if _, err := c.getJSON(ctx, "/api/version", nil, &rv); err != nil {
			if errors.Is(err, errNotFound) {
				return nil, fmt.Errorf("traefik API at %s has no /api/version", c.where())
			}
			return nil, err
		}
		return rv.Version, nil
	})
	if err != nil {
		return "", err
	}
	return v.(string), nil
}

// certificates returns the loaded certificates; errNotFound when this
// Traefik has no certificates API (before 3.7).
func (c *Client) certificates(ctx context.Context) ([]rawCertificate, error) {
	v, err := c.once(ctx, "certificates", func(ctx context.Context) (any, error) {
		return getPages[rawCertificate](ctx, c, "/api/certificates")
	})
	if err != nil {
		return nil, err
	}
	return v.([]rawCertificate), nil
}

// TLSEntrypoints reports, for each entrypoint, whether it serves TLS: it has
// http.tls in Traefik's static configuration, or (like the dynamic
// configuration's own heuristic) it listens on 443 or 8443. It is asked on
// every poll of the dynamic configuration, so it never waits for Traefik: it
// answers with the last good map (kept through outages, so routers do not
// flip while Traefik restarts) and refreshes it in the background once it is
// older than the cache TTL. ok is false while there has never been an answer
// (or Traefik's API is not configured). The map is shared: do not modify it.
func (c *Client) TLSEntrypoints(context.Context) (map[string]bool, bool) {
	if c == nil {
		return nil, false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.tlsBusy && c.now().Sub(c.tlsAt) >= c.ttl {
		c.tlsBusy = true
		go func() { //nolint:gosec // a background refresh outliving the request that noticed it was due
			ctx, cancel := context.WithTimeout(context.Background(), c.timeout)
			defer cancel()
			c.refreshTLS(ctx)
		}()
	}
	return c.lastTLS, c.lastTLS != nil
}

// refreshTLS asks Traefik for its entrypoints and replaces the TLS map on success.
func (c *Client) refreshTLS(ctx context.Context) {
	eps, err := c.entrypoints(ctx)
	c.mu.Lock()
	defer c.mu.Unlock()
	c.tlsBusy, c.tlsAt = false, c.now()
	if err != nil {
		return
	}
	out := make(map[string]bool, len(eps))
	for _, ep := range eps {
		out[ep.Name] = (ep.HTTP != nil && ep.HTTP.TLS != nil) || tlsPort(ep.Address)
	}
	c.lastTLS = out
}

// tlsPort reports whether an entrypoint address (":443", "0.0.0.0:8443/tcp")
// uses a conventional TLS port.
func tlsPort(addr string) bool {
	addr, _, _ = strings.Cut(addr, "/")
	_, port, err := net.SplitHostPort(addr)
	return err == nil && (port == "443" || port == "8443")
}
