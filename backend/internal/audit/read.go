package audit

import (
	"bytes"
	"context"
	"net/http"
	"net/url"
	"sort"
	"strings"

	"github.com/labstack/echo/v4"
)

// read serves an internal GET of path through the same Echo instance, as
// the same client (replacing the session cookie when one is given), and
// returns the decoded JSON of a 200 answer. A 404 is a resource that does
// not exist (nil, true); any other answer could not be read (nil, false).
func (s *Service) read(c echo.Context, path string, session *http.Cookie) (any, bool) {
	orig := c.Request()
	req := orig.Clone(context.WithValue(orig.Context(), internalKey{}, true))
	req.Method = http.MethodGet
	req.Body, req.GetBody, req.ContentLength = http.NoBody, nil, 0
	req.URL = &url.URL{Path: path}
	req.RequestURI = path
	req.Header.Del(echo.HeaderContentType)
	req.Header.Del(echo.HeaderContentLength)
	if session != nil {
		req.Header.Del("Cookie")
		req.AddCookie(session)
	}
	w := &memWriter{header: http.Header{}}
	c.Echo().ServeHTTP(w, req)
	switch w.status {
	case http.StatusOK:
		v := decodeJSON(w.body.Bytes())
		return v, v != nil
	case http.StatusNotFound:
		return nil, true
	}
	return nil, false
}

// fill puts the request's parameter values into a route pattern; id, if
// given, replaces the pattern's last parameter (a new item's id).
func fill(pattern string, c echo.Context, id string) string {
	segs := strings.Split(pattern, "/")
	last := -1
	for i, sg := range segs {
		if strings.HasPrefix(sg, ":") {
			last = i
		}
	}
	for i, sg := range segs {
		if !strings.HasPrefix(sg, ":") {
			continue
		}
		v := c.Param(sg[1:])
		if i == last && id != "" {
			v = id
		}
		segs[i] = url.PathEscape(v)
	}
	return strings.Join(segs, "/")
}

// idOf finds a new resource's id in a create answer: a top-level "id", or
// the "id" of a top-level object ({"token":{"id":...},"value":...}).
func idOf(v any) string {
	m, ok := v.(map[string]any)
	if !ok {
		return ""
	}
	if id, ok := m["id"].(string); ok {
		return id
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if o, ok := m[k].(map[string]any); ok {
			if id, ok := o["id"].(string); ok {
				return id
			}
		}
	}
	return ""
}

// nameOf is a representation's human name, if it has one.
func nameOf(v any) string {
	m, ok := v.(map[string]any)
	if !ok {
		return ""
	}
	for _, k := range []string{"name", "username", "hostname", "domain", "host"} {
		if s, ok := m[k].(string); ok && s != "" && !isSecretKey(k) {
			return clip(s)
		}
	}
	return ""
}

// captureResponse tees the response body (bounded) so a create's answer
// can name the new resource.
func captureResponse(c echo.Context) *bytes.Buffer {
	buf := &bytes.Buffer{}
	if c.Request().Method != http.MethodPost {
		return buf
	}
	res := c.Response()
	res.Writer = &teeWriter{ResponseWriter: res.Writer, buf: buf}
	return buf
}

type teeWriter struct {
	http.ResponseWriter
	buf *bytes.Buffer
}

func (t *teeWriter) Write(b []byte) (int, error) {
	if room := maxCapture - t.buf.Len(); room > 0 {
		t.buf.Write(b[:min(room, len(b))])
	}
	return t.ResponseWriter.Write(b)
}

func (t *teeWriter) Unwrap() http.ResponseWriter { return t.ResponseWriter }

// memWriter is the response of an internal read.
type memWriter struct {
	header http.Header
	status int
	body   bytes.Buffer
}

func (w *memWriter) Header() http.Header { return w.header }
func (w *memWriter) WriteHeader(code int) {
	if w.status == 0 {
		w.status = code
	}
}

func (w *memWriter) Write(b []byte) (int, error) {
	if w.status == 0 {
		w.status = http.StatusOK
	}
	if room := maxCapture*4 - w.body.Len(); room > 0 {
		w.body.Write(b[:min(room, len(b))])
	}
	return len(b), nil
}
