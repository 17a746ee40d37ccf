package provider

import (
	"context"
	"net/url"
	"slices"
	"time"

	"github.com/gatehouse-proxy/gatehouse/internal/store"
)

// Authentication context class references the provider answers to
// (acr_values) and names in an ID token's acr: "pwd" is any portal
// sign-in, "mfa" one made with a second factor (a passkey, an
// authenticator app or a recovery code). The OpenID PAPE multi-factor
// policy URI, which some apps send, means "mfa".
const (
	acrPassword = "pwd"
	acrMFA      = "mfa"
	acrPAPEMFA  = "http://schemas.openid.net/pape/policies/2007/06/multi-factor"

	maxACRValues = 10
)

var acrSupported = []string{acrPassword, acrMFA, acrPAPEMFA}

// keptACRValues are the acr_values of a request the provider knows, in the
// app's order of preference (the rest are ignored: acr_values is a
// preference, OpenID Connect Core 1.0 section 3.1.2.1).
func keptACRValues(values []string) []string {
	out := []string{}
	for _, v := range values {
		if len(out) < maxACRValues && slices.Contains(acrSupported, v) && !slices.Contains(out, v) {
			out = append(out, v)
		}
	}
	return out
}

func isMFA(acr string) bool { return acr == acrMFA || acr == acrPAPEMFA }

// acrWantsMFA: the app accepts only classes that need a second factor.
func acrWantsMFA(values []string) bool {
	return len(values) > 0 && !slices.ContainsFunc(values, func(v string) bool { return !isMFA(v) })
}

// answerACR is the acr of an ID token: the first class the app asked for
// that the sign-in satisfies, else what the sign-in was.
func answerACR(values []string, secondFactor bool) string {
	for _, v := range values {
		if secondFactor || !isMFA(v) {
			return v
		}
	}
	if secondFactor {
		return acrMFA
	}
	return acrPassword
}

// amrOf is the amr of a sign-in (RFC 8176): "mfa" with a second factor,
// "pwd" otherwise.
func amrOf(sess Session) []string {
	if sess.SecondFactor {
		return []string{"mfa"}
	}
	return []string{"pwd"}
}

// demand is what an app asks of a portal sign-in: a second factor, one
// at most maxAge old (0: any age), or one made after the request (fresh:
// prompt=login or max_age=0).
type demand struct {
	secondFactor bool
	maxAge       time.Duration
	fresh        bool
}

// demandOf combines the client's settings with what one request asks
// (acr_values, max_age in seconds or nil, prompt=login): the stricter of
// each.
func demandOf(c store.OIDCClient, acrValues []string, maxAge *int64, promptLogin bool) demand {
	d := demand{secondFactor: c.SecondFactor || acrWantsMFA(acrValues), maxAge: time.Duration(c.MaxAgeSeconds) * time.Second,
		fresh: promptLogin}
	switch {
	case maxAge == nil:
	case *maxAge <= 0:
		d.fresh = true
	case d.maxAge == 0 || time.Duration(*maxAge)*time.Second < d.maxAge:
		d.maxAge = time.Duration(*maxAge) * time.Second
	}
	return d
}

// stepUp is what a portal session lacks for a demand.
type stepUp int

const (
	stepNone      stepUp = iota
	stepSignIn           // a fresher sign-in (reauth)
	stepFactor           // a sign-in with the person's second factor (stepup)
	stepNoFactors        // a second factor, and the person has none yet
)

// stepUpFor says what sess lacks for d, for a request made at asked: a
// sign-in made since then is always fresh enough (so coming back from
// the portal never loops).
func (s *Service) stepUpFor(ctx context.Context, d demand, sess Session, asked time.Time) (stepUp, error) {
	if d.secondFactor && !sess.SecondFactor {
		has, err := s.d.Portal.HasSecondFactor(ctx, sess.PersonID)
		if err != nil {
			return stepNone, err
		}
		if !has {
			return stepNoFactors, nil
		}
		return stepFactor, nil
	}
	if !sess.ProvedAt.Before(asked) {
		return stepNone, nil
	}
	if d.fresh || d.maxAge > 0 && s.d.Now().Sub(sess.ProvedAt) > d.maxAge {
		return stepSignIn, nil
	}
	return stepNone, nil
}

// signInAgain is the portal address that gives what step lacks, then
// sends the browser back to back.
func signInAgain(step stepUp, back string) string {
	switch step {
	case stepFactor:
		return pageSignIn + "?stepup=1&rd=" + url.QueryEscape(back)
	case stepSignIn:
		return pageSignIn + "?reauth=1&rd=" + url.QueryEscape(back)
	}
	return ""
}
