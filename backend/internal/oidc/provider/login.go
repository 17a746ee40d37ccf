package provider

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"slices"

	"github.com/zitadel/oidc/v3/pkg/oidc"
	"gorm.io/gorm"
	"gorm.io/gorm/clause"

	"github.com/gatehouse-proxy/gatehouse/internal/store"
)

// login is where an authorization request goes once the op package has
// checked it: a person without a portal session signs in on the portal
// (with everything it offers) and comes back; one outside the client's
// groups sees a refusal page; a sign-in that is too old, or without the
// second factor the app asks for, is stepped up on the portal (someone
// without any second factor sees a page telling them to add one); consent
// is asked once per client and scopes (unless implied); then the request
// is answered with a code.
func (s *Service) login(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	id := r.URL.Query().Get("id")
	req, err := s.store.requestByID(ctx, id)
	if err != nil {
		redirect(w, r, pageRefused+"?reason=expired")
		return
	}
	c, err := s.clients.get(ctx, req.ClientID)
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
	p, err := s.people.withGroups(ctx, sess.PersonID)
	if err != nil || !allowed(c, p) {
		redirect(w, r, pageRefused+"?id="+url.QueryEscape(req.ID))
		return
	}
	step, err := s.stepUpFor(ctx, s.demand(c, req), sess, req.CreatedAt)
	if err != nil {
		s.log.Warn("read a person's second factors for an app's sign-in", "error", err)
		http.Error(w, "the sign-in could not be read; try again", http.StatusServiceUnavailable)
		return
	}
	switch {
	case step != stepNone && none:
		s.answerError(w, r, req, "login_required")
		return
	case step == stepNoFactors:
		redirect(w, r, pageRefused+"?id="+url.QueryEscape(req.ID))
		return
	case step != stepNone:
		redirect(w, r, signInAgain(step, back))
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
			// The request is the signed-in person's from here: only they
			// may answer its consent page.
			if err := s.d.DB.WithContext(ctx).Model(&authRequest{}).Where("id = ? AND NOT done", req.ID).
				Update("person_id", p.ID).Error; err != nil {
				http.Error(w, "the sign-in could not be saved; try again", http.StatusServiceUnavailable)
				return
			}
			redirect(w, r, pageConsent+"?id="+url.QueryEscape(req.ID))
			return
		}
	}
	proved := sess.ProvedAt.UTC()
	res := s.d.DB.WithContext(ctx).Model(&authRequest{}).Where("id = ? AND NOT done AND code_hash IS NULL", req.ID).
		Updates(map[string]any{"done": true, "person_id": p.ID, "portal_session_id": sess.SessionID, "auth_time": proved,
			"amr": store.NewJSON(amrOf(sess)), "acr": answerACR(req.ACRValues.V, sess.SecondFactor)})
	if res.Error != nil {
		http.Error(w, "the sign-in could not be saved; try again", http.StatusServiceUnavailable)
		return
	}
	redirect(w, r, pathCallback+"?id="+url.QueryEscape(req.ID))
}

// demand is what the client and the request ask of the sign-in.
func (s *Service) demand(c store.OIDCClient, req authRequest) demand {
	return demandOf(c, req.ACRValues.V, req.MaxAge, slices.Contains(req.Prompt.V, oidc.PromptLogin))
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
