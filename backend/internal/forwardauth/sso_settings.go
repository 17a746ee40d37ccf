package forwardauth

import (
	"context"
	"net/url"
	"strings"

	"github.com/gatehouse-proxy/gatehouse/internal/apperr"
	"github.com/gatehouse-proxy/gatehouse/internal/change"
	"github.com/gatehouse-proxy/gatehouse/internal/forwardauth/contract"
	"github.com/gatehouse-proxy/gatehouse/internal/sealbox"
	"github.com/gatehouse-proxy/gatehouse/internal/store"
)

// Defaults of the SSO provider settings.
var defaultScopes = []string{"openid", "email", "profile"}

const (
	defaultGroupsClaim       = "groups"
	defaultSSOSessionSeconds = 24 * 3600
)

// ssoDoc is the app_config "sso" document. The client secret is stored here
// sealed with the panel's age identity and never returned by the API.
type ssoDoc struct {
	Enabled        bool     `json:"enabled"`
	Issuer         string   `json:"issuer"`
	ClientID       string   `json:"clientId"`
	ClientSecret   string   `json:"clientSecret"`
	Scopes         []string `json:"scopes"`
	GroupsClaim    string   `json:"groupsClaim"`
	SessionSeconds int64    `json:"sessionSeconds"`
}

// SSORequest is the body of PUT /api/sso. An empty clientSecret keeps the stored one.
type SSORequest struct {
	Enabled        bool     `json:"enabled"`
	Issuer         string   `json:"issuer" validate:"max=2048"`
	ClientID       string   `json:"clientId" validate:"max=512"`
	ClientSecret   string   `json:"clientSecret" validate:"max=2048"`
	Scopes         []string `json:"scopes" validate:"max=30,dive,min=1,max=100"`
	GroupsClaim    string   `json:"groupsClaim" validate:"max=100"`
	SessionSeconds int64    `json:"sessionSeconds" validate:"omitempty,min=300,max=31622400"`
}

// SSOResponse is the provider settings as the API shows them.
type SSOResponse struct {
	Enabled         bool     `json:"enabled"`
	Issuer          string   `json:"issuer"`
	ClientID        string   `json:"clientId"`
	ClientSecretSet bool     `json:"clientSecretSet"`
	Scopes          []string `json:"scopes"`
	GroupsClaim     string   `json:"groupsClaim"`
	SessionSeconds  int64    `json:"sessionSeconds"`
	RedirectURL     string   `json:"redirectUrl"` // register this at the provider
}

func (s *Service) loadSSO(ctx context.Context) (ssoDoc, error) {
	d := ssoDoc{Scopes: defaultScopes, GroupsClaim: defaultGroupsClaim, SessionSeconds: defaultSSOSessionSeconds}
	if _, err := store.GetConfig(ctx, s.db, store.KeySSO, &d); err != nil {
		return ssoDoc{}, err
	}
	return d, nil
}

// GetSSO returns the provider settings without the secret.
func (s *Service) GetSSO(ctx context.Context) (SSOResponse, error) {
	d, err := s.loadSSO(ctx)
	if err != nil {
		return SSOResponse{}, err
	}
	panel, err := s.panelURL(ctx)
	if err != nil {
		return SSOResponse{}, err
	}
	out := SSOResponse{
		Enabled: d.Enabled, Issuer: d.Issuer, ClientID: d.ClientID, ClientSecretSet: d.ClientSecret != "",
		Scopes: d.Scopes, GroupsClaim: d.GroupsClaim, SessionSeconds: d.SessionSeconds,
	}
	if panel != "" {
		out.RedirectURL = strings.TrimRight(panel, "/") + contract.SSOCallbackPath
	}
	return out, nil
}

// PutSSO validates and stores the provider settings.
func (s *Service) PutSSO(ctx context.Context, req SSORequest) (SSOResponse, error) {
	cur, err := s.loadSSO(ctx)
	if err != nil {
		return SSOResponse{}, err
	}
	d := ssoDoc{
		Enabled: req.Enabled, Issuer: strings.TrimSpace(req.Issuer), ClientID: strings.TrimSpace(req.ClientID),
		ClientSecret: cur.ClientSecret, GroupsClaim: strings.TrimSpace(req.GroupsClaim), SessionSeconds: req.SessionSeconds,
	}
	if req.ClientSecret != "" {
		d.ClientSecret = req.ClientSecret
	}
	if !sealbox.IsSealed(d.ClientSecret) { // new, or stored before sealing existed
		if d.ClientSecret, err = s.secrets.Seal(d.ClientSecret); err != nil {
			return SSOResponse{}, err
		}
	}
	if d.GroupsClaim == "" {
		d.GroupsClaim = defaultGroupsClaim
	}
	if d.SessionSeconds == 0 {
		d.SessionSeconds = defaultSSOSessionSeconds
	}
	d.Scopes = []string{"openid"}
	for _, sc := range cleanList(req.Scopes) {
		if sc != "openid" {
			d.Scopes = append(d.Scopes, sc)
		}
	}
	if len(req.Scopes) == 0 {
		d.Scopes = defaultScopes
	}
	var c apperr.Collector
	for i, sc := range d.Scopes {
		if strings.ContainsAny(sc, " \t\"\\") {
			c.Add("scopes", "scope %d must be a single word", i)
		}
	}
	if d.Issuer != "" || d.Enabled {
		if u, err := url.Parse(d.Issuer); err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
			c.Add("issuer", "must be an absolute https:// URL (the provider's issuer)")
		}
	}
	if d.Enabled && d.ClientID == "" {
		c.Add("clientId", "is required when single sign-on is enabled")
	}
	if err := c.Err(); err != nil {
		return SSOResponse{}, err
	}
	if d.Enabled {
		if err := s.rp.Check(ctx, d.Issuer); err != nil {
			c.Add("issuer", "the provider's discovery document could not be read: %s. Check the issuer URL (the provider shows it, often ending in the realm or application) and that the panel can reach the provider", err)
			return SSOResponse{}, c.Err()
		}
	}
	if err := store.PutConfig(ctx, s.db, store.KeySSO, d); err != nil {
		return SSOResponse{}, err
	}
	s.publish(change.Event{Entity: change.Security, Kind: change.Updated, ID: store.KeySSO})
	return s.GetSSO(ctx)
}
