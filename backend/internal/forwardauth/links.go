package forwardauth

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v4"
	"gorm.io/gorm"

	"github.com/gatehouse-proxy/gatehouse/internal/apperr"
	"github.com/gatehouse-proxy/gatehouse/internal/audit"
	"github.com/gatehouse-proxy/gatehouse/internal/bearer"
	"github.com/gatehouse-proxy/gatehouse/internal/change"
	"github.com/gatehouse-proxy/gatehouse/internal/services"
	"github.com/gatehouse-proxy/gatehouse/internal/store"
)

// Shared-link statuses.
const (
	LinkActive  = "active"
	LinkUsed    = "used"
	LinkExpired = "expired"
	LinkRevoked = "revoked"
	// LinkLocked is an unused link that had too many wrong PINs.
	LinkLocked = "locked"
)

// CreateLinkRequest is the body of POST /api/services/{id}/shared-links.
type CreateLinkRequest struct {
	LifetimeSeconds int64  `json:"lifetimeSeconds" validate:"omitempty,min=60,max=31622400"`
	SessionSeconds  int64  `json:"sessionSeconds" validate:"omitempty,min=60,max=31622400"`
	Note            string `json:"note" validate:"max=200"`
	// Path is where the link lands; empty means the service's first path
	// or path-prefix routing rule, else "/".
	Path string `json:"path" validate:"max=2048"`
	// PIN (4 to 12 digits) or Password (8 to 128 characters), when set,
	// is asked of the visitor before the link is used. Write-only: only
	// its bcrypt hash is kept, and the link shows only which one it asks.
	PIN      string `json:"pin" validate:"max=128"`
	Password string `json:"password" validate:"max=1024"`
}

// LinkResponse is a shared link as the API shows it; URL only on creation.
type LinkResponse struct {
	ID             string     `json:"id"`
	ServiceID      string     `json:"serviceId"`
	Note           string     `json:"note"`
	Status         string     `json:"status"`
	URL            string     `json:"url,omitempty"`
	Path           string     `json:"path"`
	Warnings       []string   `json:"warnings,omitempty"`
	ExpiresAt      time.Time  `json:"expiresAt"`
	UsedAt         *time.Time `json:"usedAt"`
	RevokedAt      *time.Time `json:"revokedAt"`
	SessionSeconds int64      `json:"sessionSeconds"`
	CreatedAt      time.Time  `json:"createdAt"`
	// Challenge is what the link asks its visitor for: none, pin or
	// password (never the PIN or password itself).
	Challenge string `json:"challenge"`
	// FailedAttempts counts wrong PINs or passwords; at
	// LinkPINMaxFailures the link's status is locked.
	FailedAttempts int `json:"failedAttempts"`
}

func linkStatus(l store.SharedLink, now time.Time) string {
	switch {
	case l.RevokedAt != nil:
		return LinkRevoked
	case l.UsedAt != nil:
		return LinkUsed
	case !now.Before(l.ExpiresAt):
		return LinkExpired
	case pinLocked(l):
		return LinkLocked
	}
	return LinkActive
}

func toLinkResponse(l store.SharedLink, now time.Time) LinkResponse {
	return LinkResponse{
		ID: l.ID, ServiceID: l.ServiceID, Note: l.Note, Path: l.Path, Status: linkStatus(l, now), ExpiresAt: l.ExpiresAt,
		UsedAt: l.UsedAt, RevokedAt: l.RevokedAt, SessionSeconds: l.SessionSeconds, CreatedAt: l.CreatedAt,
		Challenge: linkSecretKind(l), FailedAttempts: l.PinFailures,
	}
}

func (s *Service) loadService(ctx context.Context, id string) (store.Service, error) {
	var row store.Service
	err := s.db.WithContext(ctx).Preload("Domain").Where("id = ?", id).Take(&row).Error
	if errors.Is(err, gorm.ErrRecordNotFound) {
		return row, apperr.NotFound("service")
	}
	if err != nil {
		return row, fmt.Errorf("load service %s: %w", id, err)
	}
	return row, nil
}

