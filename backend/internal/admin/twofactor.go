package admin

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"

	"github.com/go-webauthn/webauthn/webauthn"
	"github.com/labstack/echo/v4"
	"gorm.io/gorm"

	"github.com/gatehouse-proxy/gatehouse/internal/apperr"
	"github.com/gatehouse-proxy/gatehouse/internal/httpapi/route"
	"github.com/gatehouse-proxy/gatehouse/internal/sealbox"
	"github.com/gatehouse-proxy/gatehouse/internal/store"
)

// Second-factor method names, as the sign-in answer lists them.
const (
	MethodTOTP     = "totp"
	MethodPasskey  = "passkey"
	MethodRecovery = "recovery"
)

// CodeTwoFactorRequired answers requests of an administrator who has no
// second factor while the panel requires one (403).
const CodeTwoFactorRequired apperr.Code = "two_factor_required"

// Sealer encrypts secrets at rest (sealbox.Box).
type Sealer interface {
	Seal(plain string) (string, error)
	Open(sealed string) (string, error)
}

// twoFactor is what two-factor sign-in needs beyond the database.
type twoFactor struct {
	secrets   Sealer
	publicURL string
	webauthn  *webauthn.WebAuthn // nil when passkeys are unavailable
	problem   string             // why passkeys are unavailable
}

func (s *Service) initTwoFactor() {
	if s.tf.secrets == nil {
		box, err := sealbox.Ephemeral()
		if err != nil {
			panic(err) // the system's random source failed
		}
		s.tf.secrets = box
	}
	s.tf.webauthn, s.tf.problem = newWebAuthn(s.tf.publicURL)
}

// secondFactorKey marks a context whose sign-in passed its second factor.
type secondFactorKey struct{}

func withSecondFactor(ctx context.Context) context.Context {
	return context.WithValue(ctx, secondFactorKey{}, true)
}

// mayOpenSession refuses a session to an administrator with a second factor
// unless ctx says it was checked: whatever path opens a session, a password
// alone never gets past an enrolled factor.
func (s *Service) mayOpenSession(ctx context.Context, userID string) error {
	if ok, _ := ctx.Value(secondFactorKey{}).(bool); ok {
		return nil
	}
	has, err := hasSecondFactor(s.db.WithContext(ctx), userID)
	if err != nil {
		return err
	}
	if has {
		return apperr.Unauthenticated("a second factor is required to sign in")
	}
	return nil
}

// HasSecondFactor reports whether the person has a confirmed TOTP or a
// passkey to step up with.
func (s *Service) HasSecondFactor(ctx context.Context, userID string) (bool, error) {
	return hasSecondFactor(s.db.WithContext(ctx), userID)
}

// hasSecondFactor reports whether the administrator has a confirmed TOTP or
// a passkey.
func hasSecondFactor(tx *gorm.DB, userID string) (bool, error) {
	var n int64
	err := tx.Raw(`SELECT (SELECT COUNT(*) FROM admin_totp WHERE user_id = ? AND confirmed_at IS NOT NULL)
		+ (SELECT COUNT(*) FROM admin_passkeys WHERE user_id = ?)`, userID, userID).Scan(&n).Error
	if err != nil {
		return false, fmt.Errorf("find second factors: %w", err)
	}
	return n > 0, nil
}

// methods lists the second factors the administrator can sign in with.
func (s *Service) methods(ctx context.Context, userID string) ([]string, error) {
	st, err := s.status(ctx, userID)
	if err != nil {
		return nil, err
	}
	var out []string
	if st.TOTP {
		out = append(out, MethodTOTP)
	}
	if st.Passkeys > 0 {
		out = append(out, MethodPasskey)
	}
	if st.RecoveryCodesLeft > 0 && len(out) > 0 {
		out = append(out, MethodRecovery)
	}
	return out, nil
}

// SecondFactorRequired is Login's answer when the password was right and the
// administrator has a second factor: no session yet, a pending sign-in
// (Token, for the challenge cookie) that one of Methods completes.
type SecondFactorRequired struct {
	Token   string
	Methods []string
}

func (e *SecondFactorRequired) Error() string {
	return "second factor required: " + strings.Join(e.Methods, ", ")
}

