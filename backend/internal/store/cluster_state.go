package store

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"gorm.io/gorm"
	"gorm.io/gorm/clause"

	"github.com/gatehouse-proxy/gatehouse/internal/bearer"
)

// Kinds of sso_pending rows. Sign-ins in progress themselves live in the
// browser's cookie (access.SealSignIn); only what follows a sign-in the
// provider completed is written here.
const (
	PendingExchange = "exchange" // a forward-auth exchange token
	// PendingUsed + flow: the OAuth state of a completed sign-in, kept
	// until any cookie of that state has expired, so it works once.
	PendingUsed = "used_"
)

// SSOPending is one exchange token or one used sign-in state. Only the
// hash of its key (OAuth state, exchange token) is stored.
type SSOPending struct {
	Kind      string `gorm:"primaryKey"`
	KeyHash   string `gorm:"primaryKey"`
	Payload   string
	ExpiresAt time.Time
}

// TableName pins the table name (GORM would pluralise it).
func (SSOPending) TableName() string { return "sso_pending" }

// single runs one statement outside a transaction: on PostgreSQL a
// transaction takes the write lock (see lockingPool), and one statement is
// atomic on its own.
func single(ctx context.Context, db *gorm.DB) *gorm.DB {
	return db.WithContext(ctx).Session(&gorm.Session{SkipDefaultTransaction: true})
}

// PutPending stores v as JSON under kind and the hash of key until expires.
// There is no cap: every caller writes only after the OpenID provider has
// completed a sign-in, so a flood of requests that sign no one in writes
// nothing, and a cap shared by everyone would let one client deny the rest.
func PutPending(ctx context.Context, db *gorm.DB, kind, key string, v any, expires time.Time) error {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Errorf("encode pending %s: %w", kind, err)
	}
	row := SSOPending{Kind: kind, KeyHash: bearer.Hash(key), Payload: string(b), ExpiresAt: expires.UTC()}
	if err := single(ctx, db).Create(&row).Error; err != nil {
		return fmt.Errorf("store pending %s: %w", kind, err)
	}
	return nil
}

// MarkPending records kind and the hash of key until expires and reports
// whether it was not recorded yet. One statement (INSERT ... ON CONFLICT
// DO NOTHING): of several callers, on one replica or several, exactly one
// gets true. A row left after its expiry (not swept yet) still counts,
// which only errs on the side of refusing.
func MarkPending(ctx context.Context, db *gorm.DB, kind, key string, expires time.Time) (bool, error) {
	row := SSOPending{Kind: kind, KeyHash: bearer.Hash(key), Payload: "{}", ExpiresAt: expires.UTC()}
	res := single(ctx, db).Clauses(clause.OnConflict{DoNothing: true}).Create(&row)
	if res.Error != nil {
		return false, fmt.Errorf("mark pending %s: %w", kind, res.Error)
	}
	return res.RowsAffected == 1, nil
}

// TakePending deletes the row of kind and key and decodes its payload into
// v. It reports false when there is no such row or it has expired (an
// expired row is left to SweepPending). The delete and the read are one
// statement (DELETE ... RETURNING, SQLite 3.35 and PostgreSQL): of several
// callers, on one replica or several, exactly one gets the row.
func TakePending(ctx context.Context, db *gorm.DB, kind, key string, now time.Time, v any) (bool, error) {
	var rows []struct{ Payload string }
	err := single(ctx, db).Raw("DELETE FROM sso_pending WHERE kind = ? AND key_hash = ? AND expires_at > ? RETURNING payload",
		kind, bearer.Hash(key), now.UTC()).Scan(&rows).Error
	if err != nil {
		return false, fmt.Errorf("take pending %s: %w", kind, err)
	}
	if len(rows) == 0 {
		return false, nil
	}
	if err := json.Unmarshal([]byte(rows[0].Payload), v); err != nil {
		return false, fmt.Errorf("decode pending %s: %w", kind, err)
	}
	return true, nil
}

// SweepPending deletes the expired rows of every kind.
func SweepPending(ctx context.Context, db *gorm.DB, now time.Time) error {
	if err := single(ctx, db).Where("expires_at <= ?", now.UTC()).Delete(&SSOPending{}).Error; err != nil {
		return fmt.Errorf("sweep pending sign-ins: %w", err)
	}
	return nil
}

// RateLimitFailure is one failed attempt counted by a rate limiter shared
// through the database (PostgreSQL). KeyHash hashes the limiter's scope
// and key.
type RateLimitFailure struct {
	ID       string
	Scope    string
	KeyHash  string
	FailedAt time.Time
}
