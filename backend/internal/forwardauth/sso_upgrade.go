package forwardauth

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"gorm.io/gorm"

	"github.com/gatehouse-proxy/gatehouse/internal/apperr"
	"github.com/gatehouse-proxy/gatehouse/internal/store"
)

// The people protection replaces per-service single sign-on. A database
// from a release before it holds sso protections; the upgrade (app's
// upgradeSSOProtections, at every start until none is left) reads them
// here, asks the directory for the people and groups that admit the same
// identities, and writes a people protection in their place.

// SSOAllowList is a per-service single sign-on protection as the previous
// release stored it.
type SSOAllowList struct {
	ServiceID, ServiceName string
	Enabled                bool
	// Users are the allow-list's entries: sub:<subject>, e-mail
	// addresses (the verified email claim), or names (preferred_username
	// or subject), matched as ssoPolicy.allows does.
	Users []string
	// Groups are values of the provider's groups claim, matched exactly.
	Groups []string
	// Issuer is the provider the sub: entries belong to ("" when saved
	// before it was recorded: the provider configured now).
	Issuer string
}

// Anyone reports whether the list admitted every identity the provider
// signed in (both lists empty).
func (l SSOAllowList) Anyone() bool { return len(l.Users) == 0 && len(l.Groups) == 0 }

// SSOAllowListsTx returns every per-service single sign-on protection left,
// by service name.
func SSOAllowListsTx(tx *gorm.DB) ([]SSOAllowList, error) {
	var rows []store.SecurityConfig
	if err := tx.Where("type = ?", store.SecuritySSO).Find(&rows).Error; err != nil {
		return nil, fmt.Errorf("list single sign-on protections: %w", err)
	}
	out := make([]SSOAllowList, 0, len(rows))
	for _, r := range rows {
		var name string
		if err := tx.Model(&store.Service{}).Where("id = ?", r.ServiceID).Pluck("name", &name).Error; err != nil {
			return nil, fmt.Errorf("read service: %w", err)
		}
		st := decodeSSOSettings(r.Settings.V)
		out = append(out, SSOAllowList{ServiceID: r.ServiceID, ServiceName: name, Enabled: r.Enabled,
			Users: cleanList(st.Users), Groups: cleanList(st.Groups), Issuer: st.Issuer})
	}
	slices.SortFunc(out, func(a, b SSOAllowList) int {
		return strings.Compare(a.ServiceName+a.ServiceID, b.ServiceName+b.ServiceID)
	})
	return out, nil
}

// ProviderIssuerTx is the issuer of the OpenID provider configured now ("" when none).
func ProviderIssuerTx(ctx context.Context, tx *gorm.DB) (string, error) {
	var d ssoDoc
	if _, err := store.GetConfig(ctx, tx, store.KeySSO, &d); err != nil {
		return "", err
	}
	return d.Issuer, nil
}

// ReplaceSSOWithPeopleTx puts a people protection admitting people and
// groups (ids; both empty: anyone signed in) in place of the service's
// single sign-on protection, inside the caller's transaction:
//   - a service without a people protection gets one, on when single
//     sign-on was on;
//   - a service that had both on admits either's people (anyone, when
//     either admitted anyone), keeping the people protection's second
//     factor and sign-in age;
//   - an off people protection takes the lists and is switched on when
//     single sign-on was on; an off single sign-on leaves an existing
//     people protection as it was.
//
// The single sign-on protection and the service's single sign-on sessions
// (which name no person) are deleted: visitors sign in once on the portal.
func ReplaceSSOWithPeopleTx(tx *gorm.DB, old SSOAllowList, people, groups []string, now time.Time) error {
	var cur store.SecurityConfig
	err := tx.Where("service_id = ? AND type = ?", old.ServiceID, store.SecurityPeople).Take(&cur).Error
	exists := err == nil
	if err != nil && err != gorm.ErrRecordNotFound { //nolint:errorlint // gorm returns the sentinel itself
		return fmt.Errorf("read people protection: %w", err)
	}
	st := peopleSettings{People: people, Groups: groups}
	enabled := old.Enabled
	if exists {
		prev := decodePeopleSettings(cur.Settings.V)
		st.SecondFactor, st.MaxAgeSeconds = prev.SecondFactor, prev.MaxAgeSeconds
		switch {
		case !old.Enabled:
			st, enabled = prev, cur.Enabled
		case cur.Enabled && (len(prev.People) == 0 && len(prev.Groups) == 0 || len(people) == 0 && len(groups) == 0):
			st.People, st.Groups = []string{}, []string{}
		case cur.Enabled:
			st.People = cleanList(slices.Concat(prev.People, people))
			st.Groups = cleanList(slices.Concat(prev.Groups, groups))
		}
		enabled = enabled || cur.Enabled
	}
	settings := map[string]any{"people": nonNil(st.People), "groups": nonNil(st.Groups), "secondFactor": st.SecondFactor,
		"maxAgeSeconds": st.MaxAgeSeconds}
	if exists {
		if err := tx.Model(&store.SecurityConfig{}).Where("id = ?", cur.ID).Updates(map[string]any{
			"enabled": enabled, "settings": store.NewJSON(settings), "updated_at": now}).Error; err != nil {
			return fmt.Errorf("update people protection: %w", err)
		}
	} else if err := tx.Create(&store.SecurityConfig{ID: store.NewID(), ServiceID: old.ServiceID, Type: store.SecurityPeople,
		Enabled: enabled, Settings: store.NewJSON(settings), CreatedAt: now, UpdatedAt: now}).Error; err != nil {
		return fmt.Errorf("create people protection: %w", err)
	}
	if err := tx.Where("service_id = ? AND type = ?", old.ServiceID, store.SecuritySSO).Delete(&store.SecurityConfig{}).Error; err != nil {
		return fmt.Errorf("delete single sign-on protection: %w", err)
	}
	if err := tx.Where("service_id = ? AND kind = ?", old.ServiceID, store.SessionSSO).Delete(&store.Session{}).Error; err != nil {
		return fmt.Errorf("end single sign-on sessions: %w", err)
	}
	return nil
}

func nonNil(l []string) []string {
	if l == nil {
		return []string{}
	}
	return l
}

// SSOProtectionsReplaced tells every replica that the upgrade rewrote the
// protections of services (and ended their single sign-on sessions).
func (s *Service) SSOProtectionsReplaced(serviceIDs []string) {
	for _, id := range serviceIDs {
		s.afterSecurityChange(id, true)
	}
	s.InvalidatePolicy()
}

// errSSOReplaced refuses a new per-service single sign-on protection.
func errSSOReplaced(field string) error {
	var c apperr.Collector
	c.Add(field, "per-service single sign-on is replaced by the people protection: protect the service with people (the portal's \"Sign in with …\" uses the same provider)")
	return c.Err()
}
