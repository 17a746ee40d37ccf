package traffic

import (
	"context"
	"fmt"
	"math"
	"time"
)

// steps are the steps a range is cut into, shortest first.
var steps = []int64{60, 120, 300, 600, 900, 1800, 3600, 7200, 10800, 21600, 43200, 86400}

// maxPoints bounds a chart's points: 1 h is 60 minutes, 24 h 288 steps of
// five minutes, 7 d 168 hours, 30 d 360 steps of two hours.
const maxPoints = 360

// plan is a range cut into steps: points first, first+step, ... last
// (unix seconds), read from rows of resolution res.
type plan struct {
	first, last, step int64
	res               int
	from, to          time.Time
}

func (p plan) points() int { return int((p.last-p.first)/p.step) + 1 }

// plan chooses the step for [from, to] with at most points points; minute
// rows serve it only if they still hold from.
func (s *Service) plan(from, to time.Time, points int) plan {
	d := to.Sub(from).Seconds()
	step := steps[len(steps)-1]
	for _, st := range steps {
		if d/float64(st) <= float64(points) {
			step = st
			break
		}
	}
	if step < resHour && from.Before(s.d.Now().Add(-s.d.MinuteRetention)) {
		step = resHour
		for step < steps[len(steps)-1] && d/float64(step) > float64(points) {
			step *= 2
		}
	}
	p := plan{step: step, res: resMinute, from: from.UTC(), to: to.UTC()}
	if step >= resHour {
		p.res = resHour
	}
	p.first = from.Unix() / step * step
	p.last = to.Unix() / step * step
	return p
}

// grid holds a range's figures per point while an answer is built.
type grid struct {
	plan
	samples   bool // any row of Traefik's figures
	decided   bool // any row of decisions
	classes   [4][]float64
	bytesIn   []float64
	bytesOut  []float64
	hists     []hist
	quantiles *[3][]*float64 // computed by the source (Prometheus) instead of hists
	up        []float64
	checks    []float64
	decisions [numDecisions][]float64
	upKnown   []bool // up was given directly as a share (Prometheus)
}

func newGrid(p plan) *grid {
	n := p.points()
	g := &grid{plan: p, bytesIn: make([]float64, n), bytesOut: make([]float64, n), hists: make([]hist, n),
		up: make([]float64, n), checks: make([]float64, n)}
	for i := range g.classes {
		g.classes[i] = make([]float64, n)
	}
	for i := range g.decisions {
		g.decisions[i] = make([]float64, n)
	}
	return g
}

// index is the point at unix time at falls in, or -1.
func (g *grid) index(at int64) int {
	if at < g.first || at >= g.last+g.step {
		return -1
	}
	return int((at - g.first) / g.step)
}

func (g *grid) addSample(r *sampleRow) {
	i := g.index(r.At)
	if i < 0 {
		return
	}
	g.samples = true
	for k, v := range [4]int64{r.Req2xx, r.Req3xx, r.Req4xx, r.Req5xx} {
		g.classes[k][i] += float64(v)
	}
	g.bytesIn[i] += float64(r.BytesIn)
	g.bytesOut[i] += float64(r.BytesOut)
	g.up[i] += float64(r.Up)
	g.checks[i] += float64(r.Checks)
	if r.Latency != "" {
		if g.hists[i] == nil {
			g.hists[i] = hist{}
		}
		decodeInto(g.hists[i], r.Latency)
	}
}

func (g *grid) addDecision(r *decisionRow) {
	i := g.index(r.At)
	if i < 0 {
		return
	}
	g.decided = true
	for k, v := range r.counts() {
		g.decisions[k][i] += float64(v)
	}
}

// readRows fills g with the stored rows of service: the minute rows, or
// the hour rows and, for the last hours not rolled up yet, the minute
// rows.
func (s *Service) readRows(ctx context.Context, g *grid, service string, samples bool) error {
	db := s.d.DB.WithContext(ctx)
	end := g.last + g.step
	key := seriesKey{service, ""}
	ids, err := s.series.ids(ctx, s.d.DB, []seriesKey{key}, false)
	if err != nil {
		return err
	}
	own, hasOwn := ids[key]
	recent := max(g.first, (s.d.Now().Unix()/resHour-recentHours)*resHour)
	if samples && hasOwn {
		rolled := map[int64]bool{}
		if g.res == resHour {
			var rows []sampleRow
			if err := db.Where("series = ? AND res = ? AND at >= ? AND at < ?", own, resHour, g.first, end).Find(&rows).Error; err != nil {
				return fmt.Errorf("read traffic: %w", err)
			}
			for i := range rows {
				rolled[rows[i].At] = true
				g.addSample(&rows[i])
			}
		}
		from := g.first
		if g.res == resHour {
			from = recent
		}
		var rows []sampleRow
		if err := db.Where("series = ? AND res = ? AND at >= ? AND at < ?", own, resMinute, from, end).Find(&rows).Error; err != nil {
			return fmt.Errorf("read traffic: %w", err)
		}
		for i := range rows {
			if !rolled[rows[i].At/resHour*resHour] {
				g.addSample(&rows[i])
			}
		}
	}
	reps, err := replicasOf(ctx, s.d.DB, service)
	if err != nil || len(reps) == 0 {
		return err
	}
	rolled := map[int64]bool{}
	from := g.first
	if g.res == resHour {
		from = recent
		if hasOwn {
			var rows []decisionRow
			if err := db.Where("series = ? AND res = ? AND at >= ? AND at < ?", own, resHour, g.first, end).Find(&rows).Error; err != nil {
				return fmt.Errorf("read decisions: %w", err)
			}
			for i := range rows {
				rolled[rows[i].At] = true
				g.addDecision(&rows[i])
			}
		}
	}
	var rows []decisionRow
	if err := db.Where("series IN ? AND res = ? AND at >= ? AND at < ?", reps, resMinute, from, end).Find(&rows).Error; err != nil {
		return fmt.Errorf("read decisions: %w", err)
	}
	for i := range rows {
		if !rolled[rows[i].At/resHour*resHour] {
			g.addDecision(&rows[i])
		}
	}
	return nil
}

