package traffic

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/gatehouse-proxy/gatehouse/internal/store"
)

// MaxListPoints bounds the sparkline points of GET /api/traffic/services.
const MaxListPoints = 200

// Services answers GET /api/traffic/services: every enabled service's
// requests and 5xx over [from, to] with a sparkline of points points,
// busiest first.
func (s *Service) Services(ctx context.Context, from, to time.Time, points int) (ServicesTraffic, error) {
	p := s.plan(from, to, points)
	out := ServicesTraffic{Source: SourcePanel, StepSeconds: p.step, Time: make([]int64, p.points()),
		Services: []ServiceTraffic{}}
	for i := range out.Time {
		out.Time[i] = p.first + int64(i)*p.step
	}
	var ids []string
	names := map[string]string{}
	if s.d.Services != nil {
		if err := s.d.Services.EachEnabledOf(ctx, []string{"id", "name"}, func(r store.Service) error {
			ids = append(ids, r.ID)
			names[r.ID] = r.Name
			return nil
		}); err != nil {
			return out, fmt.Errorf("list services: %w", err)
		}
	}
	byID := make(map[string]*ServiceTraffic, len(ids))
	for _, id := range ids {
		byID[id] = &ServiceTraffic{ServiceID: id, Name: names[id], Points: make([]int64, p.points())}
	}
	var found bool
	if s.d.Prometheus != nil {
		out.Source = SourcePrometheus
		var err error
		if found, err = s.d.Prometheus.services(ctx, p, byID, s.promNames); err != nil {
			return out, err
		}
	} else {
		for i := 0; i < len(ids); i += batch {
			var rows []sampleRow
			if err := s.d.DB.WithContext(ctx).
				Select("service_id", "at", "req_2xx", "req_3xx", "req_4xx", "req_5xx").
				Where("service_id IN ? AND res = ? AND at >= ? AND at < ?", ids[i:min(i+batch, len(ids))], p.res,
					p.first, p.last+p.step).Find(&rows).Error; err != nil {
				return out, fmt.Errorf("read traffic: %w", err)
			}
			for k := range rows {
				r := &rows[k]
				st := byID[r.ServiceID]
				if st == nil || r.At < p.first {
					continue
				}
				found = true
				n := r.requests()
				st.Requests += n
				st.Errors5xx += r.Req5xx
				if j := int((r.At - p.first) / p.step); j < len(st.Points) {
					st.Points[j] += n
				}
			}
		}
	}
	for _, id := range ids {
		st := byID[id]
		if st.Requests > 0 {
			st.ErrorRatio = roundTo(float64(st.Errors5xx)/float64(st.Requests), 4)
		}
		out.Services = append(out.Services, *st)
	}
	slices.SortStableFunc(out.Services, func(a, b ServiceTraffic) int {
		if c := cmp.Compare(b.Requests, a.Requests); c != 0 {
			return c
		}
		return cmp.Compare(a.Name, b.Name)
	})
	out.State, out.Reason = s.state(found)
	return out, nil
}
