package traffic

import (
	"context"
	"fmt"
	"math/rand/v2"
	"sync"

	"gorm.io/gorm"
	"gorm.io/gorm/clause"
)

// seriesKey names a series: a service's figures as one writer keeps them
// (Traefik's and the rolled-up decisions under replica "").
type seriesKey struct{ service, replica string }

// seriesRow is a row of traffic_series.
type seriesRow struct {
	ID        int64  `gorm:"column:id;primaryKey;autoIncrement:false"`
	ServiceID string `gorm:"column:service_id"`
	Replica   string `gorm:"column:replica"`
}

func (seriesRow) TableName() string { return "traffic_series" }

// seriesCache remembers series ids: a series is never deleted, so an id
// once read stays right.
type seriesCache struct {
	mu    sync.Mutex
	known map[seriesKey]int64
}

// ids returns the ids of keys, creating the missing ones when create is
// set (otherwise a series never written is left out).
func (c *seriesCache) ids(ctx context.Context, db *gorm.DB, keys []seriesKey, create bool) (map[seriesKey]int64, error) {
	out := make(map[seriesKey]int64, len(keys))
	var missing []seriesKey
	c.mu.Lock()
	if c.known == nil {
		c.known = map[seriesKey]int64{}
	}
	for _, k := range keys {
		if id, ok := c.known[k]; ok {
			out[k] = id
		} else {
			missing = append(missing, k)
		}
	}
	c.mu.Unlock()
	for attempt := 0; len(missing) > 0; attempt++ {
		if err := c.load(ctx, db, missing, out); err != nil {
			return nil, err
		}
		missing = missing[:0:0]
		for _, k := range keys {
			if _, ok := out[k]; !ok {
				missing = append(missing, k)
			}
		}
		if !create || len(missing) == 0 {
			break
		}
		if attempt == 4 {
			return nil, fmt.Errorf("create %d traffic series: ids kept clashing", len(missing))
		}
		// Random ids: replicas create series at once without a sequence
		// PostgreSQL and SQLite would spell differently. A clash (on the
		// id, or another replica creating the same series) inserts
		// nothing, and the next round reads what is there.
		rows := make([]seriesRow, len(missing))
		for i, k := range missing {
			rows[i] = seriesRow{ID: rand.Int64N(1<<31) + 1, ServiceID: k.service, Replica: k.replica} //nolint:gosec // an id, not a secret
		}
		for i := 0; i < len(rows); i += batch {
			part := rows[i:min(i+batch, len(rows))]
			if err := db.WithContext(ctx).Clauses(clause.OnConflict{DoNothing: true}).Create(&part).Error; err != nil {
				return nil, fmt.Errorf("create traffic series: %w", err)
			}
		}
	}
	return out, nil
}

// load reads the ids of keys into out and the cache.
func (c *seriesCache) load(ctx context.Context, db *gorm.DB, keys []seriesKey, out map[seriesKey]int64) error {
	want := make(map[seriesKey]bool, len(keys))
	services := make([]string, 0, len(keys))
	seen := map[string]bool{}
	for _, k := range keys {
		want[k] = true
		if !seen[k.service] {
			seen[k.service] = true
			services = append(services, k.service)
		}
	}
	for i := 0; i < len(services); i += batch {
		var rows []seriesRow
		if err := db.WithContext(ctx).Where("service_id IN ?", services[i:min(i+batch, len(services))]).
			Find(&rows).Error; err != nil {
			return fmt.Errorf("read traffic series: %w", err)
		}
		c.mu.Lock()
		for _, r := range rows {
			k := seriesKey{r.ServiceID, r.Replica}
			c.known[k] = r.ID
			if want[k] {
				out[k] = r.ID
			}
		}
		c.mu.Unlock()
	}
	return nil
}

// replicasOf returns the ids of every series of service (each replica's
// decisions, and Traefik's under "").
func replicasOf(ctx context.Context, db *gorm.DB, service string) ([]int64, error) {
	var ids []int64
	if err := db.WithContext(ctx).Model(&seriesRow{}).Where("service_id = ?", service).Pluck("id", &ids).Error; err != nil {
		return nil, fmt.Errorf("read traffic series: %w", err)
	}
	return ids, nil
}