// requireSecondFactor returns *SecondFactorRequired when u has a second
// factor, after starting the pending sign-in; nil when the password is enough.
func (s *Service) requireSecondFactor(ctx context.Context, u store.Person, client Client) error {
	methods, err := s.methods(ctx, u.ID)
	if err != nil || len(methods) == 0 {
		return err
	}
	tok, err := s.newChallenge(ctx, purposeSecondFactor, u.ID, client.Address, "")
	if err != nil {
		return err
	}
	return &SecondFactorRequired{Token: tok, Methods: methods}
}

// TwoFactorStatus is what an administrator has enrolled.
type TwoFactorStatus struct {
	TOTP              bool   `json:"totp"`
	Passkeys          int    `json:"passkeys"`
	RecoveryCodesLeft int    `json:"recoveryCodesLeft"`
	Enrolled          bool   `json:"enrolled"`
	Required          bool   `json:"required"`
	PasskeysAvailable bool   `json:"passkeysAvailable"`
	PasskeysProblem   string `json:"passkeysProblem,omitempty"`
}

// TwoFactorStatus reports the administrator's second factors and whether the
// panel requires one.
func (s *Service) TwoFactorStatus(ctx context.Context, userID string) (TwoFactorStatus, error) {
	st, err := s.status(ctx, userID)
	if err != nil {
		return st, err
	}
	sec, err := s.Security(ctx)
	if err != nil {
		return st, err
	}
	st.Required = sec.RequireTwoFactor
	return st, nil
}

func (s *Service) status(ctx context.Context, userID string) (TwoFactorStatus, error) {
	var row struct{ TOTP, Passkeys, Codes int }
	err := s.db.WithContext(ctx).Raw(`SELECT
		(SELECT COUNT(*) FROM admin_totp WHERE user_id = ? AND confirmed_at IS NOT NULL) AS totp,
		(SELECT COUNT(*) FROM admin_passkeys WHERE user_id = ?) AS passkeys,
		(SELECT COUNT(*) FROM admin_recovery_codes WHERE user_id = ? AND used_at IS NULL) AS codes`,
		userID, userID, userID).Scan(&row).Error
	if err != nil {
		return TwoFactorStatus{}, fmt.Errorf("read second factors: %w", err)
	}
	st := TwoFactorStatus{
		TOTP: row.TOTP > 0, Passkeys: row.Passkeys, RecoveryCodesLeft: row.Codes,
		Enrolled:          row.TOTP > 0 || row.Passkeys > 0,
		PasskeysAvailable: s.tf.webauthn != nil, PasskeysProblem: s.tf.problem,
	}
	if route.OnPortal(ctx) {
		_, err := s.portalPasskeys(ctx)
		st.PasskeysAvailable, st.PasskeysProblem = err == nil, ""
		if e, ok := apperr.As(err); ok {
			st.PasskeysProblem = e.Message
		}
	}
	return st, nil
}

// SecuritySettings is the panel-wide sign-in policy.
type SecuritySettings struct {
	RequireTwoFactor bool `json:"requireTwoFactor"`
}

// Security reads the sign-in policy.
func (s *Service) Security(ctx context.Context) (SecuritySettings, error) {
	var row store.AdminSecurity
	err := s.db.WithContext(ctx).Where("id = 1").Take(&row).Error
	if err != nil && !errors.Is(err, gorm.ErrRecordNotFound) {
		return SecuritySettings{}, fmt.Errorf("read security settings: %w", err)
	}
	return SecuritySettings{RequireTwoFactor: row.RequireTwoFactor}, nil
}

// SetSecurity stores the sign-in policy.
func (s *Service) SetSecurity(ctx context.Context, in SecuritySettings) (SecuritySettings, error) {
	now := s.now()
	row := store.AdminSecurity{ID: 1, RequireTwoFactor: in.RequireTwoFactor, UpdatedAt: &now}
	if err := s.db.WithContext(ctx).Save(&row).Error; err != nil {
		return SecuritySettings{}, fmt.Errorf("save security settings: %w", err)
	}
	return in, nil
}

