package provider

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"slices"
	"time"

	"github.com/zitadel/oidc/v3/pkg/oidc"
	"gorm.io/gorm"
	"gorm.io/gorm/clause"

	"github.com/gatehouse-proxy/gatehouse/internal/store"
)

// login is where an authorization request goes once the op package has
// checked it: a person without a portal session signs in on the portal
// (with everything it offers) and comes back; one outside the client's
// groups sees a refusal page; consent is asked once per client and
// scopes (unless implied); then the request is answered with a code.
func (s *Service) login(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	id := r.URL.Query().Get("id")
	req, err := s.store.requestByID(ctx, id)
	if err != nil {
		redirect(w, r, pageRefused+"?reason=expired")
		return
	}
	back := s.issuer(ctx) + pathLogin + "?id=" + url.QueryEscape(req.ID)
	none := slices.Contains(req.Prompt.V, oidc.PromptNone)
	sess, ok, err := s.d.Portal.PortalSignIn(ctx, r)
	if err != nil {
		s.log.Warn("read the portal session for an app's sign-in", "error", err)
		http.Error(w, "the sign-in could not be read; try again", http.StatusServiceUnavailable)
		return
	}
	if !ok {
		if none {
			s.answerError(w, r, req, "login_required")
			return
		}
		redirect(w, r, pageSignIn+"?rd="+url.QueryEscape(back))
		return
	}
	if s.mustProveAgain(req, sess) {
		if none {
			s.answerError(w, r, req, "login_required")
			return
		}
		redirect(w, r, pageSignIn+"?reauth=1&rd="+url.QueryEscape(back))
		return
	}
	c, err := s.clients.get(ctx, req.ClientID)
	if err != nil {
		redirect(w, r, pageRefused+"?reason=expired")
		return
	}
	p, err := s.people.withGroups(ctx, sess.PersonID)
	if err != nil || !allowed(c, p) {
		redirect(w, r, pageRefused+"?id="+url.QueryEscape(req.ID))
		return
	}
	if !c.ImpliedConsent {
		given, err := s.consented(ctx, p.ID, c.ID, req)
		if err != nil {
			http.Error(w, "the consent could not be read; try again", http.StatusServiceUnavailable)
			return
		}
		if !given {
			if none {
				s.answerError(w, r, req, "consent_required")
				return
			}
			redirect(w, r, pageConsent+"?id="+url.QueryEscape(req.ID))
			return
		}
	}
	amr := []string{"pwd"}
	if sess.SecondFactor {
		amr = []string{"mfa"}
	}
	proved := sess.ProvedAt.UTC()
	res := s.d.DB.WithContext(ctx).Model(&authRequest{}).Where("id = ? AND NOT done AND code_hash IS NULL", req.ID).
		Updates(map[string]any{"done": true, "person_id": p.ID, "portal_session_id": sess.SessionID, "auth_time": proved,
			"amr": store.NewJSON(amr)})
	if res.Error != nil {
		http.Error(w, "the sign-in could not be saved; try again", http.StatusServiceUnavailable)
		return
	}
	redirect(w, r, pathCallback+"?id="+url.QueryEscape(req.ID))
}

// mustProveAgain: prompt=login asks for a sign-in after the request was
// made, max_age for one at most that many seconds old.
func (s *Service) mustProveAgain(req authRequest, sess Session) bool {
	if slices.Contains(req.Prompt.V, oidc.PromptLogin) && sess.ProvedAt.Before(req.CreatedAt) {
		return true
	}
	if req.MaxAge != nil && s.d.Now().Sub(sess.ProvedAt) > time.Duration(*req.MaxAge)*time.Second {
		return true
	}
	return false
}

// consented reports whether the person granted the client every scope of
// req (since req was made, when it asked for prompt=consent).
func (s *Service) consented(ctx context.Context, personID, clientID string, req authRequest) (bool, error) {
	var c consent
	err := s.d.DB.WithContext(ctx).Where("person_id = ? AND client_id = ?", personID, clientID).Take(&c).Error
	if errors.Is(err, gorm.ErrRecordNotFound) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	if slices.Contains(req.Prompt.V, oidc.PromptConsent) && c.CreatedAt.Before(req.CreatedAt) {
		return false, nil
	}
	for _, sc := range req.Scopes.V {
		if !slices.Contains(c.Scopes.V, sc) {
			return false, nil
		}
	}
	return true, nil
}

// grantConsent remembers that the person granted the client scopes (with
// what they granted before).
func (s *Service) grantConsent(ctx context.Context, personID, clientID string, scopes []string) error {
	var prev consent
	_ = s.d.DB.WithContext(ctx).Where("person_id = ? AND client_id = ?", personID, clientID).Take(&prev).Error
	all := append([]string{}, prev.Scopes.V...)
	for _, sc := range scopes {
		if !slices.Contains(all, sc) {
			all = append(all, sc)
		}
	}
	row := consent{PersonID: personID, ClientID: clientID, Scopes: store.NewJSON(all), CreatedAt: s.d.Now()}
	return s.d.DB.WithContext(ctx).Clauses(clause.OnConflict{
		Columns:   []clause.Column{{Name: "person_id"}, {Name: "client_id"}},
		DoUpdates: clause.AssignmentColumns([]string{"scopes", "created_at"}),
	}).Create(&row).Error
}

// answerError sends the app an OAuth error at its (checked) redirect URI.
func (s *Service) answerError(w http.ResponseWriter, r *http.Request, req authRequest, code string) {
	redirect(w, r, errorURL(req, code))
}

func errorURL(req authRequest, code string) string {
	u, err := url.Parse(req.RedirectURI)
	if err != nil {
		return pageRefused + "?reason=expired"
	}
	q := u.Query()
	q.Set("error", code)
	if req.State != "" {
		q.Set("state", req.State)
	}
	u.RawQuery = q.Encode()
	return u.String()
}

func redirect(w http.ResponseWriter, r *http.Request, to string) {
	w.Header().Set("Cache-Control", "no-store")
	http.Redirect(w, r, to, http.StatusFound)
}
