package settings

import (
	"context"
	"encoding/base64"
	"net/url"
	"regexp"
	"strings"
	"sync/atomic"
	"time"
	"unicode"

	"gorm.io/gorm"

	"github.com/gatehouse-proxy/gatehouse/internal/apperr"
	"github.com/gatehouse-proxy/gatehouse/internal/change"
	"github.com/gatehouse-proxy/gatehouse/internal/store"
	"github.com/gatehouse-proxy/gatehouse/internal/validate"
)

// KeyPortal is the app_config key of the sign-in portal's settings.
const KeyPortal = "portal"

// Portal is the sign-in portal's settings: the host it answers on, its
// look, and how long the sessions opened on it last.
type Portal struct {
	// Host is the hostname the portal is served on (auth.example.com);
	// empty means no portal.
	Host string `json:"host"`
	// Name is shown as the portal's title ("Sign in to <Name>").
	Name string `json:"name"`
	// Logo is an https URL or a small data:image/... URL; empty shows none.
	Logo string `json:"logo"`
	// AccentColor is a #rrggbb colour for buttons and links.
	AccentColor string `json:"accentColor"`
	// IdleTimeoutSeconds ends a portal session unused for this long.
	IdleTimeoutSeconds int64 `json:"idleTimeoutSeconds"`
	// RememberMeSeconds is the idle timeout of a session opened with
	// "remember me".
	RememberMeSeconds int64 `json:"rememberMeSeconds"`
	// AbsoluteLifetimeSeconds ends every portal session this long after
	// its sign-in, however active.
	AbsoluteLifetimeSeconds int64 `json:"absoluteLifetimeSeconds"`
	// ProviderSignIn offers "Sign in with <ProviderName>" on the portal's
	// sign-in page: the OpenID provider set for single sign-on.
	ProviderSignIn bool `json:"providerSignIn"`
	// ProviderName is how the button names the provider.
	ProviderName string `json:"providerName"`
	// CreatePeople makes a person (without a panel role) at the first
	// sign-in of a provider identity that links to no one. Off: such an
	// identity is refused.
	CreatePeople bool `json:"createPeople"`
}

// PortalInfo is what the portal's pages read before anyone signs in.
type PortalInfo struct {
	// Portal says the request reached the portal's host.
	Portal      bool   `json:"portal"`
	Name        string `json:"name"`
	Logo        string `json:"logo"`
	AccentColor string `json:"accentColor"`
	// Passkeys says the portal offers passkey sign-in.
	Passkeys bool `json:"passkeys"`
	// Provider names the OpenID provider the sign-in page offers ("Sign in
	// with <Provider>"); empty when it offers none.
	Provider string `json:"provider"`
}

// PortalDefaults are the portal settings before anyone saved any.
func PortalDefaults() Portal {
	return Portal{
		Name: "Gatehouse", AccentColor: "#2563eb", ProviderName: "single sign-on",
		IdleTimeoutSeconds:      int64((12 * time.Hour).Seconds()),
		RememberMeSeconds:       int64((30 * 24 * time.Hour).Seconds()),
		AbsoluteLifetimeSeconds: int64((90 * 24 * time.Hour).Seconds()),
	}
}

// MaxLogo bounds the stored logo (a data URL of a small image).
const MaxLogo = 64 << 10

var (
	colorRE   = regexp.MustCompile(`^#[0-9a-fA-F]{6}$`)
	logoTypes = []string{"data:image/png;base64,", "data:image/jpeg;base64,", "data:image/webp;base64,",
		"data:image/gif;base64,", "data:image/svg+xml;base64,"}
)

