package alerts

import "time"

// ruleRow is an alert_rules row.
type ruleRow struct {
	ID         string
	Name       string
	ServiceID  *string
	Kind       string
	Threshold  float64
	ForMinutes int
	Enabled    bool
	CreatedAt  time.Time
	UpdatedAt  time.Time
}

func (ruleRow) TableName() string { return "alert_rules" }

// eventRow is an alert_events row: one episode of a rule.
type eventRow struct {
	ID            string
	RuleID        string
	RuleName      string
	ServiceID     *string
	ServiceName   string
	Kind          string
	Threshold     float64
	ForMinutes    int
	Value         *float64
	FiredAt       time.Time
	ResolvedAt    *time.Time
	ResolvedValue *float64
	// Resolution says how the episode ended: "recovered" (the rule's
	// condition cleared, the channels were told), "rule_changed" or
	// "rule_removed" (closed without a message).
	Resolution string
}

func (eventRow) TableName() string { return "alert_events" }
