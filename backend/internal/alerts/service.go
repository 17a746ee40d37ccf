// Package alerts watches the traffic history against thresholds an
// administrator sets, per service or over the panel's totals: a 5xx ratio,
// a latency percentile, traffic stopping, a backend down, each for some
// minutes. The leader evaluates every rule once a minute over the history
// (traffic.Service.Window through Source); a rule whose condition held for
// its minutes fires once per episode, and its recovery resolves it, each
// sent to the notification channels subscribed to alert_firing. The
// episodes are the history the API lists.
package alerts

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"gorm.io/gorm"

	"github.com/gatehouse-proxy/gatehouse/internal/apperr"
	"github.com/gatehouse-proxy/gatehouse/internal/notify"
	"github.com/gatehouse-proxy/gatehouse/internal/store"
)

// Sample is one step of the traffic history, as Source answers it.
type Sample struct {
	At        time.Time // the step's start
	Requests  float64   // requests in the step
	Errors5xx float64   // of which answered 5xx
	P95Ms     *float64  // the latency's 95th percentile; nil without requests
	Up        *float64  // the share of health checks up, 0..1; nil unknown
}

// Source reads the traffic history of one service ("" for the panel's
// totals) between from and to, one Sample per minute at least for the
// minutes with data (a missing minute had no requests).
type Source interface {
	Window(ctx context.Context, serviceID string, from, to time.Time) ([]Sample, error)
}

// Notifier sends an event to the channels now (notify.Service.Send): the
// episodes in the database are the deduplication, not a debounce.
type Notifier interface {
	Send(ctx context.Context, ev notify.Event)
}

// Deps are the service's collaborators.
type Deps struct {
	DB     *gorm.DB
	Now    func() time.Time
	Logger *slog.Logger
	// Source is the traffic history; nil leaves the rules unevaluated.
	Source Source
	// Notify receives firing and resolved events; nil drops them.
	Notify Notifier
	// ServiceNames maps service ids to names (rules name their service).
	ServiceNames func(ctx context.Context) (map[string]string, error)
	// Settle is how long after a minute ends its figures are trusted
	// complete (the history is written once a minute); 0 means 1 minute,
	// a negative value none (tests).
	Settle time.Duration
}

// Service keeps the rules and their episodes and evaluates them.
type Service struct {
	d  Deps
	db *gorm.DB
}

// NewService returns the alerts service; its LeaderLoops evaluate.
func NewService(d Deps) *Service {
	if d.Logger == nil {
		d.Logger = slog.New(slog.DiscardHandler)
	}
	if d.Now == nil {
		d.Now = store.Now
	}
	if d.Settle == 0 {
		d.Settle = time.Minute
	}
	if d.Settle < 0 {
		d.Settle = 0
	}
	return &Service{d: d, db: d.DB}
}

func (s *Service) names(ctx context.Context) (map[string]string, error) {
	if s.d.ServiceNames == nil {
		return map[string]string{}, nil
	}
	return s.d.ServiceNames(ctx)
}

// ListRules returns every rule, by name.
func (s *Service) ListRules(ctx context.Context) ([]Rule, error) {
	var rows []ruleRow
	if err := s.db.WithContext(ctx).Order("name").Find(&rows).Error; err != nil {
		return nil, fmt.Errorf("list alert rules: %w", err)
	}
	var open []string
	if err := s.db.WithContext(ctx).Model(&eventRow{}).Where("resolved_at IS NULL").Pluck("rule_id", &open).Error; err != nil {
		return nil, fmt.Errorf("list firing alerts: %w", err)
	}
	firing := map[string]bool{}
	for _, id := range open {
		firing[id] = true
	}
	names, err := s.names(ctx)
	if err != nil {
		return nil, err
	}
	out := make([]Rule, len(rows))
	for i, r := range rows {
		out[i] = toRule(r, names, firing[r.ID])
	}
	return out, nil
}

// GetRule returns one rule.
func (s *Service) GetRule(ctx context.Context, id string) (Rule, error) {
	r, err := s.rule(ctx, s.db, id)
	if err != nil {
		return Rule{}, err
	}
	var n int64
	if err := s.db.WithContext(ctx).Model(&eventRow{}).Where("rule_id = ? AND resolved_at IS NULL", id).Count(&n).Error; err != nil {
		return Rule{}, fmt.Errorf("read alert rule: %w", err)
	}
	names, err := s.names(ctx)
	if err != nil {
		return Rule{}, err
	}
	return toRule(r, names, n > 0), nil
}

func (s *Service) rule(ctx context.Context, db *gorm.DB, id string) (ruleRow, error) {
	var r ruleRow
	if len(id) > maxIDLen {
		return r, apperr.NotFound("alert rule")
	}
	err := db.WithContext(ctx).Where("id = ?", id).Take(&r).Error
	if errors.Is(err, gorm.ErrRecordNotFound) {
		return r, apperr.NotFound("alert rule")
	}
	if err != nil {
		return r, fmt.Errorf("read alert rule: %w", err)
	}
	return r, nil
}

