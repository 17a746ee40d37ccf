package access

import (
	"context"
	"fmt"
	"net/http"
	"net/netip"
	"net/textproto"
	"slices"
	"strings"

	"github.com/gatehouse-proxy/gatehouse/internal/access/rules"
	"github.com/gatehouse-proxy/gatehouse/internal/apperr"
	"github.com/gatehouse-proxy/gatehouse/internal/validate"
)

const maxTestHeaders = 50

// testInput is a validated TestRequest.
type testInput struct {
	method, host, uri string
	addr              netip.Addr
	header            http.Header
}

// normalize checks a tester request and splits its URL.
func (r *TestRequest) normalize(o rules.Options) (testInput, error) {
	var c apperr.Collector
	in := testInput{method: strings.ToUpper(strings.TrimSpace(r.Method)), header: http.Header{}}
	if in.method == "" {
		in.method = http.MethodGet
	}
	if !rules.ValidMethod(in.method) {
		c.Add("method", "must be an HTTP method such as GET or PROPFIND")
	}
	u := strings.TrimSpace(r.URL)
	for _, scheme := range []string{"https://", "http://"} {
		if len(u) >= len(scheme) && strings.EqualFold(u[:len(scheme)], scheme) {
			rest := u[len(scheme):]
			i := strings.IndexAny(rest, "/?#")
			if i < 0 {
				i = len(rest)
			}
			in.host, u = strings.ToLower(rest[:i]), rest[i:]
			if u == "" || u[0] != '/' {
				u = "/" + u
			}
			break
		}
	}
	switch {
	case u == "" || u[0] != '/':
		c.Add("url", "must be a URL such as https://app.example.com/path, or a path starting with /")
	case len(u) > 16384 || strings.ContainsFunc(u, func(r rune) bool { return r < ' ' || r == 0x7f }):
		c.Add("url", "must be at most 16384 characters without control characters")
	}
	in.uri = u
	if a := strings.TrimSpace(r.ClientAddress); a != "" {
		addr, err := netip.ParseAddr(a)
		if err != nil || addr.Zone() != "" {
			c.Add("clientAddress", "must be an IP address such as 203.0.113.7 or 2001:db8::1")
		}
		in.addr = addr.Unmap()
	}
	if len(r.Headers) > maxTestHeaders {
		c.Add("headers", "must have at most %d entries", maxTestHeaders)
	}
	for name, v := range r.Headers {
		if !validate.HeaderName(name) || len(name) > 100 {
			c.Add("headers."+name, "must be a header name")
			continue
		}
		if len(v) > 4096 || strings.ContainsFunc(v, func(r rune) bool { return r < ' ' && r != '\t' || r == 0x7f }) {
			c.Add("headers."+name, "must be at most 4096 characters without control characters")
			continue
		}
		in.header.Set(textproto.CanonicalMIMEHeaderKey(name), v)
	}
	if r.Draft != nil {
		normalizeDefault(&r.Draft.DefaultAction, "draft.defaultAction", &c)
		rules.Normalize(r.Draft.Rules, "draft.rules", o, &c)
	}
	return in, c.Err()
}

// Test evaluates a request against the global rules and the service's
// rules (saved, or the draft) and explains the decision.
func (s *Service) Test(ctx context.Context, serviceID string, req TestRequest) (TestResult, error) {
	var draft []rules.Rule
	if req.Draft != nil {
		draft = req.Draft.Rules
	}
	o, err := s.optionsFor(ctx, draft)
	if err != nil {
		return TestResult{}, err
	}
	in, err := req.normalize(o)
	if err != nil {
		return TestResult{}, err
	}
	id, err := s.testIdentity(ctx, req)
	if err != nil {
		return TestResult{}, err
	}
	current, err := s.Get(ctx, serviceID)
	if err != nil {
		return TestResult{}, err
	}
	global, err := s.GetGlobal(ctx)
	if err != nil {
		return TestResult{}, err
	}
	own, def := current.Rules, current.DefaultAction
	if req.Draft != nil {
		own, def = req.Draft.Rules, req.Draft.DefaultAction
	}
	effective := rules.EffectiveDefault(def, len(current.Protections) > 0)
	set, err := rules.Compile(global.Rules, own, effective, s.geo)
	if err != nil {
		return TestResult{}, fmt.Errorf("compile access rules of %s: %w", serviceID, err)
	}
	r := rules.Request{Method: in.method, URI: in.uri, Addr: in.addr, Header: in.header, Identity: id}
	ex := set.Explain(&r)
	out := TestResult{
		Decision: ex.Decision.Action, NeedsIdentity: ex.Decision.NeedsIdentity, Scope: ex.Decision.Scope.String(), Index: ex.Decision.Index,
		Reason: ex.Reason, Path: ex.Path.Clean, Ambiguous: ex.Path.Ambiguous,
		Protections: current.Protections, Warnings: []string{}, Steps: make([]TestStep, 0, len(ex.Steps)),
	}
	if id != nil {
		out.Person = &TestPerson{Username: id.Username, Groups: id.Groups, SecondFactor: id.SecondFactor}
	}
	if s.geo != nil && in.addr.IsValid() {
		out.Country = s.geo.Country(in.addr)
	}
	for _, st := range ex.Steps {
		out.Steps = append(out.Steps, TestStep{Scope: st.Scope.String(), Index: st.Index, Action: st.Action,
			Note: st.Note, Matched: st.Matched, Reason: st.Reason})
	}
	info, _, err := s.info.AccessInfo(ctx, serviceID)
	if err != nil {
		return TestResult{}, err
	}
	if in.host != "" && !slices.Contains(info.Hosts, validate.StripPort(in.host)) {
		out.Warnings = append(out.Warnings, "the host "+in.host+" is not one of the service's hostnames, so Traefik would not send this request to it")
	}
	if ex.Path.Ambiguous {
		out.Warnings = append(out.Warnings, "the path can be read in more than one way; allow rules never match it, deny and authenticate rules match every reading")
	}
	if !in.addr.IsValid() {
		out.Warnings = append(out.Warnings, "no client address given: address rules never allow it, and deny or authenticate address rules match it")
	}
	if out.Decision == rules.Authenticate && len(current.Protections) == 0 {
		out.Warnings = append(out.Warnings, "the service has no protection, so authenticate answers 401")
	}
	if out.NeedsIdentity {
		out.Warnings = append(out.Warnings, "a rule names people or groups and the request has no person: it is asked to sign in as a person, and basic auth, machine tokens and shared links cannot open it")
	}
	return out, nil
}

// testIdentity is the identity the tester evaluates: the named person
// with their groups from the directory, nil for none.
func (s *Service) testIdentity(ctx context.Context, req TestRequest) (*rules.Identity, error) {
	name := strings.TrimSpace(req.Person)
	if name == "" {
		if req.SecondFactor {
			return nil, apperr.Field("secondFactor", "needs a person")
		}
		return nil, nil
	}
	if len(name) > rules.MaxName || s.dir == nil {
		return nil, apperr.Field("person", "must be the username of a person in the directory")
	}
	id, ok, err := s.dir.IdentityByUsername(ctx, name)
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, apperr.Field("person", "names no person: %q is not in the directory", name)
	}
	if id.Groups == nil {
		id.Groups = []string{}
	}
	id.SecondFactor = req.SecondFactor
	return &id, nil
}
