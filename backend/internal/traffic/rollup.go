package traffic

import (
	"context"
	"fmt"
	"time"

	"gorm.io/gorm"
)

// rollupDelay is how long after an hour ends it is rolled up: every
// replica has written that hour's last minute by then.
const rollupDelay = 3 * time.Minute

// recentHours is how far back a chart at hourly steps reads minute rows
// for the hours not rolled up yet.
const recentHours = 3

// Rollup sums each finished hour's minute rows into one row per series
// (the decisions of every replica into the service's own series), once;
// a leader that was away catches up on the hours the minute rows still
// hold.
func (s *Service) Rollup(ctx context.Context) error {
	now := s.d.Now().Unix()
	last := (now - int64(rollupDelay/time.Second) - resHour) / resHour * resHour
	first := (now-int64(s.d.MinuteRetention/time.Second))/resHour*resHour + resHour
	s.mu.Lock()
	if s.rolled+resHour > first {
		first = s.rolled + resHour
	}
	s.mu.Unlock()
	if first > last {
		return nil
	}
	var all []seriesRow
	if err := s.d.DB.WithContext(ctx).Find(&all).Error; err != nil {
		return fmt.Errorf("read traffic series: %w", err)
	}
	for h := first; h <= last; h += resHour {
		if err := s.rollHour(ctx, all, h); err != nil {
			return err
		}
		s.mu.Lock()
		s.rolled = h
		s.mu.Unlock()
	}
	return nil
}

// rollHour rolls hour h up, unless it was already.
func (s *Service) rollHour(ctx context.Context, all []seriesRow, h int64) error {
	db := s.d.DB.WithContext(ctx)
	var global int64 = -1
	for _, r := range all {
		if r.ServiceID == Global && r.Replica == "" {
			global = r.ID
		}
	}
	if global >= 0 {
		var n int64
		if err := db.Model(&sampleRow{}).Where("series = ? AND res = ? AND at = ?", global, resHour, h).Count(&n).Error; err != nil {
			return fmt.Errorf("read traffic roll-up: %w", err)
		}
		var m int64
		if err := db.Model(&decisionRow{}).Where("series = ? AND res = ? AND at = ?", global, resHour, h).Count(&m).Error; err != nil {
			return fmt.Errorf("read traffic roll-up: %w", err)
		}
		if n+m > 0 {
			return nil
		}
	}
	service := make(map[int64]string, len(all))
	var own, ids []int64 // Traefik's series; every series
	for _, r := range all {
		service[r.ID] = r.ServiceID
		ids = append(ids, r.ID)
		if r.Replica == "" {
			own = append(own, r.ID)
		}
	}
	samples := map[int64]*sampleRow{}
	hists := map[int64]hist{}
	for i := 0; i < len(own); i += batch {
		var rows []sampleRow
		if err := db.Where("series IN ? AND res = ? AND at >= ? AND at < ?", own[i:min(i+batch, len(own))], resMinute, h, h+resHour).
			Find(&rows).Error; err != nil {
			return fmt.Errorf("read traffic minutes: %w", err)
		}
		for k := range rows {
			r := &rows[k]
			sum := samples[r.Series]
			if sum == nil {
				sum = &sampleRow{Series: r.Series, Res: resHour, At: h}
				samples[r.Series] = sum
			}
			sum.add(r)
			if r.Latency != "" {
				if hists[r.Series] == nil {
					hists[r.Series] = hist{}
				}
				decodeInto(hists[r.Series], r.Latency)
			}
		}
	}
	decided := map[string][numDecisions]int64{}
	for i := 0; i < len(ids); i += batch {
		var rows []decisionRow
		if err := db.Where("series IN ? AND res = ? AND at >= ? AND at < ?", ids[i:min(i+batch, len(ids))], resMinute, h, h+resHour).
			Find(&rows).Error; err != nil {
			return fmt.Errorf("read decision minutes: %w", err)
		}
		for k := range rows {
			c := decided[service[rows[k].Series]]
			for j, v := range rows[k].counts() {
				c[j] += v
			}
			decided[service[rows[k].Series]] = c
		}
	}
	if len(samples) == 0 && len(decided) == 0 {
		return nil
	}
	hourSamples := make([]sampleRow, 0, len(samples))
	for id, r := range samples {
		r.Latency = hists[id].encode()
		hourSamples = append(hourSamples, *r)
	}
	keys := make([]seriesKey, 0, len(decided))
	for svc := range decided {
		keys = append(keys, seriesKey{svc, ""})
	}
	hourIDs, err := s.series.ids(ctx, s.d.DB, keys, true)
	if err != nil {
		return err
	}
	hourDecisions := make([]decisionRow, 0, len(decided))
	for _, k := range keys {
		r := decisionRow{Series: hourIDs[k], Res: resHour, At: h}
		r.set(decided[k.service])
		hourDecisions = append(hourDecisions, r)
	}
	return s.d.DB.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		if err := writeSamples(ctx, tx, hourSamples, true); err != nil {
			return err
		}
		return writeDecisions(ctx, tx, hourDecisions, true)
	})
}
