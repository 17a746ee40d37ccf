package notify

import (
	"context"
	"crypto/x509"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"gorm.io/gorm"

	"github.com/gatehouse-proxy/gatehouse/internal/apperr"
	"github.com/gatehouse-proxy/gatehouse/internal/mail"
	"github.com/gatehouse-proxy/gatehouse/internal/store"
)

// Sealer seals secrets at rest (sealbox.Box).
type Sealer interface {
	Seal(string) (string, error)
	Open(string) (string, error)
}

// Deps are the Service's collaborators.
type Deps struct {
	DB      *gorm.DB
	Secrets Sealer
	Now     func() time.Time
	Logger  *slog.Logger
	// Sender delivers a message; nil means shoutrrr.
	Sender Sender
	// Backoff are the waits between delivery attempts; nil means 2s, 10s, 30s.
	Backoff []time.Duration
	// QueueSize bounds the deliveries waiting; 0 means 256.
	QueueSize int
	// Mail sends through an e-mail channel; nil means mail.Send.
	Mail MailFunc
	// MailRootCAs trusts SMTP servers' certificates; nil means the
	// system's roots (tests pass their receiver's).
	MailRootCAs *x509.CertPool
	// OnDelivery, when set, hears each delivery's outcome after its
	// retries (the panel's metrics).
	OnDelivery func(kind Kind, ok bool)
}

// Service keeps the channels and delivers events to them.
type Service struct {
	o     Deps
	db    *gorm.DB
	deb   *Debouncer
	queue chan job
}

// NewService returns the notification service. Its Loops must run for
// published events to be delivered.
func NewService(o Deps) *Service {
	if o.Sender == nil {
		o.Sender = shoutrrrSender{}
	}
	if o.Backoff == nil {
		o.Backoff = []time.Duration{2 * time.Second, 10 * time.Second, 30 * time.Second}
	}
	if o.Mail == nil {
		o.Mail = mail.Send
	}
	if o.QueueSize == 0 {
		o.QueueSize = 256
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	s := &Service{o: o, db: o.DB, queue: make(chan job, o.QueueSize)}
	s.deb = NewDebouncer(o.Now, func() time.Duration {
		st, err := s.Settings(context.Background())
		if err != nil {
			return time.Duration(DefaultSettings.DebounceSeconds) * time.Second
		}
		return time.Duration(st.DebounceSeconds) * time.Second
	})
	return s
}

// Publish implements Publisher: the event is debounced, then delivered to
// the enabled channels subscribed to its kind.
func (s *Service) Publish(ctx context.Context, ev Event) { s.deb.Publish(ctx, ev) }

// List returns every channel.
func (s *Service) List(ctx context.Context) ([]Channel, error) {
	var rows []channelRow
	if err := s.db.WithContext(ctx).Order("name").Find(&rows).Error; err != nil {
		return nil, fmt.Errorf("list channels: %w", err)
	}
	out := make([]Channel, 0, len(rows))
	for _, r := range rows {
		c, err := s.toDTO(r)
		if err != nil {
			return nil, err
		}
		out = append(out, c)
	}
	return out, nil
}

// Get returns one channel.
func (s *Service) Get(ctx context.Context, id string) (Channel, error) {
	r, err := s.row(ctx, s.db, id)
	if err != nil {
		return Channel{}, err
	}
	return s.toDTO(r)
}

func (s *Service) row(ctx context.Context, db *gorm.DB, id string) (channelRow, error) {
	var r channelRow
	err := db.WithContext(ctx).Where("id = ?", id).Take(&r).Error
	if errors.Is(err, gorm.ErrRecordNotFound) {
		return r, apperr.NotFound("notification channel")
	}
	if err != nil {
		return r, fmt.Errorf("get channel %s: %w", id, err)
	}
	return r, nil
}

// Create adds a channel.
func (s *Service) Create(ctx context.Context, req ChannelRequest) (Channel, error) {
	now := s.o.Now()
	r := channelRow{ID: store.NewID(), CreatedAt: now}
	if err := s.fill(&r, req, ChannelSecrets{}, now); err != nil {
		return Channel{}, err
	}
	err := s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		if err := s.uniqueName(ctx, tx, r.Name, ""); err != nil {
			return err
		}
		return tx.Create(&r).Error
	})
	if err != nil {
		return Channel{}, wrap("create channel", err)
	}
	return s.toDTO(r)
}

// Update replaces a channel's fields; empty secrets keep the stored ones.
func (s *Service) Update(ctx context.Context, id string, req ChannelRequest) (Channel, error) {
	var r channelRow
	err := s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		var err error
		if r, err = s.row(ctx, tx, id); err != nil {
			return err
		}
		old, err := s.secrets(r)
		if err != nil {
			return err
		}
		if req.Kind != "" && string(req.Kind) != r.Kind {
			old = ChannelSecrets{} // another service's secrets mean nothing here
		}
		if err := s.fill(&r, req, old, s.o.Now()); err != nil {
			return err
		}
		if err := s.uniqueName(ctx, tx, r.Name, id); err != nil {
			return err
		}
		return tx.Save(&r).Error
	})
	if err != nil {
		return Channel{}, wrap("update channel", err)
	}
	return s.toDTO(r)
}

// Delete removes a channel.
func (s *Service) Delete(ctx context.Context, id string) error {
	res := s.db.WithContext(ctx).Where("id = ?", id).Delete(&channelRow{})
	if res.Error != nil {
		return fmt.Errorf("delete channel %s: %w", id, res.Error)
	}
	if res.RowsAffected == 0 {
		return apperr.NotFound("notification channel")
	}
	return nil
}

func wrap(what string, err error) error {
	if _, ok := apperr.As(err); ok {
		return err
	}
	return fmt.Errorf("%s: %w", what, err)
}

