package provider

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/zitadel/oidc/v3/pkg/op"
	"gorm.io/gorm"

	"github.com/gatehouse-proxy/gatehouse/internal/bearer"
	"github.com/gatehouse-proxy/gatehouse/internal/store"
)

// StoreDeviceAuthorization keeps a device authorization: the device code
// as its hash, the user code as typed (normalised: upper case, no dash).
func (s *storage) StoreDeviceAuthorization(ctx context.Context, clientID, deviceCode, userCode string, expires time.Time, scopes []string) error {
	c, err := s.clients.get(ctx, clientID)
	if err != nil {
		return err
	}
	cl := &client{c: c}
	kept := []string{}
	for _, sc := range scopes {
		if cl.allows(sc) && !slices.Contains(kept, sc) {
			kept = append(kept, sc)
		}
	}
	row := deviceRow{DeviceCodeHash: bearer.Hash(deviceCode), UserCode: NormalizeUserCode(userCode), ClientID: clientID,
		Scopes: store.NewJSON(kept), State: devicePending, CreatedAt: s.now(), ExpiresAt: expires}
	err = s.db.WithContext(ctx).Create(&row).Error
	if err != nil && strings.Contains(strings.ToLower(err.Error()), "unique") {
		return op.ErrDuplicateUserCode
	}
	return err
}

// GetDeviceAuthorizatonState answers the device's poll. The poll that
// finds the authorization approved consumes it: the tokens are issued
// once.
func (s *storage) GetDeviceAuthorizatonState(ctx context.Context, clientID, deviceCode string) (*op.DeviceAuthorizationState, error) {
	if len(deviceCode) > 256 {
		return nil, errNotFound
	}
	var d deviceRow
	err := s.db.WithContext(ctx).Where("device_code_hash = ? AND client_id = ?", bearer.Hash(deviceCode), clientID).Take(&d).Error
	if errors.Is(err, gorm.ErrRecordNotFound) {
		return nil, errNotFound
	}
	if err != nil {
		return nil, fmt.Errorf("read device authorization: %w", err)
	}
	if err := s.pace(ctx, d); err != nil {
		return nil, err
	}
	st := &op.DeviceAuthorizationState{ClientID: d.ClientID, Scopes: d.Scopes.V, Expires: d.ExpiresAt, AMR: d.AMR.V}
	switch d.State {
	case deviceDenied, deviceConsumed:
		st.Denied = true
	case deviceApproved:
		res := s.db.WithContext(ctx).Model(&deviceRow{}).Where("device_code_hash = ? AND state = ?", d.DeviceCodeHash, deviceApproved).
			Update("state", deviceConsumed)
		if res.Error != nil {
			return nil, fmt.Errorf("consume device authorization: %w", res.Error)
		}
		if res.RowsAffected == 0 {
			st.Denied = true
			return st, nil
		}
		if _, err := s.people.active(ctx, *d.PersonID); errors.Is(err, errInactive) {
			st.Denied = true
			return st, nil
		} else if err != nil {
			return nil, err
		}
		st.Done, st.Subject, st.AuthTime = true, *d.PersonID, *d.AuthTime
	}
	return st, nil
}

// errSlowDown tells the op package to answer slow_down: it answers that
// to a poll whose state could not be read in time (context deadline).
var errSlowDown = fmt.Errorf("the device polls faster than it may: %w", context.DeadlineExceeded)

// slowDownStep is how much each slow_down grows the interval (RFC 8628
// section 3.5).
const slowDownStep = 5 * time.Second

// pace records the device's poll, and refuses one that came sooner than
// its interval allows (with a fifth of it as leeway for the network):
// the interval grows by slowDownStep and the device is told slow_down.
// Replicas share the pace through the row.
func (s *storage) pace(ctx context.Context, d deviceRow) error {
	now := s.now()
	every := time.Duration(d.PollInterval) * time.Second
	if every <= 0 {
		every = s.poll
	}
	tooSoon := d.PolledAt != nil && now.Sub(*d.PolledAt) < every-every/5
	if tooSoon {
		every += slowDownStep
	}
	if err := s.db.WithContext(ctx).Model(&deviceRow{}).Where("device_code_hash = ?", d.DeviceCodeHash).
		Updates(map[string]any{"polled_at": now, "poll_interval": int(every / time.Second)}).Error; err != nil {
		return fmt.Errorf("record a device's poll: %w", err)
	}
	if tooSoon {
		return errSlowDown
	}
	return nil
}

// NormalizeUserCode is a user code as stored: upper case, without dashes
// or spaces.
func NormalizeUserCode(s string) string {
	if len(s) > 64 {
		s = s[:64]
	}
	return strings.Map(func(r rune) rune {
		switch {
		case r == '-' || r == ' ':
			return -1
		case r >= 'a' && r <= 'z':
			return r - 'a' + 'A'
		}
		return r
	}, s)
}