// Query answers GET /api/traffic (serviceID Global) and GET
// /api/services/{id}/traffic for [from, to].
func (s *Service) Query(ctx context.Context, serviceID string, from, to time.Time) (Series, error) {
	return s.query(ctx, serviceID, s.plan(from, to, maxPoints))
}

// Window is the figures of service serviceID (Global: all of them) over
// [from, to], at the finest step the stored rows allow: what the alerts
// evaluate.
func (s *Service) Window(ctx context.Context, serviceID string, from, to time.Time) (Series, error) {
	return s.query(ctx, serviceID, s.plan(from, to, maxPoints))
}

func (s *Service) query(ctx context.Context, serviceID string, p plan) (Series, error) {
	g := newGrid(p)
	source := SourcePanel
	if s.d.Prometheus != nil {
		source = SourcePrometheus
		if err := s.d.Prometheus.fill(ctx, g, serviceID, s.promNames); err != nil {
			return Series{}, err
		}
	}
	if err := s.readRows(ctx, g, serviceID, s.d.Prometheus == nil); err != nil {
		return Series{}, err
	}
	out := g.series(s.written())
	out.Source = source
	out.State, out.Reason = s.state(g.samples || g.decided)
	return out, nil
}

// written is the start of the first minute not stored yet: later points
// are null rather than zero.
func (s *Service) written() int64 { return s.d.Now().Unix() / resMinute * resMinute }

// state says whether an answer has anything to show, and if not why.
func (s *Service) state(found bool) (string, string) {
	if s.d.Prometheus == nil && s.d.MetricsReason != "" {
		return StateNoMetrics, s.d.MetricsReason
	}
	s.mu.Lock()
	lastErr := s.lastErr
	s.mu.Unlock()
	if !found {
		reason := "No request has been recorded in this range yet."
		if lastErr != "" {
			reason += " The last read of Traefik's metrics failed: " + lastErr
		}
		return StateNoTraffic, reason
	}
	if lastErr != "" && s.d.Prometheus == nil {
		return StateOK, "The last read of Traefik's metrics failed: " + lastErr
	}
	return StateOK, ""
}

// series turns the grid into the answer; points at or after written are
// null.
func (g *grid) series(written int64) Series {
	n := g.points()
	out := Series{From: g.from, To: g.to, StepSeconds: g.step, Time: make([]int64, n)}
	v := &out.Series
	cols := []*[]*float64{&v.Requests2xx, &v.Requests3xx, &v.Requests4xx, &v.Requests5xx, &v.LatencyP50Ms,
		&v.LatencyP95Ms, &v.LatencyP99Ms, &v.BytesIn, &v.BytesOut, &v.Allowed, &v.SignedIn, &v.Challenged,
		&v.Denied, &v.RateLimited, &v.Up}
	for _, c := range cols {
		*c = make([]*float64, n)
	}
	num := func(x float64) *float64 { return &x }
	for i := range n {
		t := g.first + int64(i)*g.step
		out.Time[i] = t
		if t >= written {
			continue
		}
		for k, c := range [4][]*float64{v.Requests2xx, v.Requests3xx, v.Requests4xx, v.Requests5xx} {
			c[i] = num(g.classes[k][i])
		}
		v.BytesIn[i], v.BytesOut[i] = num(g.bytesIn[i]), num(g.bytesOut[i])
		for k, c := range [numDecisions][]*float64{v.Allowed, v.SignedIn, v.Challenged, v.Denied, v.RateLimited} {
			c[i] = num(g.decisions[k][i])
		}
		switch {
		case g.upKnown != nil:
			if g.upKnown[i] {
				v.Up[i] = num(g.up[i])
			}
		case g.checks[i] > 0:
			v.Up[i] = num(roundTo(g.up[i]/g.checks[i], 4))
		}
		if g.quantiles != nil {
			v.LatencyP50Ms[i], v.LatencyP95Ms[i], v.LatencyP99Ms[i] = g.quantiles[0][i], g.quantiles[1][i], g.quantiles[2][i]
		} else if h := g.hists[i]; h != nil {
			for k, q := range [3]float64{0.5, 0.95, 0.99} {
				if sec, ok := h.quantile(q); ok {
					[3][]*float64{v.LatencyP50Ms, v.LatencyP95Ms, v.LatencyP99Ms}[k][i] = num(roundTo(sec*1000, 3))
				}
			}
		}
		out.Totals.Requests += toInt(g.classes[0][i] + g.classes[1][i] + g.classes[2][i] + g.classes[3][i])
		out.Totals.Errors5xx += toInt(g.classes[3][i])
		out.Totals.BytesIn += toInt(g.bytesIn[i])
		out.Totals.BytesOut += toInt(g.bytesOut[i])
		out.Totals.Denied += toInt(g.decisions[DecisionDenied][i])
	}
	return out
}

func roundTo(v float64, digits int) float64 {
	p := math.Pow(10, float64(digits))
	return math.Round(v*p) / p
}
