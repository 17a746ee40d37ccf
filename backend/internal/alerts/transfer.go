package alerts

import (
	"fmt"
	"time"

	"gorm.io/gorm"
)

// MaxRules is how many rules the panel keeps; creating one more is a
// conflict, through the API or an import.
const MaxRules = maxRules

// Check checks the meaning of req exactly as the API does and returns it
// cleaned (name trimmed, an empty service id as none, the threshold of a
// kind without one as 0); field names are the JSON ones. Whether the
// service exists is the caller's to check (an import resolves it by name).
func Check(req RuleRequest) (RuleRequest, error) { return normalize(req) }

// StoredRule is a rule's configuration as the database holds it, for the
// export and the import (package transfer): no episode, no firing state.
type StoredRule struct {
	ID         string
	Name       string
	ServiceID  *string
	Kind       Kind
	Threshold  float64
	ForMinutes int
	Enabled    bool
	CreatedAt  time.Time
	UpdatedAt  time.Time
}

// RulesTx reads every rule through db (the export's or the import's
// transaction), by name.
func RulesTx(db *gorm.DB) ([]StoredRule, error) {
	var rows []ruleRow
	if err := db.Order("name").Find(&rows).Error; err != nil {
		return nil, fmt.Errorf("list alert rules: %w", err)
	}
	out := make([]StoredRule, len(rows))
	for i, r := range rows {
		out[i] = StoredRule{ID: r.ID, Name: r.Name, ServiceID: r.ServiceID, Kind: Kind(r.Kind), Threshold: r.Threshold,
			ForMinutes: r.ForMinutes, Enabled: r.Enabled, CreatedAt: r.CreatedAt, UpdatedAt: r.UpdatedAt}
	}
	return out, nil
}

// HistoryRuleIDsTx lists the rule ids the episodes name, rules removed
// included: a new rule never takes such an id, or it would inherit
// another rule's history (and an episode still open).
func HistoryRuleIDsTx(db *gorm.DB) (map[string]bool, error) {
	var ids []string
	if err := db.Model(&eventRow{}).Distinct("rule_id").Pluck("rule_id", &ids).Error; err != nil {
		return nil, fmt.Errorf("list alert history: %w", err)
	}
	out := make(map[string]bool, len(ids))
	for _, id := range ids {
		out[id] = true
	}
	return out, nil
}

// ImportRuleTx writes one rule checked by Check (its service resolved)
// inside the import's transaction: the row r.ID is replaced whole (or
// created), so a rule the same import's service deletion just took away
// with its service comes back. As with an update through the API, an open
// episode stays open: the next evaluation resolves it if the changed rule
// no longer holds. Alert rules have no cache: there is no change event to
// publish.
func ImportRuleTx(tx *gorm.DB, r StoredRule) error {
	if err := tx.Where("id = ?", r.ID).Delete(&ruleRow{}).Error; err != nil {
		return err
	}
	return tx.Create(&ruleRow{ID: r.ID, Name: r.Name, ServiceID: r.ServiceID, Kind: string(r.Kind), Threshold: r.Threshold,
		ForMinutes: r.ForMinutes, Enabled: r.Enabled, CreatedAt: r.CreatedAt, UpdatedAt: r.UpdatedAt}).Error
}

// DeleteRuleTx removes the rule id inside the import's transaction. Its
// open episode, if any, is resolved by the leader's next evaluation
// ("rule_removed", the channels told), as for a rule removed with its
// service.
func DeleteRuleTx(tx *gorm.DB, id string) error {
	return tx.Where("id = ?", id).Delete(&ruleRow{}).Error
}