// CreateLink makes a one-use link to the service and returns it with its URL.
func (s *Service) CreateLink(ctx context.Context, serviceID string, req CreateLinkRequest) (LinkResponse, error) {
	svc, err := s.loadService(ctx, serviceID)
	if err != nil {
		return LinkResponse{}, err
	}
	var n int64
	if err := s.db.WithContext(ctx).Model(&store.SecurityConfig{}).
		Where("service_id = ? AND type = ? AND enabled = ?", serviceID, store.SecuritySharedLinks, true).
		Count(&n).Error; err != nil {
		return LinkResponse{}, fmt.Errorf("check shared-links protection: %w", err)
	}
	if n == 0 {
		return LinkResponse{}, apperr.Conflict("", "shared links are not enabled for this service; enable the shared_links protection first")
	}
	fqdns := services.FQDNs(svc)
	if len(fqdns) == 0 {
		return LinkResponse{}, apperr.Conflict("", "the service has no hostname to link to")
	}
	path, warnings, err := landingPath(svc.Rules.V, req.Path)
	if err != nil {
		return LinkResponse{}, err
	}
	pinKind, pinHash, err := linkSecret(req, s.cost)
	if err != nil {
		return LinkResponse{}, err
	}
	if req.LifetimeSeconds == 0 {
		req.LifetimeSeconds = 24 * 3600
	}
	if req.SessionSeconds == 0 {
		req.SessionSeconds = 24 * 3600
	}
	tok, err := bearer.New()
	if err != nil {
		return LinkResponse{}, err
	}
	now := s.now()
	l := store.SharedLink{
		ID: store.NewID(), ServiceID: serviceID, TokenHash: bearer.Hash(tok), Note: req.Note, Path: path,
		SessionSeconds: req.SessionSeconds, CreatedAt: now, PinKind: pinKind, PinHash: pinHash,
		ExpiresAt: now.Add(time.Duration(req.LifetimeSeconds) * time.Second),
	}
	if err := s.db.WithContext(ctx).Create(&l).Error; err != nil {
		return LinkResponse{}, fmt.Errorf("create shared link: %w", err)
	}
	scheme, err := s.schemes.Scheme(ctx, svc.Entrypoints.V)
	if err != nil {
		return LinkResponse{}, err
	}
	out := toLinkResponse(l, now)
	// The audit log records the link as the list shows it: without its URL.
	audit.Changed(ctx, nil, out)
	out.URL = scheme + "://" + fqdns[0] + (&url.URL{Path: path}).EscapedPath() + "?" + LinkParam + "=" + url.QueryEscape(tok)
	out.Warnings = warnings
	return out, nil
}

// ListLinks returns a service's links, newest first.
func (s *Service) ListLinks(ctx context.Context, serviceID string) ([]LinkResponse, error) {
	if _, err := s.loadService(ctx, serviceID); err != nil {
		return nil, err
	}
	var rows []store.SharedLink
	if err := s.db.WithContext(ctx).Where("service_id = ?", serviceID).Order("created_at DESC, id DESC").
		Find(&rows).Error; err != nil {
		return nil, fmt.Errorf("list shared links: %w", err)
	}
	now := s.now()
	out := make([]LinkResponse, len(rows))
	for i, r := range rows {
		out[i] = toLinkResponse(r, now)
	}
	return out, nil
}

// RevokeLink revokes a link and ends the sessions opened with it.
func (s *Service) RevokeLink(ctx context.Context, serviceID, linkID string) error {
	var before, after store.SharedLink
	err := s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		var l store.SharedLink
		err := tx.Where("id = ? AND service_id = ?", linkID, serviceID).Take(&l).Error
		if errors.Is(err, gorm.ErrRecordNotFound) {
			return apperr.NotFound("shared link")
		}
		if err != nil {
			return fmt.Errorf("load shared link: %w", err)
		}
		before, after = l, l
		if l.RevokedAt == nil {
			at := s.now()
			if err := tx.Model(&l).Update("revoked_at", at).Error; err != nil {
				return fmt.Errorf("revoke shared link: %w", err)
			}
			after.RevokedAt = &at
		}
		return tx.Where("shared_link_id = ?", linkID).Delete(&store.Session{}).Error
	})
	if err != nil {
		return err
	}
	now := s.now()
	audit.Changed(ctx, toLinkResponse(before, now), toLinkResponse(after, now))
	s.publish(change.Event{Entity: change.Session, Kind: change.Deleted, ID: change.SessionByLink + linkID})
	return nil
}

