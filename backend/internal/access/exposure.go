package access

import (
	"context"
	"fmt"

	"gorm.io/gorm"

	"github.com/gatehouse-proxy/gatehouse/internal/access/rules"
	"github.com/gatehouse-proxy/gatehouse/internal/apperr"
	"github.com/gatehouse-proxy/gatehouse/internal/store"
)

// ConfirmPublicField is the flag a rules save must carry to open a
// protected service to everyone.
const ConfirmPublicField = "confirmPublic"

// Exposures answers, for each service in ids, who can open it without
// signing in, from the global rules, its own rules and default action, and
// whether it has a protection (protected). It reads through db, so callers
// can join their transaction.
func Exposures(ctx context.Context, db *gorm.DB, ids []string, protected func(id string) bool) (map[string]rules.Exposure, error) {
	var global []rules.Rule
	if _, err := store.GetConfig(ctx, db, store.KeyAccessRules, &global); err != nil {
		return nil, fmt.Errorf("read global access rules: %w", err)
	}
	var rows []store.ServiceAccess
	if len(ids) > 0 {
		if err := db.WithContext(ctx).Where("service_id IN ?", ids).Find(&rows).Error; err != nil {
			return nil, fmt.Errorf("read access rules: %w", err)
		}
	}
	own := make(map[string]store.ServiceAccess, len(rows))
	for _, r := range rows {
		own[r.ServiceID] = r
	}
	out := make(map[string]rules.Exposure, len(ids))
	for _, id := range ids {
		r := own[id]
		def := rules.EffectiveDefault(rules.Action(r.DefaultAction), protected(id))
		out[id] = rules.ExposureOf(global, r.Rules.V, def)
	}
	return out, nil
}

// confirmPublic refuses to save rules that open a protected service to
// everyone unless the request says it means it: one rule or default that
// allows every request is all it takes, and a badge on the service list is
// too easy to miss after the fact. what says what would be opened.
func confirmPublic(confirmed bool, exposure rules.Exposure, protected bool, what string) error {
	if confirmed || exposure != rules.ExposedToEveryone || !protected {
		return nil
	}
	return apperr.Field(ConfirmPublicField, "these rules let everyone on the internet open %s without signing in: "+
		"send %s: true to save them anyway", what, ConfirmPublicField)
}

// Restricts reports whether access rules (global, or the service's own
// with its default action) restrict service id, as Service.Guard decides:
// anything but allow rules and an allow default needs the forward-auth
// check. protected says whether the service has a protection. It reads
// through db, so callers can join their transaction.
func Restricts(ctx context.Context, db *gorm.DB, id string, protected bool) (bool, error) {
	var global []rules.Rule
	if _, err := store.GetConfig(ctx, db, store.KeyAccessRules, &global); err != nil {
		return false, fmt.Errorf("read global access rules: %w", err)
	}
	var rows []store.ServiceAccess
	if err := db.WithContext(ctx).Where("service_id = ?", id).Find(&rows).Error; err != nil {
		return false, fmt.Errorf("read access rules: %w", err)
	}
	var own store.ServiceAccess
	if len(rows) > 0 {
		own = rows[0]
	}
	return !rules.Trivial(global, own.Rules.V, rules.EffectiveDefault(rules.Action(own.DefaultAction), protected)), nil
}
