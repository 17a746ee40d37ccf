package notify

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/nicholas-fedor/shoutrrr"
	"github.com/nicholas-fedor/shoutrrr/pkg/types"

	"github.com/gatehouse-proxy/gatehouse/internal/background"
	"github.com/gatehouse-proxy/gatehouse/internal/httpx"
	"github.com/gatehouse-proxy/gatehouse/internal/mail"
)

// Sender delivers one message to a shoutrrr URL.
type Sender interface {
	Send(ctx context.Context, serviceURL, title, message string) error
}

// sendTimeout bounds one delivery attempt.
const sendTimeout = 15 * time.Second

type shoutrrrSender struct{}

func (shoutrrrSender) Send(ctx context.Context, serviceURL, title, message string) error {
	r, err := shoutrrr.CreateSender(serviceURL)
	if err != nil {
		return err
	}
	r.Timeout = sendTimeout
	if d, ok := ctx.Deadline(); ok && time.Until(d) < r.Timeout {
		r.Timeout = max(time.Until(d), time.Millisecond)
	}
	// Every service used here takes "title" (e-mail reads it as the subject).
	params := types.Params{"title": title}
	return errors.Join(r.Send(message, &params)...)
}

// job is one event for one channel.
type job struct {
	channelID string
	ev        Event
}

// workers deliver in parallel so one slow channel does not hold the rest.
const workers = 2

// Loops are the background work every replica runs: delivering the
// notifications it published, once their debounce is over.
func (s *Service) Loops() []background.Loop {
	return []background.Loop{{Name: "notification delivery", Run: s.run(time.Second)}}
}

// run flushes due events every tick and delivers them until ctx ends.
func (s *Service) run(tick time.Duration) func(ctx context.Context) {
	return func(ctx context.Context) {
		for range workers {
			go s.work(ctx)
		}
		t := time.NewTicker(tick)
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
				s.Dispatch(ctx)
			}
		}
	}
}

// Dispatch queues the due events for their channels. It never blocks: a
// full queue drops the delivery and says so in the log.
func (s *Service) Dispatch(ctx context.Context) {
	s.dispatch(ctx, s.deb.Flush())
}

// Send queues ev for its channels now, without the debounce: for a source
// that keeps its own state and says each change once (alerts, whose
// episodes live in the database so that a new leader does not repeat them
// or lose a recovery).
func (s *Service) Send(ctx context.Context, ev Event) {
	if ev.At.IsZero() {
		ev.At = s.o.Now()
	}
	s.dispatch(ctx, []Event{ev})
}

func (s *Service) dispatch(ctx context.Context, evs []Event) {
	if len(evs) == 0 {
		return
	}
	var rows []channelRow
	if err := s.db.WithContext(ctx).Where("enabled = ?", true).Find(&rows).Error; err != nil {
		s.o.Logger.Warn("notify: list channels", "err", err)
		return
	}
	for _, ev := range evs {
		for _, r := range rows {
			var kinds []Kind
			if json.Unmarshal([]byte(r.Events), &kinds) != nil || !slices.Contains(kinds, subscription(ev.Kind)) {
				continue
			}
			select {
			case s.queue <- job{channelID: r.ID, ev: ev}:
			default:
				s.o.Logger.Warn("notify: queue full, notification dropped", "channel", r.ID, "event", ev.Kind, "key", ev.Key)
			}
		}
	}
}

func (s *Service) work(ctx context.Context) {
	for {
		select {
		case <-ctx.Done():
			return
		case j := <-s.queue:
			s.deliver(ctx, j)
		}
	}
}

// deliver sends with retries, then records the outcome on the channel.
func (s *Service) deliver(ctx context.Context, j job) {
	var err error
	for attempt := 0; ; attempt++ {
		err = s.sendTo(ctx, j.channelID, j.ev)
		if err == nil || attempt >= len(s.o.Backoff) || errors.Is(err, errGone) {
			break
		}
		select {
		case <-ctx.Done():
			return
		case <-time.After(s.o.Backoff[attempt]):
		}
	}
	if errors.Is(err, errGone) {
		return
	}
	if err != nil {
		s.o.Logger.Warn("notification not delivered", "channel", j.channelID, "event", j.ev.Kind, "err", err)
	} else {
		s.o.Logger.Info("notification delivered", "channel", j.channelID, "event", j.ev.Kind)
	}
	if s.o.OnDelivery != nil {
		s.o.OnDelivery(j.ev.Kind, err == nil)
	}
	s.record(ctx, j.channelID, j.ev.Kind, err)
}

