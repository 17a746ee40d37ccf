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
		var err error
		if found, err = s.listRows(ctx, p, ids, byID); err != nil {
			return out, err
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

// listRows adds the services' stored requests to byID.
func (s *Service) listRows(ctx context.Context, p plan, ids []string, byID map[string]*ServiceTraffic) (bool, error) {
	keys := make([]seriesKey, len(ids))
	for i, id := range ids {
		keys[i] = seriesKey{id, ""}
	}
	series, err := s.series.ids(ctx, s.d.DB, keys, false)
	if err != nil {
		return false, err
	}
	of := make(map[int64]*ServiceTraffic, len(series))
	sids := make([]int64, 0, len(series))
	for k, id := range series {
		of[id] = byID[k.service]
		sids = append(sids, id)
	}
	end := p.last + p.step
	recent := max(p.first, (s.d.Now().Unix()/resHour-recentHours)*resHour)
	rolled := map[[2]int64]bool{}
	var found bool
	read := func(res int, from int64) error {
		for i := 0; i < len(sids); i += batch {
			var rows []sampleRow
			if err := s.d.DB.WithContext(ctx).Select("series", "at", "req_2xx", "req_3xx", "req_4xx", "req_5xx").
				Where("series IN ? AND res = ? AND at >= ? AND at < ?", sids[i:min(i+batch, len(sids))], res, from, end).
				Find(&rows).Error; err != nil {
				return fmt.Errorf("read traffic: %w", err)
			}
			for k := range rows {
				r := &rows[k]
				hour := [2]int64{r.Series, r.At / resHour * resHour}
				if res == resHour {
					rolled[hour] = true
				} else if rolled[hour] {
					continue
				}
				st := of[r.Series]
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
		return nil
	}
	if p.res == resHour {
		if err := read(resHour, p.first); err != nil {
			return false, err
		}
		return found, read(resMinute, recent)
	}
	return found, read(resMinute, p.first)
}
