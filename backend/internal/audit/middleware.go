package audit

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/gatehouse-proxy/gatehouse/internal/actor"
)

type internalKey struct{}

// Internal reports whether a request is one the audit middleware made to
// read a resource's state (the request log keeps those quiet).
func Internal(ctx context.Context) bool { return ctx.Value(internalKey{}) != nil }

// maxCapture bounds how much of a response or request body is kept to find
// a new resource's id or a sign-in's username.
const maxCapture = 256 << 10

// Middleware records the API's successful writes and every sign-in step.
// It sits on the /api group after the guards, so actor.From names who
// acts. Before a write it reads the resource through the same Echo
// instance, as the same client (cookies and headers), and again after: the
// diff is between what the API shows, redacted. A write under a list whose
// items have no GET of their own (Override.Reported) is not read: its
// handler reports the one item it changed (Changed). Recording never
// changes the answer: a failure to record is logged and counted.
func (s *Service) Middleware(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		r := c.Request()
		if Internal(r.Context()) {
			return next(c)
		}
		p, _ := classify(r.Method, c.Path(), s.routeSet(c.Echo()))
		switch p.kind {
		case planChange:
			return s.change(c, next, p)
		case planSignIn:
			return s.signIn(c, next)
		}
		return next(c)
	}
}

func (s *Service) routeSet(e *echo.Echo) routeSet {
	s.routesOnce.Do(func() {
		s.routes = routeSet{}
		for _, r := range e.Routes() {
			s.routes[r.Method+" "+r.Path] = true
		}
	})
	return s.routes
}

func (s *Service) change(c echo.Context, next echo.HandlerFunc, p plan) error {
	var before any
	readable := true // both sides read (or absent), so the diff is honest
	if p.read != "" && !p.noDiff {
		before, readable = s.read(c, fill(p.read, c, ""), nil)
	}
	var rep *report
	if p.reported {
		r := c.Request()
		ctx, fresh := withReport(r.Context())
		c.SetRequest(r.WithContext(ctx))
		rep = fresh
	}
	capture := captureResponse(c)
	err := next(c)
	status := c.Response().Status
	if err != nil || !c.Response().Committed || status < 200 || status > 299 {
		return err
	}
	defer func() {
		if v := recover(); v != nil {
			s.failures.Add(1)
			s.log.Error("audit entry not recorded", "route", c.Path(), "panic", v)
		}
	}()
	e := Entry{
		Action: p.action, ResourceType: p.rtype, Method: c.Request().Method, Route: c.Path(), Status: status,
	}
	if vals := c.ParamValues(); len(vals) > 0 {
		e.ResourceID = vals[len(vals)-1]
	}
	var after any
	var ok bool
	if p.action == ActionCreate {
		if id := idOf(decodeJSON(capture.Bytes())); id != "" {
			e.ResourceID = id
		}
	}
	switch {
	case p.noDiff:
	case p.reported:
		before, after, readable = rep.values()
		if !readable {
			s.log.Warn("audit entry without changes: the handler reported no resource", "route", c.Path())
		}
	case p.item != "":
		if e.ResourceID != "" {
			after, ok = s.read(c, fill(p.item, c, e.ResourceID), nil)
			readable = readable && ok
		}
	case p.read != "":
		after, ok = s.read(c, fill(p.read, c, ""), nil)
		readable = readable && ok
	}
	e.ResourceName = nameOf(after)
	if e.ResourceName == "" {
		e.ResourceName = nameOf(before)
	}
	if parent := parentItem(c.Path(), s.routeSet(c.Echo())); e.ResourceName == "" && parent != "" {
		// A sub-resource (a service's access rules, its protections) is
		// named after the item it belongs to, read now: the name survives
		// the item's deletion in the log.
		v, _ := s.read(c, fill(parent, c, ""), nil)
		e.ResourceName = nameOf(v)
	}
	if !p.noDiff && readable {
		e.Changes = Diff(before, after)
	}
	s.record(c.Request().Context(), e)
	return nil
}

// signIn records a public sign-in step. Success is a new session cookie;
// a POST that answers 2xx without one (a second factor pending) is a step;
// a refused credential (401, 403) or an SSO callback that ends without a
// session failed. Other answers (malformed requests, 429 once the sign-in
// limit is reached, setup after setup) checked no credential and are not
// recorded, so a flood of them cannot fill the log. The username comes
// from the request body (never anything else from it), or, once signed in,
// from the new session itself.
func (s *Service) signIn(c echo.Context, next echo.HandlerFunc) error {
	username := peekUsername(c)
	err := next(c)
	if err != nil {
		c.Error(err) // the error handler answers now, so the status is final
	}
	defer func() {
		if v := recover(); v != nil {
			s.failures.Add(1)
			s.log.Error("audit entry not recorded", "route", c.Path(), "panic", v)
		}
	}()
	r := c.Request()
	status := c.Response().Status
	who := &ActorInfo{Kind: string(actor.KindAdmin), Name: username, Address: c.RealIP()}
	e := Entry{ResourceType: "admin.sessions", Method: r.Method, Route: c.Path(), Status: status, Actor: who}
	session := s.issuedSession(c)
	switch {
	case session != "":
		e.Action = ActionSignIn
		v, _ := s.read(c, "/api/admin/me", &http.Cookie{Name: s.sessionCookie, Value: session}) //nolint:gosec // a request cookie: Set-Cookie attributes do not apply
		if me, ok := v.(map[string]any); ok {
			if u, ok := me["user"].(map[string]any); ok {
				who.ID, _ = u["id"].(string)
				if n, _ := u["username"].(string); n != "" {
					who.Name = n
				}
			}
		}
		if c.Path() == "/api/admin/setup" {
			e.Action, e.ResourceType, e.ResourceID, e.ResourceName = ActionSetup, "people", who.ID, who.Name
		}
	case status >= 200 && status < 300 && r.Method == http.MethodPost:
		e.Action = ActionSignInStep
	case status == http.StatusUnauthorized || status == http.StatusForbidden:
		e.Action = ActionSignInFailed
	case r.Method == http.MethodGet && status >= 300 && status < 400:
		e.Action = ActionSignInFailed
	default:
		return err
	}
	if s.onSignIn != nil {
		s.onSignIn(r, e.Action)
	}
	s.record(r.Context(), e)
	return err
}

// issuedSession returns the session cookie value the answer sets, if any.
func (s *Service) issuedSession(c echo.Context) string {
	for _, h := range c.Response().Header().Values("Set-Cookie") {
		ck, err := http.ParseSetCookie(h)
		if err == nil && ck.Name == s.sessionCookie && ck.Value != "" && ck.MaxAge >= 0 {
			return ck.Value
		}
	}
	return ""
}

// peekUsername reads the JSON body's "username" and puts the body back.
func peekUsername(c echo.Context) string {
	r := c.Request()
	if r.Body == nil || r.Body == http.NoBody {
		return ""
	}
	b, err := io.ReadAll(io.LimitReader(r.Body, maxCapture))
	rest := r.Body
	r.Body = struct {
		io.Reader
		io.Closer
	}{io.MultiReader(bytes.NewReader(b), rest), rest}
	if err != nil {
		return ""
	}
	var v struct {
		Username string `json:"username"`
	}
	if json.Unmarshal(b, &v) != nil {
		return ""
	}
	return clip(v.Username)
}
