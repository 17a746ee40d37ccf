package forwardauth

import (
	"net/http"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	accesslog "github.com/gatehouse-proxy/gatehouse/internal/access/log"
	"github.com/gatehouse-proxy/gatehouse/internal/access/rules"
	"github.com/gatehouse-proxy/gatehouse/internal/traffic"
)

// longURI is the length from which record copies the path it cuts from a
// request URI rather than slicing it.
const longURI = 1024

// outcome is what a verify decision rested on, for the access log.
type outcome struct {
	at       time.Time // when verify decided
	start    time.Time // when verify began (the monotonic clock, for its latency)
	basis    accesslog.Basis
	rule     int // index of the deciding rule, -1 for none
	identity string
	reason   accesslog.Reason // what was wrong with the credentials, if anything
}

func ruleBasis(sc rules.Scope) accesslog.Basis {
	switch sc {
	case rules.ScopeGlobal:
		return accesslog.ByGlobalRule
	case rules.ScopeService:
		return accesslog.ByServiceRule
	}
	return accesslog.ByDefault
}

// record adds the answer just written to the access log, and logs
// refusals by rule and rate limits at info level. The entry holds strings
// verify already had: it costs no allocation (but for the path of a long
// URI with a query string, copied so that the log never keeps the query
// alive).
func (s *Service) record(c echo.Context, f *fwdRequest, sp *servicePolicy, o *outcome) {
	d := decisionOf(c.Response().Status, o)
	sp.traffic.Observe(trafficDecision[d], time.Since(o.start))
	path, _, _ := strings.Cut(f.uri, "?")
	if s.decided != nil {
		if len(f.uri) > longURI && len(path) < len(f.uri) {
			path = strings.Clone(path)
		}
		s.decided.Record(accesslog.Entry{Time: o.at, ServiceID: sp.id, ServiceName: sp.name, Addr: f.addr,
			Method: f.method, Host: f.host, Path: path, Decision: d, Basis: o.basis, Rule: o.rule, Identity: o.identity,
			Reason: o.reason})
	}
	if d == accesslog.Denied || d == accesslog.RateLimited {
		e := accesslog.Entry{Basis: o.basis, Rule: o.rule}
		s.log.Info("forward-auth refused a request", "service_id", sp.id, "decision", d.String(), "by", e.By(),
			"client", f.ipKey(), "method", f.method, "host", f.host, "path", path)
	}
}

// trafficDecision files the access log's decisions under traffic's five.
var trafficDecision = [...]traffic.Decision{
	accesslog.Allowed:         traffic.DecisionAllowed,
	accesslog.Authenticated:   traffic.DecisionSignedIn,
	accesslog.Denied:          traffic.DecisionDenied,
	accesslog.Unauthenticated: traffic.DecisionChallenged,
	accesslog.Forbidden:       traffic.DecisionDenied,
	accesslog.RateLimited:     traffic.DecisionRateLimited,
}

// decisionOf reads the decision from the status verify answered.
func decisionOf(status int, o *outcome) accesslog.Decision {
	switch status {
	case http.StatusOK:
		if o.identity != "" {
			return accesslog.Authenticated
		}
		return accesslog.Allowed
	case http.StatusFound, http.StatusSeeOther:
		// A shared link's first use or the end of the sign-in hop sets the
		// session cookie and redirects; anything else redirects to sign in.
		if o.basis == accesslog.ByLink || o.basis == accesslog.BySession || o.basis == accesslog.ByLinkSession {
			return accesslog.Authenticated
		}
		return accesslog.Unauthenticated
	case http.StatusForbidden:
		switch o.basis {
		case accesslog.ByUnavailable, accesslog.ByGlobalRule, accesslog.ByServiceRule, accesslog.ByDefault:
			return accesslog.Denied
		}
		return accesslog.Forbidden
	case http.StatusTooManyRequests:
		return accesslog.RateLimited
	}
	return accesslog.Unauthenticated
}