var errGone = errors.New("channel deleted")

// sendTo sends ev through the channel's current settings; the error text is
// scrubbed of the channel's secrets.
func (s *Service) sendTo(ctx context.Context, id string, ev Event) error {
	r, err := s.row(ctx, s.db, id)
	if err != nil {
		return errGone
	}
	sec, err := s.secrets(r)
	if err != nil {
		return errors.New("the channel's secrets cannot be decrypted with the panel's age identity")
	}
	var st ChannelSettings
	if err := json.Unmarshal([]byte(r.Settings), &st); err != nil {
		return fmt.Errorf("decode settings: %w", err)
	}
	if ChannelKind(r.Kind) == Email {
		sctx, cancel := context.WithTimeout(ctx, sendTimeout)
		defer cancel()
		if err := s.sendEmail(sctx, st, sec, ev); err != nil {
			s.o.Logger.Warn("notify: delivery failed", "channel", id, "err", scrub(err.Error(), "", sec))
			return errors.New("delivery failed: " + mail.Failure(err))
		}
		return nil
	}
	u, err := serviceURL(ChannelKind(r.Kind), st, sec)
	if err != nil {
		return errors.New(scrub(err.Error(), "", sec))
	}
	sctx, cancel := context.WithTimeout(ctx, sendTimeout)
	defer cancel()
	if err := s.o.Sender.Send(sctx, u, ev.Subject, message(ev)); err != nil {
		// The address is an administrator's to choose, internal ones too:
		// what the server answered, and the dial chain with its addresses,
		// go to the log (scrubbed), never to the API.
		s.o.Logger.Warn("notify: delivery failed", "channel", id, "err", scrub(err.Error(), u, sec))
		return errors.New("delivery failed: " + httpx.FetchFailure(err))
	}
	return nil
}

func message(ev Event) string {
	if ev.Body == "" {
		return ev.Subject
	}
	return ev.Subject + "\n\n" + ev.Body
}

// Test sends a test message now and records the outcome.
func (s *Service) Test(ctx context.Context, id string) (TestResult, error) {
	if _, err := s.row(ctx, s.db, id); err != nil {
		return TestResult{}, err
	}
	ev := Event{Kind: Test, Key: "test:" + id, Subject: "Gatehouse test notification",
		Body: "This channel receives Gatehouse notifications.", At: s.o.Now()}
	err := s.sendTo(ctx, id, ev)
	if errors.Is(err, errGone) {
		return TestResult{}, err
	}
	s.record(ctx, id, Test, err)
	// A failed delivery is the answer to a test, not an error of the request.
	res := TestResult{OK: err == nil}
	if err != nil {
		res.Error = err.Error()
	}
	return res, nil
}

// maxErrorLen bounds a stored error message.
const maxErrorLen = 500

func (s *Service) record(ctx context.Context, id string, k Kind, err error) {
	now := s.o.Now()
	msg := ""
	if err != nil {
		msg = err.Error()
		if len(msg) > maxErrorLen {
			msg = msg[:maxErrorLen] + "…"
		}
	}
	res := s.db.WithContext(context.WithoutCancel(ctx)).Model(&channelRow{}).Where("id = ?", id).
		Updates(map[string]any{"last_attempt_at": now, "last_ok": err == nil, "last_error": msg, "last_event": string(k)})
	if res.Error != nil {
		s.o.Logger.Warn("notify: record delivery", "channel", id, "err", res.Error)
	}
}

// scrub removes the service URL and every secret, raw or in any of the
// escaped forms a URL gives it, from an error message.
func scrub(msg, serviceURL string, sec ChannelSecrets) string {
	var cut []string
	if serviceURL != "" {
		cut = append(cut, serviceURL)
	}
	for _, v := range sec.values() {
		cut = append(cut, v, url.QueryEscape(v), url.PathEscape(v), url.UserPassword("", v).String()[1:])
		if u, err := url.Parse(v); err == nil && u.Path != "" { // a keyed webhook's path
			cut = append(cut, u.Path, u.RawQuery)
		}
	}
	// Longest first, so a secret inside the URL does not leave the URL's rest.
	slices.SortFunc(cut, func(a, b string) int { return len(b) - len(a) })
	for _, c := range cut {
		if len(c) >= 4 {
			msg = strings.ReplaceAll(msg, c, "[redacted]")
		}
	}
	return msg
}
