package forwardauth

import (
	"context"
	"errors"
	"fmt"
	"net/textproto"
	"strings"
	"time"

	"gorm.io/gorm"

	"github.com/gatehouse-proxy/gatehouse/internal/apperr"
	"github.com/gatehouse-proxy/gatehouse/internal/change"
	"github.com/gatehouse-proxy/gatehouse/internal/services"
	"github.com/gatehouse-proxy/gatehouse/internal/store"
	"github.com/gatehouse-proxy/gatehouse/internal/validate"
)

// SecurityConfigRequest is the body of POST /api/services/{id}/security-configs.
type SecurityConfigRequest struct {
	Type            string   `json:"type" validate:"required,oneof=basic_auth sso shared_links tokens email_code people"`
	Enabled         *bool    `json:"enabled"`
	CredentialSetID *string  `json:"credentialSetId"`
	Users           []string `json:"users" validate:"max=500,dive,min=1,max=256"`
	Groups          []string `json:"groups" validate:"max=500,dive,min=1,max=256"`
	// Header is, for tokens, a request header the service's clients may put
	// their machine token in (besides Authorization, which always works).
	Header string `json:"header" validate:"max=100"`
	// AllowedEmails are, for email_code, the addresses, domains
	// (example.com) and subdomains (*.example.com) that may ask for a code;
	// SessionSeconds how long the session it opens lasts.
	AllowedEmails  []string `json:"allowedEmails" validate:"max=500,dive,max=256"`
	SessionSeconds int64    `json:"sessionSeconds"`
	// People are, for people, the ids of the people admitted (Groups the
	// ids of the groups); SecondFactor and MaxAgeSeconds are its step-up
	// and maximum sign-in age.
	People        []string `json:"people" validate:"max=500,dive,max=64"`
	SecondFactor  bool     `json:"secondFactor"`
	MaxAgeSeconds int64    `json:"maxAgeSeconds"`
}

// SecurityConfigResponse is one protection as the API shows it.
type SecurityConfigResponse struct {
	ID              string    `json:"id"`
	ServiceID       string    `json:"serviceId"`
	Type            string    `json:"type"`
	Enabled         bool      `json:"enabled"`
	CredentialSetID *string   `json:"credentialSetId,omitempty"`
	Users           *[]string `json:"users,omitempty"`
	Groups          *[]string `json:"groups,omitempty"`
	Header          *string   `json:"header,omitempty"`
	AllowedEmails   *[]string `json:"allowedEmails,omitempty"`
	SessionSeconds  *int64    `json:"sessionSeconds,omitempty"`
	People          *[]string `json:"people,omitempty"`
	SecondFactor    *bool     `json:"secondFactor,omitempty"`
	MaxAgeSeconds   *int64    `json:"maxAgeSeconds,omitempty"`
	CreatedAt       time.Time `json:"createdAt"`
	UpdatedAt       time.Time `json:"updatedAt"`
}

// ssoServiceSettings is the settings JSON of an sso security config.
type ssoServiceSettings struct {
	Users  []string `json:"users"`
	Groups []string `json:"groups"`
	// Issuer is the provider's issuer when the lists were saved: sub:
	// entries name subjects of that provider only. Absent in settings
	// saved before it was recorded (then the configured provider's).
	Issuer string `json:"issuer,omitempty"`
}

func decodeSSOSettings(m map[string]any) ssoServiceSettings {
	var st ssoServiceSettings
	for _, k := range []string{"users", "groups"} {
		list, _ := m[k].([]any)
		out := make([]string, 0, len(list))
		for _, v := range list {
			if s, ok := v.(string); ok && s != "" {
				out = append(out, s)
			}
		}
		if k == "users" {
			st.Users = out
		} else {
			st.Groups = out
		}
	}
	st.Issuer, _ = m["issuer"].(string)
	return st
}

// decodeTokenHeader reads the header name of a tokens security config.
func decodeTokenHeader(m map[string]any) string {
	h, _ := m["header"].(string)
	return h
}

