package alerts

import "time"

// Kind is what a rule watches.
type Kind string

// The rule kinds.
const (
	// ErrorRatio fires when the share of 5xx answers stays above
	// Threshold percent for ForMinutes.
	ErrorRatio Kind = "error_ratio"
	// LatencyP95 fires when the 95th percentile of the latency stays above
	// Threshold milliseconds for ForMinutes.
	LatencyP95 Kind = "latency_p95"
	// NoTraffic fires when requests stop for ForMinutes after the hour
	// before had some.
	NoTraffic Kind = "no_traffic"
	// BackendDown fires when a backend's health check fails (the share of
	// checks up stays below 1) for ForMinutes.
	BackendDown Kind = "backend_down"
)

// Kinds lists the rule kinds in display order.
var Kinds = []Kind{ErrorRatio, LatencyP95, NoTraffic, BackendDown}

// RuleRequest creates or replaces a rule.
type RuleRequest struct {
	Name string `json:"name"`
	// ServiceID is the service watched; empty or null for the panel's
	// totals (every service together).
	ServiceID  *string `json:"serviceId"`
	Kind       Kind    `json:"kind"`
	Threshold  float64 `json:"threshold"`
	ForMinutes int     `json:"forMinutes"`
	// Enabled defaults to true.
	Enabled *bool `json:"enabled"`
}

// Rule is a rule as the API shows it.
type Rule struct {
	ID          string    `json:"id"`
	Name        string    `json:"name"`
	ServiceID   *string   `json:"serviceId"`
	ServiceName string    `json:"serviceName"`
	Kind        Kind      `json:"kind"`
	Threshold   float64   `json:"threshold"`
	ForMinutes  int       `json:"forMinutes"`
	Enabled     bool      `json:"enabled"`
	Firing      bool      `json:"firing"`
	CreatedAt   time.Time `json:"createdAt"`
	UpdatedAt   time.Time `json:"updatedAt"`
}

// State is an episode's state.
type State string

// The episode states.
const (
	Firing   State = "firing"
	Resolved State = "resolved"
)

// Event is one episode of a rule: when it fired and when it resolved.
type Event struct {
	ID          string     `json:"id"`
	RuleID      string     `json:"ruleId"`
	RuleName    string     `json:"ruleName"`
	ServiceID   *string    `json:"serviceId"`
	ServiceName string     `json:"serviceName"`
	Kind        Kind       `json:"kind"`
	Threshold   float64    `json:"threshold"`
	ForMinutes  int        `json:"forMinutes"`
	State       State      `json:"state"`
	Value       *float64   `json:"value"`
	FiredAt     time.Time  `json:"firedAt"`
	ResolvedAt  *time.Time `json:"resolvedAt"`
	// ResolvedValue is the figure when it resolved (null when it was
	// closed without recovering: the rule changed or was removed).
	ResolvedValue *float64 `json:"resolvedValue"`
	// Resolution is recovered, rule_changed or rule_removed once resolved.
	Resolution string `json:"resolution"`
}

// EventFilter narrows the events list.
type EventFilter struct {
	RuleID    string
	ServiceID string
	State     State
	Limit     int
}
