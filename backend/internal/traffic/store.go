package traffic

import (
	"context"
	"fmt"
	"math"
	"slices"
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
	Series   int64  `gorm:"column:series;primaryKey;autoIncrement:false"`
	Res      int    `gorm:"column:res;primaryKey;autoIncrement:false"`
	At       int64  `gorm:"column:at;primaryKey;autoIncrement:false"`
	Req2xx   int64  `gorm:"column:req_2xx"`
	Req3xx   int64  `gorm:"column:req_3xx"`
	Req4xx   int64  `gorm:"column:req_4xx"`
	Req5xx   int64  `gorm:"column:req_5xx"`
	BytesIn  int64  `gorm:"column:bytes_in"`
	BytesOut int64  `gorm:"column:bytes_out"`
	Latency  string `gorm:"column:latency"`
	Up       int    `gorm:"column:up"`
	Checks   int    `gorm:"column:checks"`
}

func (sampleRow) TableName() string { return "traffic_samples" }

func (r *sampleRow) requests() int64 { return r.Req2xx + r.Req3xx + r.Req4xx + r.Req5xx }

// add adds o's figures to r (the latency through h, merged by the caller).
func (r *sampleRow) add(o *sampleRow) {
	r.Req2xx += o.Req2xx
	r.Req3xx += o.Req3xx
	r.Req4xx += o.Req4xx
	r.Req5xx += o.Req5xx
	r.BytesIn += o.BytesIn
	r.BytesOut += o.BytesOut
	r.Up += o.Up
	r.Checks += o.Checks
}

// decisionRow is one step of one series' decisions.
type decisionRow struct {
	Series      int64 `gorm:"column:series;primaryKey;autoIncrement:false"`
	Res         int   `gorm:"column:res;primaryKey;autoIncrement:false"`
	At          int64 `gorm:"column:at;primaryKey;autoIncrement:false"`
	Allowed     int64 `gorm:"column:allowed"`
	SignedIn    int64 `gorm:"column:signed_in"`
	Challenged  int64 `gorm:"column:challenged"`
	Denied      int64 `gorm:"column:denied"`
	RateLimited int64 `gorm:"column:rate_limited"`
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

// additive is the upsert that adds a row's counters (cols) to the stored
// ones and sets extra: a minute written twice (a leader that changed
// mid-minute) adds up rather than fails. With no cols and every column in
// extra it replaces the row (an hour rolled up again).
func additive(table string, cols []string, keys []string, extra ...clause.Assignment) clause.OnConflict {
	set := make([]clause.Assignment, 0, len(cols)+len(extra))
	for _, c := range cols {
		set = append(set, clause.Assignment{Column: clause.Column{Name: c},
			Value: gorm.Expr(table + "." + c + " + excluded." + c)})
	}
	set = append(set, extra...)
	kc := make([]clause.Column, len(keys))
	for i, k := range keys {
		kc[i] = clause.Column{Name: k}
	}
	return clause.OnConflict{Columns: kc, DoUpdates: set}
}

var (
	rowKeys      = []string{"series", "res", "at"}
	sampleSums   = []string{"req_2xx", "req_3xx", "req_4xx", "req_5xx", "bytes_in", "bytes_out", "up", "checks"}
	decisionSums = []string{"allowed", "signed_in", "challenged", "denied", "rate_limited"}
)

// replaced is the assignments that overwrite cols with the new row's.
func replaced(cols ...string) []clause.Assignment {
	out := make([]clause.Assignment, len(cols))
	for i, c := range cols {
		out[i] = clause.Assignment{Column: clause.Column{Name: c}, Value: gorm.Expr("excluded." + c)}
	}
	return out
}

// writeSamples stores rows: minute rows add up, hour rows (a roll-up)
// replace what was there.
func writeSamples(ctx context.Context, tx *gorm.DB, rows []sampleRow, replace bool) error {
	up := additive("traffic_samples", sampleSums, rowKeys, replaced("latency")...)
	if replace {
		up = additive("traffic_samples", nil, rowKeys, replaced(append(slices.Clone(sampleSums), "latency")...)...)
	}
	for i := 0; i < len(rows); i += batch {
		part := rows[i:min(i+batch, len(rows))]
		if err := tx.WithContext(ctx).Clauses(up).Create(&part).Error; err != nil {
			return fmt.Errorf("store traffic samples: %w", err)
		}
	}
	return nil
}

func writeDecisions(ctx context.Context, tx *gorm.DB, rows []decisionRow, replace bool) error {
	up := additive("traffic_decisions", decisionSums, rowKeys)
	if replace {
		up = additive("traffic_decisions", nil, rowKeys, replaced(decisionSums...)...)
	}
	for i := 0; i < len(rows); i += batch {
		part := rows[i:min(i+batch, len(rows))]
		if err := tx.WithContext(ctx).Clauses(up).Create(&part).Error; err != nil {
			return fmt.Errorf("store traffic decisions: %w", err)
		}
	}
	return nil
}

// prune deletes minute rows before minuteCut and hour rows before hourCut
// (unix seconds), series by series (the key leads with the series).
func prune(ctx context.Context, db *gorm.DB, minuteCut, hourCut int64) (int64, error) {
	var ids []int64
	if err := db.WithContext(ctx).Model(&seriesRow{}).Pluck("id", &ids).Error; err != nil {
		return 0, fmt.Errorf("read traffic series: %w", err)
	}
	var n int64
	for i := 0; i < len(ids); i += batch {
		part := ids[i:min(i+batch, len(ids))]
		for _, p := range [...]struct {
			res int
			cut int64
		}{{resMinute, minuteCut}, {resHour, hourCut}} {
			for _, m := range []any{&sampleRow{}, &decisionRow{}} {
				res := db.WithContext(ctx).Where("series IN ? AND res = ? AND at < ?", part, p.res, p.cut).Delete(m)
				if res.Error != nil {
					return n, fmt.Errorf("prune traffic: %w", res.Error)
				}
				n += res.RowsAffected
			}
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
