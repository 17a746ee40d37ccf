package status

import (
	"context"
	"fmt"
	"time"

	"github.com/gatehouse-proxy/gatehouse/internal/runtime"
	"github.com/gatehouse-proxy/gatehouse/internal/store"
)

// Badge states. Only "live" says a service is served, and only on
// Traefik's word.
const (
	Live    = "live"    // Traefik's runtime shows its routers enabled
	Waiting = "waiting" // written, not yet fetched (or fetched, not yet run)
	Error   = "error"   // Traefik reports an error for its routers, services or middlewares
	Unknown = "unknown" // fetched, but Traefik's API cannot confirm it runs
)

// ConfigETag answers the ETag a poll would get now (dynconf.Service).
type ConfigETag interface {
	CurrentETag(ctx context.Context) (string, error)
}

// ServiceLister lists the enabled services (services.Service).
type ServiceLister interface {
	ListEnabled(ctx context.Context) ([]store.Service, error)
}

// Evidence reads Traefik's runtime per panel service (runtime.Service).
type Evidence interface {
	Evidence(ctx context.Context) (runtime.EvidenceView, error)
}

// Deps are the Service's collaborators.
type Deps struct {
	Polls    *Recorder
	Config   ConfigETag
	Services ServiceLister
	Runtime  Evidence
	// ConfigURL is the URL Traefik's HTTP provider should poll, for the
	// snippet shown before the first poll.
	ConfigURL func() string
	// ProviderTokenSet says a provider token guards /api/proxy/config: the
	// snippet then names the header Traefik must send (never its value).
	ProviderTokenSet bool
	// Prober looks at Traefik's API and metrics for the connection test
	// (nil: neither is looked at).
	Prober Prober
	// Setup says where the panel is for the setup guide (nil: defaults).
	Setup func() SetupInput
	Now   func() time.Time
}

// Service builds the status view.
type Service struct{ d Deps }

// NewService returns the status service.
func NewService(d Deps) *Service {
	if d.Now == nil {
		d.Now = time.Now
	}
	return &Service{d: d}
}

// PollView says whether and when Traefik fetched the configuration, and
// whether it runs the current version.
type PollView struct {
	Polled          bool    `json:"polled"`
	Last            *Poll   `json:"last"`
	AgeSeconds      float64 `json:"ageSeconds"`
	IntervalSeconds float64 `json:"intervalSeconds"`
	// IntervalMeasured is false while the interval is DefaultInterval
	// (fewer than two polls seen).
	IntervalMeasured bool `json:"intervalMeasured"`
	Stopped          bool `json:"stopped"`
	Current          bool `json:"current"`
	// Behind counts the configuration versions produced since the one
	// Traefik last fetched; BehindKnown is false when that one predates
	// the panel's start.
	Behind      int    `json:"behind"`
	BehindKnown bool   `json:"behindKnown"`
	CurrentETag string `json:"currentEtag"`
	ConfigURL   string `json:"configUrl"`
	Snippet     string `json:"snippet"`
	// Setups are complete traefik.yml files with the panel's environment,
	// for Traefik in Docker and on the panel's host.
	Setups []Setup `json:"setups"`
	Recent []Poll  `json:"recent"`
}

// Badge is one enabled service's status.
type Badge struct {
	ServiceID string                `json:"serviceId"`
	State     string                `json:"state"`
	Message   string                `json:"message"`
	Errors    []string              `json:"errors"`
	Routers   []runtime.RouterState `json:"routers"`
}

// View is GET /api/proxy/status.
type View struct {
	Poll     PollView       `json:"poll"`
	Traefik  runtime.Status `json:"traefik"`
	Services []Badge        `json:"services"`
}