func toSecurityResponse(r store.SecurityConfig) SecurityConfigResponse {
	out := SecurityConfigResponse{
		ID: r.ID, ServiceID: r.ServiceID, Type: r.Type, Enabled: r.Enabled,
		CreatedAt: r.CreatedAt, UpdatedAt: r.UpdatedAt,
	}
	switch r.Type {
	case store.SecurityBasicAuth:
		out.CredentialSetID = r.CredentialSetID
	case store.SecuritySSO:
		st := decodeSSOSettings(r.Settings.V)
		out.Users, out.Groups = &st.Users, &st.Groups
	case store.SecurityTokens:
		h := decodeTokenHeader(r.Settings.V)
		out.Header = &h
	case store.SecurityEmailCode:
		st := decodeEmailCodeSettings(r.Settings.V)
		out.AllowedEmails, out.SessionSeconds = &st.Allowed, &st.SessionSeconds
	case store.SecurityPeople:
		st := decodePeopleSettings(r.Settings.V)
		out.People, out.Groups, out.SecondFactor, out.MaxAgeSeconds = &st.People, &st.Groups, &st.SecondFactor, &st.MaxAgeSeconds
	}
	return out
}

// checkSSOUsers refuses a sub: entry without a subject.
func checkSSOUsers(users []string) error {
	var c apperr.Collector
	for i, u := range users {
		if strings.TrimSpace(u) == SubjectPrefix {
			c.Add(fmt.Sprintf("users[%d]", i), "needs the provider's subject after %s", SubjectPrefix)
		}
	}
	return c.Err()
}

// ListSecurityConfigs returns a service's protections.
func (s *Service) ListSecurityConfigs(ctx context.Context, serviceID string) ([]SecurityConfigResponse, error) {
	if _, err := s.loadService(ctx, serviceID); err != nil {
		return nil, err
	}
	var rows []store.SecurityConfig
	if err := s.db.WithContext(ctx).Where("service_id = ?", serviceID).Order("type").Find(&rows).Error; err != nil {
		return nil, fmt.Errorf("list security configs: %w", err)
	}
	out := make([]SecurityConfigResponse, len(rows))
	for i, r := range rows {
		out[i] = toSecurityResponse(r)
	}
	return out, nil
}

// UpsertSecurityConfig creates or replaces the service's protection of req.Type.
// This older route still makes a per-service single sign-on protection for
// the clients written against it (a stable contract); the panel's form,
// PutProtection, no longer does: the people protection replaces it.
// Any change ends the service's sessions, except editing the users and groups
// of an enabled SSO protection: those are re-checked on every verify.
func (s *Service) UpsertSecurityConfig(ctx context.Context, serviceID string, req SecurityConfigRequest) (SecurityConfigResponse, error) {
	if req.Type == store.SecuritySSO {
		if err := checkSSOUsers(req.Users); err != nil {
			return SecurityConfigResponse{}, err
		}
	}
	issuer, err := s.ssoIssuer(ctx, req.Type == store.SecuritySSO)
	if err != nil {
		return SecurityConfigResponse{}, err
	}
	var row store.SecurityConfig
	var endSessions bool
	err = s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		if _, err := s.loadServiceTx(tx, serviceID); err != nil {
			return err
		}
		var err error
		row, endSessions, err = s.upsertTx(tx, serviceID, req, issuer, "")
		if err != nil {
			return err
		}
		if endSessions {
			return tx.Where("service_id = ?", serviceID).Delete(&store.Session{}).Error
		}
		return nil
	})
	if err != nil {
		return SecurityConfigResponse{}, err
	}
	s.afterSecurityChange(serviceID, endSessions)
	// Read back through the JSON column so the answer matches a later GET.
	var saved store.SecurityConfig
	if err := s.db.WithContext(ctx).Where("id = ?", row.ID).Take(&saved).Error; err != nil {
		return SecurityConfigResponse{}, fmt.Errorf("reload security config: %w", err)
	}
	return toSecurityResponse(saved), nil
}

// ssoIssuer is the configured provider's issuer when an SSO protection is
// saved (sub: entries name its subjects), and "" otherwise.
func (s *Service) ssoIssuer(ctx context.Context, sso bool) (string, error) {
	if !sso {
		return "", nil
	}
	d, err := s.loadSSO(ctx)
	if err != nil {
		return "", err
	}
	return d.Issuer, nil
}

