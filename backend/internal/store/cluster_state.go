package store

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"gorm.io/gorm"

	"github.com/gatehouse-proxy/gatehouse/internal/token"
)

// Kinds of pending sign-ins (sso_pending.kind).
const (
	PendingLogin      = "login"       // a forward-auth sign-in, by OAuth state
	PendingExchange   = "exchange"    // a forward-auth exchange token
	PendingAdminLogin = "admin_login" // a sign-in to the panel, by OAuth state
)

// SSOPending is one sign-in in progress or one exchange token. Only the
// hash of its key (OAuth state, exchange token) is stored.
type SSOPending struct {
	Kind      string `gorm:"primaryKey"`
	KeyHash   string `gorm:"primaryKey"`
	Payload   string
	ExpiresAt time.Time
}

// TableName pins the table name (GORM would pluralise it).
func (SSOPending) TableName() string { return "sso_pending" }

// ErrTooManyPending is returned by PutPending while its limit of sign-ins of
// one kind are in progress.
var ErrTooManyPending = errors.New("too many sign-ins in progress")

// single runs one statement outside a transaction: on PostgreSQL a
// transaction takes the write lock (see lockingPool), and one statement is
// atomic on its own.
func single(ctx context.Context, db *gorm.DB) *gorm.DB {
	return db.WithContext(ctx).Session(&gorm.Session{SkipDefaultTransaction: true})
}

// PutPending stores v as JSON under kind and the hash of key until expires.
// Once limit rows of kind exist it sweeps the expired ones, and refuses with
// ErrTooManyPending while that leaves limit or more. Replicas adding at the
// same moment may overshoot limit by a few: it bounds a flood, not a count.
func PutPending(ctx context.Context, db *gorm.DB, kind, key string, v any, now, expires time.Time, limit int) error {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Errorf("encode pending %s: %w", kind, err)
	}
	count := func() (int64, error) {
		var n int64
		err := db.WithContext(ctx).Model(&SSOPending{}).Where("kind = ?", kind).Count(&n).Error
		return n, err
	}
	n, err := count()
	if err != nil {
		return fmt.Errorf("count pending %s: %w", kind, err)
	}
	if n >= int64(limit) {
		if err := SweepPending(ctx, db, now); err != nil {
			return err
		}
		if n, err = count(); err != nil {
			return fmt.Errorf("count pending %s: %w", kind, err)
		}
		if n >= int64(limit) {
			return ErrTooManyPending
		}
	}
	row := SSOPending{Kind: kind, KeyHash: token.Hash(key), Payload: string(b), ExpiresAt: expires.UTC()}
	if err := single(ctx, db).Create(&row).Error; err != nil {
		return fmt.Errorf("store pending %s: %w", kind, err)
	}
	return nil
}

// TakePending deletes the row of kind and key and decodes its payload into
// v. It reports false when there is no such row or it has expired (an
// expired row is left to SweepPending). The delete and the read are one
// statement (DELETE ... RETURNING, SQLite 3.35 and PostgreSQL): of several
// callers, on one replica or several, exactly one gets the row.
func TakePending(ctx context.Context, db *gorm.DB, kind, key string, now time.Time, v any) (bool, error) {
	var rows []struct{ Payload string }
	err := single(ctx, db).Raw("DELETE FROM sso_pending WHERE kind = ? AND key_hash = ? AND expires_at > ? RETURNING payload",
		kind, token.Hash(key), now.UTC()).Scan(&rows).Error
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