// Polls returns the poll evidence alone, without Traefik's API.
func (s *Service) Polls(ctx context.Context) (PollView, error) {
	cur, err := s.d.Config.CurrentETag(ctx)
	if err != nil {
		return PollView{}, fmt.Errorf("current configuration: %w", err)
	}
	r := s.d.Polls
	iv := r.Interval()
	v := PollView{
		IntervalSeconds: iv.Seconds(), CurrentETag: cur, Recent: r.Polls(),
		Stopped: r.Stopped(), IntervalMeasured: len(r.Polls()) >= 2,
	}
	if len(v.Recent) > 10 {
		v.Recent = v.Recent[:10]
	}
	if s.d.ConfigURL != nil {
		v.ConfigURL = s.d.ConfigURL()
	}
	v.Snippet = Snippet(v.ConfigURL, DefaultInterval, s.d.ProviderTokenSet)
	var in SetupInput
	if s.d.Setup != nil {
		in = s.d.Setup()
	}
	in.TokenSet, in.Interval = s.d.ProviderTokenSet, DefaultInterval
	v.Setups = Setups(in)
	last, ok := r.LastPoll()
	if !ok {
		return v, nil
	}
	v.Polled, v.Last = true, &last
	v.AgeSeconds = s.d.Now().Sub(last.At).Seconds()
	v.Current = last.ETag == cur
	if !v.Current {
		n, _, known := r.behind(last.ETag)
		v.Behind, v.BehindKnown = n, known
	} else {
		v.BehindKnown = true
	}
	return v, nil
}

// Snippet is Traefik's static configuration for the HTTP provider. With a
// provider token it adds the header Traefik sends, with a placeholder for
// the value: the snippet is shown to viewers too. Without one it says the
// endpoint is open.
func Snippet(url string, interval time.Duration, tokenSet bool) string {
	if url == "" {
		url = "http://gatehouse:8080"
	}
	s := fmt.Sprintf("providers:\n  http:\n    endpoint: %q\n    pollInterval: %q\n", url+"/api/proxy/config", interval.String())
	if tokenSet {
		return s + "    headers:\n      Authorization: \"Bearer <the value of PANEL_PROVIDER_TOKEN>\"\n"
	}
	return "# Open to anyone who reaches the panel until PANEL_PROVIDER_TOKEN is set on it;\n" +
		"# then add  headers: {Authorization: \"Bearer <that token>\"}  under http.\n" + s
}

// Status builds the whole view: the polls and every enabled service's badge.
func (s *Service) Status(ctx context.Context) (View, error) {
	pv, err := s.Polls(ctx)
	if err != nil {
		return View{}, err
	}
	rows, err := s.d.Services.ListEnabled(ctx)
	if err != nil {
		return View{}, err
	}
	ev := runtime.EvidenceView{Services: map[string]runtime.ServiceEvidence{}}
	if s.d.Runtime != nil {
		if ev, err = s.d.Runtime.Evidence(ctx); err != nil {
			return View{}, err
		}
	}
	v := View{Poll: pv, Traefik: ev.Status, Services: make([]Badge, 0, len(rows))}
	for _, row := range rows {
		v.Services = append(v.Services, s.badge(row, pv, ev))
	}
	return v, nil
}

func (s *Service) badge(row store.Service, pv PollView, ev runtime.EvidenceView) Badge {
	e := ev.Services[row.ID]
	b := Badge{ServiceID: row.ID, Errors: nonNil(e.Errors), Routers: nonNil(e.Routers)}
	if s.waiting(row, pv) {
		b.State = Waiting
		if !pv.Polled {
			b.Message = "Saved. Traefik has not fetched the configuration since the panel started, so it does not serve this yet."
		} else {
			b.Message = "Saved. Traefik picks this change up at its next fetch, usually within seconds."
		}
		return b
	}
	switch {
	case !ev.Reachable:
		b.State, b.Message = Unknown, "Traefik fetched this configuration, but its API cannot confirm it runs: "+ev.Error
	case len(e.Errors) > 0:
		b.State, b.Message = Error, "Traefik reports an error for this service."
	case e.Enabled():
		b.State, b.Message = Live, "Traefik runs its routers."
	default:
		b.State, b.Message = Waiting, "Traefik fetched the configuration but does not run its routers yet."
	}
	return b
}

// waiting reports whether the service's last change is newer than the
// configuration Traefik last fetched.
func (s *Service) waiting(row store.Service, pv PollView) bool {
	if !pv.Polled {
		return true
	}
	if pv.Current {
		return false
	}
	_, builtAt, known := s.d.Polls.behind(pv.Last.ETag)
	// Same millisecond counts as newer: never "live" on a guess.
	return !known || !row.UpdatedAt.Before(builtAt)
}

func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}