// upsertTx writes one protection inside tx and reports whether the
// service's sessions must end. Field errors are named under prefix (the
// section of a whole-protection save, "" for the single-protection route).
func (s *Service) upsertTx(tx *gorm.DB, serviceID string, req SecurityConfigRequest, issuer, prefix string) (store.SecurityConfig, bool, error) {
	enabled := req.Enabled == nil || *req.Enabled
	if enabled {
		field := "type"
		if prefix != "" {
			field = prefix + "enabled"
		}
		if err := refuseStream(tx, serviceID, field); err != nil {
			return store.SecurityConfig{}, false, err
		}
	}
	var row store.SecurityConfig
	err := tx.Where("service_id = ? AND type = ?", serviceID, req.Type).Take(&row).Error
	existing := err == nil
	if err != nil && !errors.Is(err, gorm.ErrRecordNotFound) {
		return row, false, fmt.Errorf("load security config: %w", err)
	}
	now := s.now()
	prevEnabled := row.Enabled
	if !existing {
		row = store.SecurityConfig{ID: store.NewID(), ServiceID: serviceID, Type: req.Type, CreatedAt: now}
	}
	row.Enabled, row.UpdatedAt = enabled, now
	row.CredentialSetID = nil
	row.Settings = store.NewJSON(map[string]any{})
	switch req.Type {
	case store.SecurityBasicAuth:
		if req.CredentialSetID == nil || *req.CredentialSetID == "" {
			return row, false, apperr.Field(prefix+"credentialSetId", "is required for basic_auth")
		}
		var n int64
		if err := tx.Model(&store.CredentialSet{}).Where("id = ?", *req.CredentialSetID).Count(&n).Error; err != nil {
			return row, false, fmt.Errorf("check credential set: %w", err)
		}
		if n == 0 {
			return row, false, apperr.Field(prefix+"credentialSetId", "no credential set with this id")
		}
		row.CredentialSetID = req.CredentialSetID
	case store.SecuritySSO:
		users, groups := cleanList(req.Users), cleanList(req.Groups)
		st := map[string]any{"users": users, "groups": groups}
		if issuer != "" {
			st["issuer"] = issuer
		}
		row.Settings = store.NewJSON(st)
	case store.SecurityTokens:
		h, err := tokenHeader(req.Header)
		if err != nil {
			if e, ok := apperr.As(err); ok && prefix != "" {
				return row, false, apperr.Field(prefix+"header", "%s", e.Fields[0].Message)
			}
			return row, false, err
		}
		row.Settings = store.NewJSON(map[string]any{"header": h})
	case store.SecurityEmailCode:
		st, err := checkEmailCodeSettings(req.AllowedEmails, req.SessionSeconds)
		if err != nil {
			return row, false, prefixFields(prefix, err)
		}
		row.Settings = store.NewJSON(st)
	case store.SecurityPeople:
		st, err := checkPeopleSettings(tx, req.People, req.Groups, req.SecondFactor, req.MaxAgeSeconds)
		if err != nil {
			return row, false, prefixFields(prefix, err)
		}
		row.Settings = store.NewJSON(st)
	}
	// Only an edit of a live SSO or e-mail code protection keeps its
	// sessions: their allow-lists are checked again on every verify.
	// People sessions are checked against the directory on every verify too.
	endSessions := !existing || (req.Type != store.SecuritySSO && req.Type != store.SecurityEmailCode &&
		req.Type != store.SecurityPeople) || !prevEnabled || !enabled
	if err := tx.Save(&row).Error; err != nil {
		return row, false, fmt.Errorf("save security config: %w", err)
	}
	return row, endSessions, nil
}

// DeleteSecurityConfig removes one protection and ends the service's sessions.
func (s *Service) DeleteSecurityConfig(ctx context.Context, serviceID, typ string) error {
	err := s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		res := tx.Where("service_id = ? AND type = ?", serviceID, typ).Delete(&store.SecurityConfig{})
		if res.Error != nil {
			return fmt.Errorf("delete security config: %w", res.Error)
		}
		if res.RowsAffected == 0 {
			return apperr.NotFound("security config")
		}
		return tx.Where("service_id = ?", serviceID).Delete(&store.Session{}).Error
	})
	if err != nil {
		return err
	}
	s.afterSecurityChange(serviceID, true)
	return nil
}

func (s *Service) afterSecurityChange(serviceID string, endSessions bool) {
	if endSessions {
		s.publish(change.Event{Entity: change.Session, Kind: change.Deleted, ID: change.SessionByService + serviceID})
	}
	s.publish(change.Event{Entity: change.Security, Kind: change.Updated, ID: serviceID})
}