// CreateRule adds a rule.
func (s *Service) CreateRule(ctx context.Context, req RuleRequest) (Rule, error) {
	req, err := s.check(ctx, req)
	if err != nil {
		return Rule{}, err
	}
	now := s.d.Now()
	r := ruleRow{ID: store.NewID(), CreatedAt: now}
	fill(&r, req, now)
	err = s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		var n int64
		if err := tx.Model(&ruleRow{}).Count(&n).Error; err != nil {
			return err
		}
		if n >= maxRules {
			return apperr.Conflict("", "at most %d alert rules", maxRules)
		}
		if err := uniqueName(tx, r.Name, ""); err != nil {
			return err
		}
		return tx.Create(&r).Error
	})
	if err != nil {
		return Rule{}, wrap("create alert rule", err)
	}
	return s.GetRule(ctx, r.ID)
}

// UpdateRule replaces a rule. An open episode stays open: the next
// evaluation resolves it if the changed rule no longer holds.
func (s *Service) UpdateRule(ctx context.Context, id string, req RuleRequest) (Rule, error) {
	req, err := s.check(ctx, req)
	if err != nil {
		return Rule{}, err
	}
	err = s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		r, err := s.rule(ctx, tx, id)
		if err != nil {
			return err
		}
		fill(&r, req, s.d.Now())
		if err := uniqueName(tx, r.Name, id); err != nil {
			return err
		}
		return tx.Save(&r).Error
	})
	if err != nil {
		return Rule{}, wrap("update alert rule", err)
	}
	return s.GetRule(ctx, id)
}

// DeleteRule removes a rule; an open episode is resolved (and said so).
func (s *Service) DeleteRule(ctx context.Context, id string) error {
	var closed []eventRow
	err := s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		if _, err := s.rule(ctx, tx, id); err != nil {
			return err
		}
		var err error
		if closed, err = s.closeOpen(tx, "rule_id = ?", id, "rule_removed"); err != nil {
			return err
		}
		return tx.Where("id = ?", id).Delete(&ruleRow{}).Error
	})
	if err != nil {
		return wrap("delete alert rule", err)
	}
	for _, e := range closed {
		s.send(ctx, resolvedEvent(e, nil))
	}
	return nil
}

// check normalizes req and checks that its service exists.
func (s *Service) check(ctx context.Context, req RuleRequest) (RuleRequest, error) {
	req, err := normalize(req)
	if err != nil {
		return req, err
	}
	if req.ServiceID != nil {
		names, err := s.names(ctx)
		if err != nil {
			return req, err
		}
		if _, ok := names[*req.ServiceID]; !ok {
			return req, apperr.Field("serviceId", "no service has this id")
		}
	}
	return req, nil
}

func fill(r *ruleRow, req RuleRequest, now time.Time) {
	r.Name, r.ServiceID, r.Kind, r.Threshold, r.ForMinutes = req.Name, req.ServiceID, string(req.Kind), req.Threshold, req.ForMinutes
	r.Enabled = req.Enabled == nil || *req.Enabled
	r.UpdatedAt = now
}

func uniqueName(tx *gorm.DB, name, except string) error {
	var n int64
	if err := tx.Model(&ruleRow{}).Where("name = ? AND id <> ?", name, except).Count(&n).Error; err != nil {
		return err
	}
	if n > 0 {
		return apperr.Conflict("name", "an alert rule with this name exists")
	}
	return nil
}

func wrap(what string, err error) error {
	if _, ok := apperr.As(err); ok {
		return err
	}
	return fmt.Errorf("%s: %w", what, err)
}

func toRule(r ruleRow, names map[string]string, firing bool) Rule {
	out := Rule{ID: r.ID, Name: r.Name, ServiceID: r.ServiceID, Kind: Kind(r.Kind), Threshold: r.Threshold,
		ForMinutes: r.ForMinutes, Enabled: r.Enabled, Firing: firing, CreatedAt: r.CreatedAt, UpdatedAt: r.UpdatedAt}
	if r.ServiceID != nil {
		out.ServiceName = names[*r.ServiceID]
	}
	return out
}

// ListEvents returns the episodes, newest first.
func (s *Service) ListEvents(ctx context.Context, f EventFilter) ([]Event, error) {
	q := s.db.WithContext(ctx).Model(&eventRow{})
	if f.RuleID != "" {
		q = q.Where("rule_id = ?", f.RuleID)
	}
	if f.ServiceID != "" {
		q = q.Where("service_id = ?", f.ServiceID)
	}
	switch f.State {
	case Firing:
		q = q.Where("resolved_at IS NULL")
	case Resolved:
		q = q.Where("resolved_at IS NOT NULL")
	}
	limit := f.Limit
	if limit <= 0 {
		limit = defaultEventList
	}
	var rows []eventRow
	if err := q.Order("fired_at DESC, id").Limit(min(limit, maxEventList)).Find(&rows).Error; err != nil {
		return nil, fmt.Errorf("list alert events: %w", err)
	}
	out := make([]Event, len(rows))
	for i, r := range rows {
		out[i] = toEvent(r)
	}
	return out, nil
}

func toEvent(r eventRow) Event {
	e := Event{ID: r.ID, RuleID: r.RuleID, RuleName: r.RuleName, ServiceID: r.ServiceID, ServiceName: r.ServiceName,
		Kind: Kind(r.Kind), Threshold: r.Threshold, ForMinutes: r.ForMinutes, State: Firing, Value: r.Value,
		FiredAt: r.FiredAt, ResolvedAt: r.ResolvedAt, ResolvedValue: r.ResolvedValue, Resolution: r.Resolution}
	if r.ResolvedAt != nil {
		e.State = Resolved
	}
	return e
}

func (s *Service) send(ctx context.Context, ev notify.Event) {
	if s.d.Notify != nil {
		s.d.Notify.Send(ctx, ev)
	}
}
