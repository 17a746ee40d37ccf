package app

import (
	"context"
	"fmt"
	"log/slog"
	"strings"
	"sync"

	"gorm.io/gorm"

	"github.com/gatehouse-proxy/gatehouse/internal/actor"
	"github.com/gatehouse-proxy/gatehouse/internal/audit"
	"github.com/gatehouse-proxy/gatehouse/internal/change"
	"github.com/gatehouse-proxy/gatehouse/internal/forwardauth"
	"github.com/gatehouse-proxy/gatehouse/internal/people"
	"github.com/gatehouse-proxy/gatehouse/internal/settings"
	"github.com/gatehouse-proxy/gatehouse/internal/store"
)

// startSSOUpgrade runs upgradeSSOProtections now, and again after each
// change of the portal's settings on any replica while its task waits for
// a portal host (afterwards the task is gone and a run does nothing);
// replaced is told the services it changed.
func startSSOUpgrade(ctx context.Context, db *gorm.DB, bus *change.Bus, log *slog.Logger, replaced func([]string)) error {
	var running sync.Mutex
	run := func(ctx context.Context) error {
		running.Lock()
		defer running.Unlock()
		ids, err := upgradeSSOProtections(ctx, db, log)
		if err == nil && len(ids) > 0 {
			replaced(ids)
		}
		return err
	}
	if err := run(ctx); err != nil {
		return err
	}
	bus.Subscribe(func(e change.Event) {
		if e.Entity != change.Settings || e.ID != settings.KeyPortal {
			return
		}
		// Not on the publisher's goroutine: the run writes in a transaction.
		go func() {
			if err := run(context.WithoutCancel(ctx)); err != nil {
				log.Error("replacing per-service single sign-on", "err", err)
			}
		}()
	})
	return nil
}

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
//
// The people protection sends visitors to the portal, so while the portal
// has no host the services keep their single sign-on (verify still honours
// it) and the task waits: it runs when an administrator sets the host
// (app.build subscribes to the portal's settings).
func upgradeSSOProtections(ctx context.Context, db *gorm.DB, log *slog.Logger) ([]string, error) {
	var changed []string
	err := db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		var pending int64
		if err := tx.Model(&store.UpgradeTask{}).Where("name = ?", store.UpgradeSSOToPeople).Count(&pending).Error; err != nil || pending == 0 {
			return err
		}
		portal := settings.PortalDefaults()
		if _, err := store.GetConfig(ctx, tx, settings.KeyPortal, &portal); err != nil {
			return err
		}
		lists, err := forwardauth.SSOAllowListsTx(tx)
		if err != nil {
			return err
		}
		if portal.Host == "" && len(lists) > 0 {
			log.Warn("services keep per-service single sign-on until the sign-in portal has a host "+
				"(Settings, Sign-in portal): they then move to the people protection", "services", len(lists))
			return nil
		}
		res := tx.Where("name = ?", store.UpgradeSSOToPeople).Delete(&store.UpgradeTask{})
		if res.Error != nil || res.RowsAffected == 0 || len(lists) == 0 {
			return res.Error
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
