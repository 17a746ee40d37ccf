package app

import (
	"context"
	"fmt"
	"log/slog"
	"strings"

	"gorm.io/gorm"

	"github.com/gatehouse-proxy/gatehouse/internal/actor"
	"github.com/gatehouse-proxy/gatehouse/internal/audit"
	"github.com/gatehouse-proxy/gatehouse/internal/forwardauth"
	"github.com/gatehouse-proxy/gatehouse/internal/people"
	"github.com/gatehouse-proxy/gatehouse/internal/settings"
	"github.com/gatehouse-proxy/gatehouse/internal/store"
)

// upgradeSSOProtections replaces every per-service single sign-on
// protection of an older release with a people protection admitting the
// same identities through the portal's "Sign in with …" (docs:
// protect-services.md, "From per-service single sign-on"), in one
// transaction, each owner writing its own rows: the directory its people
// and groups, forward-auth the protections, the settings the portal's
// provider sign-in. It runs once, at the first start after migration 0027,
// whose task it deletes in the same transaction; replicas starting
// together take turns on the write lock, and the second finds no task.
// A protection made afterwards through the older security-configs route
// stays as it is. It reports the services it changed.
func upgradeSSOProtections(ctx context.Context, db *gorm.DB, log *slog.Logger) ([]string, error) {
	var changed []string
	err := db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		res := tx.Where("name = ?", store.UpgradeSSOToPeople).Delete(&store.UpgradeTask{})
		if res.Error != nil || res.RowsAffected == 0 {
			return res.Error
		}
		lists, err := forwardauth.SSOAllowListsTx(tx)
		if err != nil || len(lists) == 0 {
			return err
		}
		issuer, err := forwardauth.ProviderIssuerTx(ctx, tx)
		if err != nil {
			return err
		}
		now := store.Now()
		ctx := actor.With(ctx, actor.System("upgrade"))
		live, create := false, false
		for _, l := range lists {
			iss := l.Issuer
			if iss == "" {
				iss = issuer
			}
			res, err := people.AdmitSSOAllowListTx(tx, people.SSOAllowList{Issuer: iss, Users: l.Users, Groups: l.Groups}, now)
			if err != nil {
				return fmt.Errorf("service %q: %w", l.ServiceName, err)
			}
			if err := forwardauth.ReplaceSSOWithPeopleTx(tx, l, res.People, res.Groups, now); err != nil {
				return fmt.Errorf("service %q: %w", l.ServiceName, err)
			}
			if l.Enabled {
				live = true
				// Whoever the provider signs in may need a person made
				// for them: any of its users (an empty list) or any
				// member of a listed group.
				create = create || l.Anyone() || len(l.Groups) > 0
			}
			changed = append(changed, l.ServiceID)
			if err := audit.Record(ctx, tx, audit.Entry{Action: "upgrade", ResourceType: "services.protection",
				ResourceID: l.ServiceID, ResourceName: l.ServiceName, Changes: []audit.Change{
					{Path: "sso", Before: map[string]any{"enabled": l.Enabled, "users": l.Users, "groups": l.Groups}},
					{Path: "people", After: map[string]any{"people": res.People, "groups": res.Groups}},
					{Path: "madePeople", After: res.MadePeople}, {Path: "madeGroups", After: res.MadeGroups},
				}}); err != nil {
				return err
			}
			log.Info("per-service single sign-on replaced by the people protection", "service", l.ServiceName,
				"enabled", l.Enabled, "people", len(res.People), "groups", len(res.Groups),
				"made_people", strings.Join(res.MadePeople, ","), "made_groups", strings.Join(res.MadeGroups, ","))
		}
		if !live {
			return nil
		}
		if create {
			log.Warn("the portal now makes a person at the first provider sign-in that links to no one, " +
				"as an empty or group allow-list admitted any provider user: services open to any signed-in person admit them")
		}
		return settings.TurnOnProviderSignInTx(ctx, tx, create)
	})
	if err != nil {
		return nil, fmt.Errorf("replace per-service single sign-on: %w", err)
	}
	return changed, nil
}
