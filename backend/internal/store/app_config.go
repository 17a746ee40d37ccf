package store

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"gorm.io/gorm"
	"gorm.io/gorm/clause"
)

// Well-known app_config keys.
const (
	KeyGlobalConfig   = "global"
	KeySSO            = "sso"
	KeyAdminSSO       = "admin_sso" // administrators' sign-in: SSO rules and local passwords
	KeyManaged        = "managed"
	KeyManagedSecrets = "managed_secrets" // credential names and hashes, never values
)

// GetConfig loads the JSON document under key into v. It reports false when
// the key does not exist (v is left untouched, so callers pre-fill defaults).
func GetConfig(ctx context.Context, db *gorm.DB, key string, v any) (bool, error) {
	var row AppConfig
	err := db.WithContext(ctx).Where("key = ?", key).Take(&row).Error
	if errors.Is(err, gorm.ErrRecordNotFound) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("read config %q: %w", key, err)
	}
	if err := json.Unmarshal([]byte(row.Value), v); err != nil {
		return false, fmt.Errorf("decode config %q: %w", key, err)
	}
	return true, nil
}

// PutConfig stores v as JSON under key (insert or replace).
func PutConfig(ctx context.Context, db *gorm.DB, key string, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Errorf("encode config %q: %w", key, err)
	}
	row := AppConfig{Key: key, Value: string(b), UpdatedAt: Now()}
	err = db.WithContext(ctx).Clauses(clause.OnConflict{
		Columns:   []clause.Column{{Name: "key"}},
		DoUpdates: clause.AssignmentColumns([]string{"value", "updated_at"}),
	}).Create(&row).Error
	if err != nil {
		return fmt.Errorf("write config %q: %w", key, err)
	}
	return nil
}