// refuseStream refuses to turn a protection on for a tcp or udp service:
// forward-auth answers HTTP requests, so the configuration builder would
// leave such a service out of Traefik's configuration (fail closed) and
// it would silently stop being routed. field names the offending input.
func refuseStream(tx *gorm.DB, serviceID, field string) error {
	var kinds []string
	if err := tx.Model(&store.Service{}).Where("id = ?", serviceID).Pluck("kind", &kinds).Error; err != nil {
		return fmt.Errorf("read kind of service %s: %w", serviceID, err)
	}
	if len(kinds) == 1 && services.IsStream(kinds[0]) {
		return apperr.Field(field, "%s", services.StreamRefusal(kinds[0]))
	}
	return nil
}

func (s *Service) loadServiceTx(tx *gorm.DB, id string) (store.Service, error) {
	var row store.Service
	err := tx.Where("id = ?", id).Take(&row).Error
	if errors.Is(err, gorm.ErrRecordNotFound) {
		return row, apperr.NotFound("service")
	}
	if err != nil {
		return row, fmt.Errorf("load service %s: %w", id, err)
	}
	return row, nil
}

// cleanList trims, drops empties and duplicates, keeping order.
func cleanList(in []string) []string {
	out := make([]string, 0, len(in))
	seen := map[string]bool{}
	for _, v := range in {
		v = strings.TrimSpace(v)
		if v == "" || seen[v] {
			continue
		}
		seen[v] = true
		out = append(out, v)
	}
	return out
}

// tokenHeader checks the header a service's clients may carry a machine
// token in. Headers Traefik or the panel give a meaning to are refused: a
// token there would be read as something else, or reach the upstream as an
// identity.
func tokenHeader(h string) (string, error) {
	h = strings.TrimSpace(h)
	if h == "" {
		return "", nil
	}
	if !validate.HeaderName(h) {
		return "", apperr.Field("header", "must be a header name such as X-Api-Key")
	}
	h = textproto.CanonicalMIMEHeaderKey(h)
	switch {
	case h == "Authorization", h == "Cookie", h == "Host", h == "Proxy-Authorization", h == "Connection",
		h == "Content-Length", h == "Transfer-Encoding", h == "Te", h == "Upgrade", h == "Forwarded",
		strings.HasPrefix(h, "X-Forwarded-"), strings.HasPrefix(h, "Remote-"), h == "X-Real-Ip":
		return "", apperr.Field("header", "%s cannot carry a token: choose a header of your own, such as X-Api-Key", h)
	}
	return h, nil
}

// CheckProtection normalizes a protection's type-specific settings as
// UpsertSecurityConfig stores them, for the configuration import.
func CheckProtection(typ string, settings map[string]any) (map[string]any, error) {
	switch typ {
	case store.SecurityBasicAuth, store.SecuritySharedLinks:
		return map[string]any{}, nil
	case store.SecuritySSO:
		st := decodeSSOSettings(settings)
		return map[string]any{"users": cleanList(st.Users), "groups": cleanList(st.Groups)}, nil
	case store.SecurityTokens:
		h, err := tokenHeader(decodeTokenHeader(settings))
		if err != nil {
			return nil, err
		}
		return map[string]any{"header": h}, nil
	case store.SecurityEmailCode:
		st := decodeEmailCodeSettings(settings)
		return checkEmailCodeSettings(st.Allowed, st.SessionSeconds)
	case store.SecurityPeople:
		// The shape only: an id the directory does not have admits no one.
		st := decodePeopleSettings(settings)
		st.People, st.Groups = cleanList(st.People), cleanList(st.Groups)
		var c apperr.Collector
		for _, l := range []struct {
			name string
			ids  []string
		}{{"people", st.People}, {"groups", st.Groups}} {
			if len(l.ids) > 500 {
				c.Add(l.name, "at most 500 entries")
			}
			for i, id := range l.ids {
				if len(id) > 64 {
					c.Add(fmt.Sprintf("%s[%d]", l.name, i), "at most 64 characters")
				}
			}
		}
		if st.MaxAgeSeconds < 0 || st.MaxAgeSeconds > MaxPeopleAgeSeconds {
			c.Add("maxAgeSeconds", "must be between 0 (no limit) and %d", MaxPeopleAgeSeconds)
		}
		if err := c.Err(); err != nil {
			return nil, err
		}
		return map[string]any{"people": st.People, "groups": st.Groups, "secondFactor": st.SecondFactor,
			"maxAgeSeconds": st.MaxAgeSeconds}, nil
	}
	return nil, apperr.Field("type", "must be one of: basic_auth, sso, shared_links, tokens, email_code, people")
}