var errLinkUnavailable = errors.New("shared link unavailable")

// consumeLink marks the link used and opens its session in one transaction.
// The conditional UPDATE is the one-use guarantee: of any number of
// concurrent uses, exactly one affects a row.
// A link that asks for a PIN is used only through usePINLink (pinned),
// which gives back the attempt it reserved; the button of a link without
// one never uses a link with one.
func (s *Service) consumeLink(ctx context.Context, sp *servicePolicy, linkToken string, now time.Time, pinned bool) (store.Session, string, error) {
	hash := bearer.Hash(linkToken)
	var row store.Session
	var sessToken string
	err := s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		q := tx.Model(&store.SharedLink{}).
			Where("token_hash = ? AND service_id = ? AND used_at IS NULL AND revoked_at IS NULL AND expires_at > ?", hash, sp.id, now)
		var res *gorm.DB
		if pinned {
			res = q.Where("pin_kind <> ''").
				Updates(map[string]any{"used_at": now, "pin_failures": gorm.Expr("pin_failures - 1")})
		} else {
			res = q.Where("pin_kind = ''").Update("used_at", now)
		}
		if res.Error != nil {
			return fmt.Errorf("use shared link: %w", res.Error)
		}
		if res.RowsAffected != 1 {
			return errLinkUnavailable
		}
		var l store.SharedLink
		if err := tx.Where("token_hash = ?", hash).Take(&l).Error; err != nil {
			return fmt.Errorf("load shared link: %w", err)
		}
		row = store.Session{
			ServiceID: sp.id, Kind: store.SessionSharedLink, Subject: "shared-link:" + l.ID,
			DisplayName: l.Note, SharedLinkID: &l.ID,
			ExpiresAt: capExpiry(now.Add(time.Duration(l.SessionSeconds)*time.Second), sp.expiresAt),
		}
		var err error
		sessToken, err = s.sessions.create(tx, &row)
		return err
	})
	if err != nil {
		return store.Session{}, "", err
	}
	s.sessions.remember(row)
	return row, sessToken, nil
}

// capExpiry keeps a session from outliving its service.
func capExpiry(at, serviceExpiry time.Time) time.Time {
	if !serviceExpiry.IsZero() && serviceExpiry.Before(at) {
		return serviceExpiry
	}
	return at
}