// twoFactorDue reports whether the panel requires a second factor and the
// administrator has none yet. An administrator without a password signs in
// only through the OpenID provider, which owns the second factor of that
// sign-in, or with a passkey, which is one. Every guarded request asks (a
// session's and an API token's), so it is one query.
func (s *Service) twoFactorDue(ctx context.Context, userID string) (bool, error) {
	var rows []struct {
		Required    bool
		HasPassword bool
		Enrolled    bool
	}
	err := s.db.WithContext(ctx).Raw(`SELECT
		COALESCE((SELECT require_two_factor FROM admin_security WHERE id = 1), FALSE) AS required,
		u.password_hash <> '' AS has_password,
		(EXISTS (SELECT 1 FROM admin_totp WHERE user_id = u.id AND confirmed_at IS NOT NULL)
			OR EXISTS (SELECT 1 FROM admin_passkeys WHERE user_id = u.id)) AS enrolled
		FROM people u WHERE u.id = ?`, userID).Scan(&rows).Error
	if err != nil {
		return false, fmt.Errorf("read two-factor standing: %w", err)
	}
	if len(rows) == 0 {
		return false, fmt.Errorf("find admin %s: %w", userID, gorm.ErrRecordNotFound)
	}
	r := rows[0]
	return r.Required && r.HasPassword && !r.Enrolled, nil
}

// errTwoFactorRequired answers the requests of an administrator who must
// enrol a second factor first, and of their API tokens.
func errTwoFactorRequired(msg string) error {
	return &apperr.Error{Code: CodeTwoFactorRequired, Status: http.StatusForbidden, Message: msg}
}

// TokenStanding answers two_factor_required while the panel requires a
// second factor and the API token's creator has none: a token acts with its
// creator's current standing, so it stops until the creator enrols.
func (s *Service) TokenStanding(ctx context.Context, creatorID string) error {
	due, err := s.twoFactorDue(ctx, creatorID)
	if err != nil {
		return err
	}
	if due {
		return errTwoFactorRequired("this panel requires two-factor sign-in and this API token's creator has no second factor yet: " +
			"the token works again once they set up an authenticator app or a passkey")
	}
	return nil
}

// enrolmentRoutes stay open to an administrator who must enrol a second
// factor first: who they are, signing out, and enrolment itself.
var enrolmentRoutes = []string{
	"GET /api/admin/me", "POST /api/admin/logout",
	"/api/admin/me/2fa", "/api/admin/me/passkeys", "/api/admin/me/reauthenticate",
}

func enrolmentRoute(method, path string) bool {
	for _, r := range enrolmentRoutes {
		if m, p, ok := strings.Cut(r, " "); ok {
			if m == method && p == path {
				return true
			}
		} else if path == r || strings.HasPrefix(path, r+"/") {
			return true
		}
	}
	return false
}

// RequireTwoFactor goes right after RequireSession: while the panel requires
// a second factor, an administrator without one reaches only the enrolment
// routes; everything else answers 403 two_factor_required.
func (h *Handler) RequireTwoFactor(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		u, _, err := current(c)
		if err != nil || enrolmentRoute(c.Request().Method, c.Path()) || route.OnPortal(c.Request().Context()) {
			// not a signed-in person (the session guard decided), enrolment,
			// or the portal (the panel's rule is for who administers it)
			return next(c)
		}
		due, err := h.svc.twoFactorDue(c.Request().Context(), u.ID)
		if err != nil {
			return err
		}
		if due {
			return errTwoFactorRequired("this panel requires two-factor sign-in: set up an authenticator app or a passkey first")
		}
		return next(c)
	}
}

// PasskeysAvailable reports whether passkeys can be used: PANEL_PUBLIC_URL
// names a host name they can be bound to.
func (s *Service) PasskeysAvailable() bool { return s.tf.webauthn != nil }

// ResetTwoFactor removes an administrator's TOTP, recovery codes and
// passkeys and ends their sessions (command-line recovery).
func (s *Service) ResetTwoFactor(ctx context.Context, username string) (User, error) {
	var row store.Person
	err := s.db.WithContext(ctx).Where("username = ?", username).Take(&row).Error
	if errors.Is(err, gorm.ErrRecordNotFound) {
		return User{}, apperr.NotFound(fmt.Sprintf("administrator %q", username))
	}
	if err != nil {
		return User{}, fmt.Errorf("find admin %q: %w", username, err)
	}
	var ended EndedSessions
	err = s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		for _, m := range []any{&store.AdminTOTP{}, &store.AdminRecoveryCode{}, &store.AdminPasskey{}, &store.AdminChallenge{}} {
			if err := tx.Where("user_id = ?", row.ID).Delete(m).Error; err != nil {
				return fmt.Errorf("reset second factors: %w", err)
			}
		}
		var err error
		ended, err = endSessions(tx, row.ID, "")
		return err
	})
	if err != nil {
		return User{}, err
	}
	s.SessionsEnded(ctx, ended)
	return toUser(row), nil
}