func (s *Service) uniqueName(ctx context.Context, tx *gorm.DB, name, except string) error {
	var n int64
	if err := tx.WithContext(ctx).Model(&channelRow{}).Where("name = ? AND id <> ?", name, except).Count(&n).Error; err != nil {
		return err
	}
	if n > 0 {
		return apperr.Conflict("name", "a channel with this name exists")
	}
	return nil
}

// fill validates req and writes it into r, keeping old secrets where req
// leaves them empty.
func (s *Service) fill(r *channelRow, req ChannelRequest, old ChannelSecrets, now time.Time) error {
	var col apperr.Collector
	req.Name = strings.TrimSpace(req.Name)
	if req.Name == "" || utf8.RuneCountInString(req.Name) > 100 {
		col.Add("name", "must be 1 to 100 characters")
	}
	if !slices.Contains(ChannelKinds, req.Kind) {
		col.Add("kind", "must be one of ntfy, gotify, discord, slack, telegram, email, webhook")
	}
	events := []Kind{}
	for i, k := range req.Events {
		if !ValidKind(k) {
			col.Add(fmt.Sprintf("events[%d]", i), "unknown event %q", k)
		} else if !slices.Contains(events, k) {
			events = append(events, k)
		}
	}
	sec := req.Secrets.merge(old)
	if err := col.Err(); err != nil {
		if slices.Contains(ChannelKinds, req.Kind) {
			return mergeErrs(err, check(req.Kind, req.Settings, sec))
		}
		return err
	}
	if err := check(req.Kind, req.Settings, sec); err != nil {
		return err
	}
	if req.Kind == Email {
		if err := checkEmail(req.Settings, events); err != nil {
			return err
		}
	}
	if _, err := serviceURL(req.Kind, req.Settings, sec); err != nil {
		return apperr.Field("settings", "cannot build the delivery address: %s", scrub(err.Error(), "", sec))
	}
	st, _ := json.Marshal(req.Settings)
	ev, _ := json.Marshal(events)
	secJSON, _ := json.Marshal(sec) //nolint:gosec // marshalled only to be sealed below
	sealed, err := s.o.Secrets.Seal(string(secJSON))
	if err != nil {
		return err
	}
	r.Name, r.Kind, r.Settings, r.Events, r.Secrets = req.Name, string(req.Kind), string(st), string(ev), sealed
	r.Enabled = req.Enabled == nil || *req.Enabled
	r.UpdatedAt = now
	return nil
}

// mergeErrs joins the fields of two validation errors.
func mergeErrs(a, b error) error {
	ea, _ := apperr.As(a)
	eb, ok := apperr.As(b)
	if b == nil || !ok || ea == nil {
		return a
	}
	return apperr.Validation(append(ea.Fields, eb.Fields...)...)
}

func (s *Service) secrets(r channelRow) (ChannelSecrets, error) {
	var sec ChannelSecrets
	if r.Secrets == "" {
		return sec, nil
	}
	plain, err := s.o.Secrets.Open(r.Secrets)
	if err != nil {
		return sec, fmt.Errorf("open secrets of channel %s: %w", r.ID, err)
	}
	if err := json.Unmarshal([]byte(plain), &sec); err != nil {
		return sec, fmt.Errorf("decode secrets of channel %s: %w", r.ID, err)
	}
	return sec, nil
}

func (s *Service) toDTO(r channelRow) (Channel, error) {
	c := Channel{ID: r.ID, Name: r.Name, Kind: ChannelKind(r.Kind), Enabled: r.Enabled,
		Events: []Kind{}, CreatedAt: r.CreatedAt, UpdatedAt: r.UpdatedAt}
	if err := json.Unmarshal([]byte(r.Settings), &c.Settings); err != nil {
		return c, fmt.Errorf("decode settings of channel %s: %w", r.ID, err)
	}
	if err := json.Unmarshal([]byte(r.Events), &c.Events); err != nil {
		return c, fmt.Errorf("decode events of channel %s: %w", r.ID, err)
	}
	sec, err := s.secrets(r)
	if err != nil {
		s.o.Logger.Warn("notification channel secrets unreadable", "channel", r.ID, "err", err)
	}
	c.SecretsSet = sec.names()
	if r.LastAttemptAt != nil {
		c.LastDelivery = &LastDelivery{At: *r.LastAttemptAt, OK: r.LastOK, Event: Kind(r.LastEvent), Error: r.LastError}
	}
	return c, nil
}

// Settings returns the notification settings.
func (s *Service) Settings(ctx context.Context) (Settings, error) {
	st := DefaultSettings
	if _, err := store.GetConfig(ctx, s.db, settingsKey, &st); err != nil {
		return DefaultSettings, err
	}
	return st, nil
}

// PutSettings validates and saves the notification settings.
func (s *Service) PutSettings(ctx context.Context, st Settings) (Settings, error) {
	var col apperr.Collector
	if st.CertWarningDays < 1 || st.CertWarningDays > 365 {
		col.Add("certWarningDays", "must be between 1 and 365")
	}
	if st.DebounceSeconds < 0 || st.DebounceSeconds > 3600 {
		col.Add("debounceSeconds", "must be between 0 and 3600")
	}
	if err := col.Err(); err != nil {
		return st, err
	}
	if st.MailChannelID != "" {
		r, err := s.row(ctx, s.db, st.MailChannelID)
		if _, ok := apperr.As(err); ok || (err == nil && ChannelKind(r.Kind) != Email) {
			return st, apperr.Field("mailChannelId", "must be the id of an e-mail channel")
		}
		if err != nil {
			return st, err
		}
	}
	if err := store.PutConfig(ctx, s.db, settingsKey, st); err != nil {
		return st, err
	}
	return st, nil
}