// useLink answers a request carrying a shared-link token. Only a POST from
// the link's own page redeems it (302/303 to the clean URL with a session
// cookie); a GET, HEAD or any other method shows that page and changes
// nothing, so link-preview robots of chat and mail (which fetch, never
// submit forms) cannot use up a one-use link.
func (s *Service) useLink(c echo.Context, f fwdRequest, sp *servicePolicy, now time.Time) error {
	ctx := c.Request().Context()
	var l store.SharedLink
	err := s.db.WithContext(ctx).Where("token_hash = ? AND service_id = ?", bearer.Hash(f.linkToken), sp.id).Take(&l).Error
	if err != nil && !errors.Is(err, gorm.ErrRecordNotFound) {
		return fmt.Errorf("load shared link: %w", err)
	}
	found := err == nil
	if found && l.PinKind != "" && linkStatus(l, now) == LinkActive && len(f.linkToken) <= 128 {
		return s.usePINLink(c, f, sp, l, now)
	}
	if found && l.PinKind == "" && f.method == http.MethodPost && len(f.linkToken) <= 128 {
		if !sameOrigin(f) {
			return refuse(c, f.browser, http.StatusForbidden, apperr.CodeForbidden, page{
				Title:   "Open the link again",
				Message: "This link can only be used from its own page. Open the link again and press the button.",
				LinkURL: f.proto + "://" + f.host + f.uri, LinkText: "Open the link"})
		}
		row, tok, err := s.consumeLink(ctx, sp, f.linkToken, now, false)
		if err == nil {
			setCookie(c, f, tok, row.ExpiresAt, now)
			return c.Redirect(redirectStatus(f.method), f.proto+"://"+f.host+withoutParams(f.uri))
		}
		if !errors.Is(err, errLinkUnavailable) {
			return err
		}
		// Used meanwhile (another tab, a double press): say so.
		if err := s.db.WithContext(ctx).Where("id = ?", l.ID).Take(&l).Error; err != nil {
			return fmt.Errorf("load shared link: %w", err)
		}
	}
	p := page{Title: "This link does not work", Message: "This link is not valid. Ask the person who shared it for a new one."}
	if found {
		switch linkStatus(l, now) {
		case LinkActive:
			if len(f.linkToken) <= 128 {
				return refuse(c, f.browser, http.StatusUnauthorized, apperr.CodeUnauthenticated, linkPage(f, sp, l, now))
			}
		case LinkUsed:
			p = page{Title: "This link was already used",
				Message: "Shared links work once, and this one has been used. Ask the person who shared it for a new one."}
		case LinkExpired:
			p = page{Title: "This link has expired", Message: "Ask the person who shared it for a new one."}
		case LinkRevoked:
			p = page{Title: "This link was revoked", Message: "Ask the person who shared it for a new one."}
		case LinkLocked:
			return refuse(c, f.browser, http.StatusForbidden, apperr.CodeForbidden, lockedPage(l))
		}
	}
	return refuse(c, f.browser, http.StatusUnauthorized, apperr.CodeUnauthenticated, p)
}

// linkPage is the page an unused link shows: one button that posts back to
// the link's own address, which is the only request that uses the link.
// Forward-auth never sees a request body, so the token stays in the
// address and the POST needs no fields.
func linkPage(f fwdRequest, sp *servicePolicy, l store.SharedLink, now time.Time) page {
	stay := capExpiry(now.Add(time.Duration(l.SessionSeconds)*time.Second), sp.expiresAt).Sub(now)
	return page{
		Title: "Open " + sp.name,
		Message: "Someone shared " + sp.name + " with you. The link works once: press the button to open it " +
			"in this browser, where you stay signed in for " + humanDuration(stay) + ".",
		FormAction: f.uri, Button: "Open " + sp.name,
	}
}

// sameOrigin reports whether a POST comes from a page of the service's own
// origin. Browsers send Origin with every POST (and Sec-Fetch-Site with
// modern ones), so another site cannot make a visitor's browser redeem a
// link it holds and sign that visitor in as the link (login CSRF). A client
// sending neither is refused: scripts that redeem links set Origin.
func sameOrigin(f fwdRequest) bool {
	if o := first(f.header["Origin"]); o != "" {
		return strings.EqualFold(withoutDefaultPort(o), withoutDefaultPort(f.proto+"://"+f.host))
	}
	return first(f.header["Sec-Fetch-Site"]) == "same-origin"
}

// withoutDefaultPort drops :80 from http and :443 from https origins, as
// browsers do in Origin (a Host header may still carry them).
func withoutDefaultPort(origin string) string {
	switch {
	case strings.HasPrefix(origin, "http://"):
		return strings.TrimSuffix(origin, ":80")
	case strings.HasPrefix(origin, "https://"):
		return strings.TrimSuffix(origin, ":443")
	}
	return origin
}

// humanDuration writes d the way the link page tells a person how long
// they stay signed in: "3 days", "1 hour", "10 minutes".
func humanDuration(d time.Duration) string {
	unit := func(n int64, one string) string {
		if n == 1 {
			return "1 " + one
		}
		return strconv.FormatInt(n, 10) + " " + one + "s"
	}
	switch {
	case d >= 48*time.Hour:
		return unit(int64(d/(24*time.Hour)), "day")
	case d >= 2*time.Hour:
		return unit(int64(d/time.Hour), "hour")
	case d >= time.Minute:
		return unit(int64(d/time.Minute), "minute")
	}
	return "less than a minute"
}