// Validate normalizes p and checks every field. adminDomain is the panel's
// own hostname, which the portal may not share.
func (p *Portal) Validate(adminDomain string) error {
	var c apperr.Collector
	p.Host = validate.NormalizeHostname(p.Host)
	if p.Host != "" {
		if err := validate.Hostname(p.Host, false); err != nil {
			c.Add("host", "%v", err)
		} else if adminDomain != "" && p.Host == adminDomain {
			c.Add("host", "must differ from the panel's own domain (%s)", adminDomain)
		}
	}
	p.Name = strings.TrimSpace(p.Name)
	if n := len([]rune(p.Name)); n < 1 || n > 64 {
		c.Add("name", "must be between 1 and 64 characters")
	}
	p.ProviderName = strings.TrimSpace(p.ProviderName)
	if p.ProviderName == "" {
		p.ProviderName = PortalDefaults().ProviderName
	}
	if n := len([]rune(p.ProviderName)); n > 64 || !printable(p.ProviderName) {
		c.Add("providerName", "must be printable text of at most 64 characters")
	}
	if msg := logoProblem(p.Logo); msg != "" {
		c.Add("logo", "%s", msg)
	}
	if !colorRE.MatchString(p.AccentColor) {
		c.Add("accentColor", "must be a colour like #2563eb")
	}
	p.AccentColor = strings.ToLower(p.AccentColor)
	const minute, year = 60, 365 * 24 * 3600
	if p.IdleTimeoutSeconds < 5*minute || p.IdleTimeoutSeconds > year {
		c.Add("idleTimeoutSeconds", "must be between 5 minutes and 1 year")
	}
	if p.RememberMeSeconds < 5*minute || p.RememberMeSeconds > year {
		c.Add("rememberMeSeconds", "must be between 5 minutes and 1 year")
	}
	if p.AbsoluteLifetimeSeconds < 5*minute || p.AbsoluteLifetimeSeconds > year {
		c.Add("absoluteLifetimeSeconds", "must be between 5 minutes and 1 year")
	}
	return c.Err()
}

// printable reports whether s holds no control characters.
func printable(s string) bool {
	for _, r := range s {
		if unicode.IsControl(r) {
			return false
		}
	}
	return true
}

// logoProblem says what is wrong with a logo, or "".
func logoProblem(logo string) string {
	if logo == "" {
		return ""
	}
	if len(logo) > MaxLogo {
		return "must be at most 64 KiB (use a smaller image or a URL)"
	}
	for _, prefix := range logoTypes {
		if rest, ok := strings.CutPrefix(logo, prefix); ok {
			if _, err := base64.StdEncoding.DecodeString(rest); err != nil {
				return "is not a valid base64 data URL"
			}
			return ""
		}
	}
	u, err := url.Parse(logo)
	if err != nil || u.Scheme != "https" || u.Host == "" || u.User != nil || strings.ContainsAny(logo, " \"'<>\\") {
		return "must be an https:// URL or an uploaded PNG, JPEG, WebP, GIF or SVG image"
	}
	return ""
}

// portalCache holds the portal settings between changes: the API reads the
// portal host on every request.
type portalCache struct{ v atomic.Pointer[Portal] }

// Portal returns the portal settings, or the defaults.
func (s *Service) Portal(ctx context.Context) (Portal, error) {
	if p := s.portal.v.Load(); p != nil {
		return *p, nil
	}
	p := PortalDefaults()
	if _, err := store.GetConfig(ctx, s.db, KeyPortal, &p); err != nil {
		return Portal{}, err
	}
	s.portal.v.Store(&p)
	return p, nil
}

// PortalHost is the portal's hostname, "" when there is none (or it cannot
// be read: the API then treats no host as the portal's, and the panel's own
// guards apply).
func (s *Service) PortalHost(ctx context.Context) string {
	p, err := s.Portal(ctx)
	if err != nil {
		return ""
	}
	return p.Host
}

// PutPortal validates and stores the portal settings.
func (s *Service) PutPortal(ctx context.Context, p Portal) (Portal, error) {
	g, err := s.Get(ctx)
	if err != nil {
		return Portal{}, err
	}
	if err := p.Validate(g.AdminDomain); err != nil {
		return Portal{}, err
	}
	if err := store.PutConfig(ctx, s.db, KeyPortal, p); err != nil {
		return Portal{}, err
	}
	s.portal.v.Store(nil)
	s.bus.Publish(change.Event{Entity: change.Settings, Kind: change.Updated, ID: KeyPortal})
	return p, nil
}

// TurnOnProviderSignInTx switches the portal's "Sign in with …" on inside
// the caller's transaction (the upgrade from per-service single sign-on,
// whose services now need it), and "create people on first sign-in" too
// when createPeople is set; it never turns either off. Call
// PortalChanged once the transaction commits.
func TurnOnProviderSignInTx(ctx context.Context, tx *gorm.DB, createPeople bool) error {
	p := PortalDefaults()
	if _, err := store.GetConfig(ctx, tx, KeyPortal, &p); err != nil {
		return err
	}
	p.ProviderSignIn = true
	p.CreatePeople = p.CreatePeople || createPeople
	return store.PutConfig(ctx, tx, KeyPortal, p)
}

// PortalChanged drops the cached portal settings on every replica.
func (s *Service) PortalChanged() {
	s.portal.v.Store(nil)
	s.bus.Publish(change.Event{Entity: change.Settings, Kind: change.Updated, ID: KeyPortal})
}
