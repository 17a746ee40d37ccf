package traffic

import (
	"context"
	"fmt"
	"math"
	"strings"

	"gorm.io/gorm"
	"gorm.io/gorm/clause"
)

// Resolutions of the stored rows, in seconds.
const (
	resMinute = 60
	resHour   = 3600
)

// Global is the service id of the rows that count every Traefik service
// (and every service's decisions) together.
const Global = ""

// sampleRow is one step of Traefik's figures for one service.
type sampleRow struct {
	ServiceID string `gorm:"column:service_id;primaryKey"`
	Res       int    `gorm:"column:res;primaryKey"`
	At        int64  `gorm:"column:at;primaryKey"`
	Req2xx    int64  `gorm:"column:req_2xx"`
	Req3xx    int64  `gorm:"column:req_3xx"`
	Req4xx    int64  `gorm:"column:req_4xx"`
	Req5xx    int64  `gorm:"column:req_5xx"`
	BytesIn   int64  `gorm:"column:bytes_in"`
	BytesOut  int64  `gorm:"column:bytes_out"`
	Latency   string `gorm:"column:latency"`
	Up        int    `gorm:"column:up"`
	Checks    int    `gorm:"column:checks"`
}

func (sampleRow) TableName() string { return "traffic_samples" }

func (r *sampleRow) requests() int64 { return r.Req2xx + r.Req3xx + r.Req4xx + r.Req5xx }

// decisionRow is one step of one replica's decisions for one service.
type decisionRow struct {
	ServiceID   string `gorm:"column:service_id;primaryKey"`
	Res         int    `gorm:"column:res;primaryKey"`
	At          int64  `gorm:"column:at;primaryKey"`
	Replica     string `gorm:"column:replica;primaryKey"`
	Allowed     int64  `gorm:"column:allowed"`
	SignedIn    int64  `gorm:"column:signed_in"`
	Challenged  int64  `gorm:"column:challenged"`
	Denied      int64  `gorm:"column:denied"`
	RateLimited int64  `gorm:"column:rate_limited"`
}

func (decisionRow) TableName() string { return "traffic_decisions" }

func (r *decisionRow) counts() [numDecisions]int64 {
	return [numDecisions]int64{r.Allowed, r.SignedIn, r.Challenged, r.Denied, r.RateLimited}
}

func (r *decisionRow) set(c [numDecisions]int64) {
	r.Allowed, r.SignedIn, r.Challenged, r.Denied, r.RateLimited = c[0], c[1], c[2], c[3], c[4]
}

// batch bounds the rows of one INSERT (PostgreSQL takes at most 65,535
// parameters, SQLite 32,766).
const batch = 500

// additive is the upsert that adds a row's counters to the stored ones:
// the hour rows grow by each minute written, and a minute written twice
// (a leader that changed mid-minute) adds up rather than fails.
func additive(cols []string, keys []string, extra ...clause.Assignment) clause.OnConflict {
	set := make([]clause.Assignment, 0, len(cols)+len(extra))
	for _, c := range cols {
		set = append(set, clause.Assignment{Column: clause.Column{Name: c},
			Value: gorm.Expr(c + " + excluded." + c)})
	}
	set = append(set, extra...)
	kc := make([]clause.Column, len(keys))
	for i, k := range keys {
		kc[i] = clause.Column{Name: k}
	}
	return clause.OnConflict{Columns: kc, DoUpdates: set}
}

var (
	sampleKeys   = []string{"service_id", "res", "at"}
	sampleSums   = []string{"req_2xx", "req_3xx", "req_4xx", "req_5xx", "bytes_in", "bytes_out", "up", "checks"}
	decisionKeys = []string{"service_id", "res", "at", "replica"}
	decisionSums = []string{"allowed", "signed_in", "challenged", "denied", "rate_limited"}
)

// writeSamples stores rows (minute rows, and the hour rows they add to,
// whose latency the caller has merged already).
func writeSamples(ctx context.Context, tx *gorm.DB, rows []sampleRow) error {
	up := additive(sampleSums, sampleKeys, clause.Assignment{Column: clause.Column{Name: "latency"},
		Value: gorm.Expr("excluded.latency")})
	for i := 0; i < len(rows); i += batch {
		part := rows[i:min(i+batch, len(rows))]
		if err := tx.WithContext(ctx).Clauses(up).Create(&part).Error; err != nil {
			return fmt.Errorf("store traffic samples: %w", err)
		}
	}
	return nil
}

func writeDecisions(ctx context.Context, tx *gorm.DB, rows []decisionRow) error {
	up := additive(decisionSums, decisionKeys)
	for i := 0; i < len(rows); i += batch {
		part := rows[i:min(i+batch, len(rows))]
		if err := tx.WithContext(ctx).Clauses(up).Create(&part).Error; err != nil {
			return fmt.Errorf("store traffic decisions: %w", err)
		}
	}
	return nil
}

// hourLatencies reads the stored latency of the hour rows of ids.
func hourLatencies(ctx context.Context, db *gorm.DB, hour int64, ids []string) (map[string]string, error) {
	out := map[string]string{}
	for i := 0; i < len(ids); i += batch {
		var rows []sampleRow
		if err := db.WithContext(ctx).Select("service_id", "latency").
			Where("service_id IN ? AND res = ? AND at = ?", ids[i:min(i+batch, len(ids))], resHour, hour).
			Find(&rows).Error; err != nil {
			return nil, fmt.Errorf("read hour latencies: %w", err)
		}
		for _, r := range rows {
			out[r.ServiceID] = r.Latency
		}
	}
	return out, nil
}

// prune deletes minute rows before minuteCut and hour rows before hourCut
// (unix seconds).
func prune(ctx context.Context, db *gorm.DB, minuteCut, hourCut int64) (int64, error) {
	var n int64
	for _, p := range [...]struct {
		res int
		cut int64
	}{{resMinute, minuteCut}, {resHour, hourCut}} {
		for _, m := range []any{&sampleRow{}, &decisionRow{}} {
			res := db.WithContext(ctx).Where("res = ? AND at < ?", p.res, p.cut).Delete(m)
			if res.Error != nil {
				return n, fmt.Errorf("prune traffic: %w", res.Error)
			}
			n += res.RowsAffected
		}
	}
	return n, nil
}

// toInt rounds a counter's increase to a stored integer.
func toInt(v float64) int64 {
	if v <= 0 || math.IsNaN(v) {
		return 0
	}
	if v > math.MaxInt64/2 {
		return math.MaxInt64 / 2
	}
	return int64(math.Round(v))
}

// boundedID keeps a service id usable as a key: ids are the panel's own
// (36-character UUIDs), so anything longer is cut.
func boundedID(id string) string {
	if len(id) > 64 {
		return strings.Clone(id[:64])
	}
	return id
}
