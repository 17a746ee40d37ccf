package alerts

import (
	"context"
	"fmt"
	"time"

	"gorm.io/gorm"

	"github.com/gatehouse-proxy/gatehouse/internal/background"
)

// EvaluateEvery is how often the leader evaluates the rules.
const EvaluateEvery = time.Minute

// noTrafficLookback is how far before a quiet stretch a no_traffic rule
// looks for the traffic that stopped.
const noTrafficLookback = time.Hour

// LeaderLoops are the leader's work: evaluating every rule once a minute,
// so that each episode fires once for all replicas.
func (s *Service) LeaderLoops() []background.Loop {
	return []background.Loop{background.Every("alert evaluation", EvaluateEvery, func(ctx context.Context) {
		if err := s.Evaluate(ctx); err != nil && ctx.Err() == nil {
			s.d.Logger.Warn("alerts: evaluation", "err", err)
		}
	})}
}

// Evaluate checks every enabled rule against the history up to the last
// settled minute: a rule without an open episode whose condition held for
// its minutes fires; an open episode whose rule recovered in the last
// minute resolves. Episodes of rules removed (with their service) or
// disabled are resolved too.
func (s *Service) Evaluate(ctx context.Context) error {
	now := s.d.Now()
	to := now.Add(-s.d.Settle).Truncate(time.Minute)
	var rules []ruleRow
	if err := s.db.WithContext(ctx).Find(&rules).Error; err != nil {
		return fmt.Errorf("list alert rules: %w", err)
	}
	var openRows []eventRow
	if err := s.db.WithContext(ctx).Where("resolved_at IS NULL").Find(&openRows).Error; err != nil {
		return fmt.Errorf("list open alerts: %w", err)
	}
	open := map[string]eventRow{}
	for _, e := range openRows {
		open[e.RuleID] = e
	}
	live := map[string]bool{}
	for _, r := range rules {
		live[r.ID] = true
		if !r.Enabled {
			if e, ok := open[r.ID]; ok {
				s.closeWithout(ctx, e, "rule_disabled")
			}
		}
	}
	for _, e := range openRows {
		if !live[e.RuleID] {
			s.closeWithout(ctx, e, "rule_removed")
		}
	}
	if s.d.Source == nil {
		return nil
	}
	names, err := s.names(ctx)
	if err != nil {
		return err
	}
	for _, r := range rules {
		if !r.Enabled {
			continue
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		e, firing := open[r.ID]
		if err := s.evaluate(ctx, r, e, firing, to, now, names); err != nil {
			s.d.Logger.Debug("alerts: rule not evaluated", "rule", r.ID, "err", err)
		}
	}
	return nil
}

func (s *Service) evaluate(ctx context.Context, r ruleRow, open eventRow, firing bool, to, now time.Time, names map[string]string) error {
	n := time.Duration(r.ForMinutes) * time.Minute
	from := to.Add(-n)
	if Kind(r.Kind) == NoTraffic {
		from = from.Add(-noTrafficLookback)
	}
	svc := ""
	if r.ServiceID != nil {
		svc = *r.ServiceID
	}
	samples, err := s.d.Source.Window(ctx, svc, from, to)
	if err != nil {
		return err
	}
	a := assess(Kind(r.Kind), r.Threshold, r.ForMinutes, samples, to)
	switch {
	case !firing && a.fire:
		e := eventRow{ID: newID(), RuleID: r.ID, RuleName: r.Name, ServiceID: r.ServiceID, Kind: r.Kind,
			Threshold: r.Threshold, ForMinutes: r.ForMinutes, Value: a.value, FiredAt: now}
		if r.ServiceID != nil {
			e.ServiceName = names[*r.ServiceID]
		}
		// The partial unique index refuses a second open episode: a
		// leader that overlapped another for a moment fires nothing twice.
		if err := s.db.WithContext(ctx).Create(&e).Error; err != nil {
			return fmt.Errorf("record firing: %w", err)
		}
		s.send(ctx, firingEvent(e))
	case firing && a.recovered:
		res := s.db.WithContext(ctx).Model(&eventRow{}).Where("id = ? AND resolved_at IS NULL", open.ID).
			Updates(map[string]any{"resolved_at": now, "resolved_value": a.last, "resolution": "recovered"})
		if res.Error != nil {
			return fmt.Errorf("record recovery: %w", res.Error)
		}
		if res.RowsAffected == 1 {
			open.ResolvedAt, open.ResolvedValue, open.Resolution = &now, a.last, "recovered"
			s.send(ctx, resolvedEvent(open, a.last))
		}
	}
	return nil
}

// closeOpen resolves the open episodes matching where without recovery,
// inside tx, and returns them as resolved.
func (s *Service) closeOpen(tx *gorm.DB, where string, arg any, resolution string) ([]eventRow, error) {
	var rows []eventRow
	if err := tx.Where("resolved_at IS NULL").Where(where, arg).Find(&rows).Error; err != nil {
		return nil, err
	}
	now := s.d.Now()
	for i := range rows {
		if err := tx.Model(&eventRow{}).Where("id = ?", rows[i].ID).
			Updates(map[string]any{"resolved_at": now, "resolution": resolution}).Error; err != nil {
			return nil, err
		}
		rows[i].ResolvedAt, rows[i].Resolution = &now, resolution
	}
	return rows, nil
}

// closeWithout resolves one episode whose rule is gone or disabled, and
// tells the channels it is no longer watched.
func (s *Service) closeWithout(ctx context.Context, e eventRow, resolution string) {
	closed, err := s.closeOpen(s.db.WithContext(ctx), "id = ?", e.ID, resolution)
	if err != nil {
		s.d.Logger.Warn("alerts: close episode", "event", e.ID, "err", err)
		return
	}
	for _, c := range closed {
		s.send(ctx, resolvedEvent(c, nil))
	}
}

// assessment is what the history says of a rule.
type assessment struct {
	fire      bool     // the condition held for every minute of the rule
	recovered bool     // the last minute no longer meets the condition
	value     *float64 // the figure over the window (for a firing)
	last      *float64 // the last minute's figure (for a recovery)
}

// assess reads samples for the forMinutes minutes ending at to (the last
// one starting at to-1m). A minute without a sample had no requests and no
// known health.
func assess(k Kind, threshold float64, forMinutes int, samples []Sample, to time.Time) assessment {
	byMinute := make(map[int64]Sample, len(samples))
	for _, s := range samples {
		m := s.At.Unix() / 60
		cur := byMinute[m]
		cur.Requests += s.Requests
		cur.Errors5xx += s.Errors5xx
		if s.P95Ms != nil {
			cur.P95Ms = s.P95Ms
		}
		if s.Up != nil {
			cur.Up = s.Up
		}
		byMinute[m] = cur
	}
	end := to.Unix() / 60 // exclusive
	start := end - int64(forMinutes)
	at := func(m int64) Sample { return byMinute[m] }
	every := func(f func(Sample) bool) bool {
		for m := start; m < end; m++ {
			if !f(at(m)) {
				return false
			}
		}
		return true
	}
	last := at(end - 1)
	var a assessment
	switch k {
	case ErrorRatio:
		breach := func(s Sample) bool { return s.Requests > 0 && s.Errors5xx/s.Requests*100 > threshold }
		var req, errs float64
		for m := start; m < end; m++ {
			req += at(m).Requests
			errs += at(m).Errors5xx
		}
		if req > 0 {
			a.value = ptr(errs / req * 100)
		}
		a.fire, a.recovered = every(breach), !breach(last)
		if last.Requests > 0 {
			a.last = ptr(last.Errors5xx / last.Requests * 100)
		} else {
			a.last = ptr(0)
		}
	case LatencyP95:
		breach := func(s Sample) bool { return s.P95Ms != nil && *s.P95Ms > threshold }
		for m := start; m < end; m++ {
			if p := at(m).P95Ms; p != nil && (a.value == nil || *p > *a.value) {
				a.value = ptr(*p)
			}
		}
		a.fire, a.recovered, a.last = every(breach), !breach(last), last.P95Ms
	case NoTraffic:
		var before float64
		for m := start - int64(noTrafficLookback/time.Minute); m < start; m++ {
			before += at(m).Requests
		}
		a.fire = before > 0 && every(func(s Sample) bool { return s.Requests == 0 })
		a.value = ptr(0)
		a.recovered, a.last = last.Requests > 0, ptr(last.Requests)
	case BackendDown:
		breach := func(s Sample) bool { return s.Up != nil && *s.Up < 1 }
		var lowest *float64
		for m := start; m < end; m++ {
			if u := at(m).Up; u != nil && (lowest == nil || *u < *lowest) {
				lowest = ptr(*u)
			}
		}
		if lowest != nil {
			a.value = ptr(*lowest * 100)
		}
		a.fire = every(breach)
		a.recovered = last.Up != nil && *last.Up >= 1
		if last.Up != nil {
			a.last = ptr(*last.Up * 100)
		}
	}
	return a
}

func ptr(v float64) *float64 { return &v }
