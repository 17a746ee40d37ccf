package provider

import (
	"time"

	"github.com/zitadel/oidc/v3/pkg/oidc"
)

// authReq adapts an authRequest row to op.AuthRequest.
type authReq struct{ r authRequest }

func (a *authReq) GetID() string                      { return a.r.ID }
func (a *authReq) GetACR() string                     { return a.r.ACR }
func (a *authReq) GetAMR() []string                   { return a.r.AMR.V }
func (a *authReq) GetAudience() []string              { return []string{a.r.ClientID} }
func (a *authReq) GetClientID() string                { return a.r.ClientID }
func (a *authReq) GetNonce() string                   { return a.r.Nonce }
func (a *authReq) GetRedirectURI() string             { return a.r.RedirectURI }
func (a *authReq) GetScopes() []string                { return a.r.Scopes.V }
func (a *authReq) GetState() string                   { return a.r.State }
func (a *authReq) Done() bool                         { return a.r.Done && !a.r.Denied && a.r.PersonID != nil }
func (a *authReq) GetResponseType() oidc.ResponseType { return oidc.ResponseType(a.r.ResponseType) }
func (a *authReq) GetResponseMode() oidc.ResponseMode { return oidc.ResponseMode(a.r.ResponseMode) }

func (a *authReq) GetAuthTime() time.Time {
	if a.r.AuthTime == nil {
		return time.Time{}
	}
	return *a.r.AuthTime
}

func (a *authReq) GetSubject() string {
	if a.r.PersonID == nil {
		return ""
	}
	return *a.r.PersonID
}

func (a *authReq) GetCodeChallenge() *oidc.CodeChallenge {
	if a.r.CodeChallenge == "" {
		return nil
	}
	return &oidc.CodeChallenge{Challenge: a.r.CodeChallenge, Method: oidc.CodeChallengeMethod(a.r.CodeChallengeMethod)}
}

// refreshReq adapts a refresh token's row to op.RefreshTokenRequest.
type refreshReq struct {
	t      token
	scopes []string
}

func (r *refreshReq) GetAMR() []string            { return r.t.AMR.V }
func (r *refreshReq) GetAudience() []string       { return r.t.Audience.V }
func (r *refreshReq) GetAuthTime() time.Time      { return r.t.AuthTime }
func (r *refreshReq) GetClientID() string         { return r.t.ClientID }
func (r *refreshReq) GetScopes() []string         { return r.scopes }
func (r *refreshReq) GetSubject() string          { return r.t.PersonID }
func (r *refreshReq) SetCurrentScopes(s []string) { r.scopes = s }
