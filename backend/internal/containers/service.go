// Package containers connects the panel to a Docker Engine API
// (PANEL_DOCKER_HOST: Docker, or podman's compatible service): it lists
// the running containers, makes a service from one and keeps it bound to
// it (the target follows the container when it is recreated with a new
// address), and turns containers' gatehouse.* labels into read-only
// services. It asks the engine for the container list, a container's
// configuration and the event stream, nothing else, and never passes the
// engine through the panel's API.
package containers

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"strconv"
	"sync"
	"time"

	"gorm.io/gorm"

	"github.com/gatehouse-proxy/gatehouse/internal/apperr"
	"github.com/gatehouse-proxy/gatehouse/internal/audit"
	"github.com/gatehouse-proxy/gatehouse/internal/change"
	"github.com/gatehouse-proxy/gatehouse/internal/services"
	"github.com/gatehouse-proxy/gatehouse/internal/store"
)

// Services is what the containers feature asks of the services feature,
// which owns the services' rows.
type Services interface {
	CreateThen(ctx context.Context, req services.Request, then func(tx *gorm.DB, id string) error) (services.Response, error)
	Replace(ctx context.Context, id string, req services.Request) (services.Response, error)
	SetTargets(ctx context.Context, id string, targets []store.Target) (services.Response, error)
	Get(ctx context.Context, id string) (services.Response, error)
}

// Protect sets the protection a label asks for (none or people) on a
// service; the forward-auth feature owns protections.
type Protect func(ctx context.Context, serviceID, protection string) error

// ApplyPreset replaces a service's access rules with an access preset's;
// the access feature owns them.
type ApplyPreset func(ctx context.Context, serviceID, presetID string) error

// Deps are the Service's collaborators. Without an Engine the feature
// answers "not configured" and runs no loop.
type Deps struct {
	DB       *gorm.DB
	Bus      *change.Bus
	Now      func() time.Time
	Logger   *slog.Logger
	Engine   Engine
	Services Services
	Options  Options
	// Protect and ApplyPreset apply gatehouse.protection and
	// gatehouse.access.preset; Presets lists the presets' ids. Without
	// them those labels are refused.
	Protect     Protect
	ApplyPreset ApplyPreset
	Presets     func() []string
	// Resync is how often the leader reads every container again besides
	// following events (default 30 s).
	Resync time.Duration
}

// Service is the containers feature.
type Service struct {
	d Deps

	mu sync.Mutex
	// applyErrors are why a labelled container's service could not be
	// made or changed (a taken host name), by container name, as the
	// leader last found.
	applyErrors map[string][]LabelError
	// reconciled is closed and replaced after each reconciliation (tests
	// and the benchmark wait on it).
	reconciled chan struct{}
}

// NewService returns the containers service.
func NewService(d Deps) *Service {
	if d.Logger == nil {
		d.Logger = slog.New(slog.DiscardHandler)
	}
	if d.Now == nil {
		d.Now = time.Now
	}
	if d.Resync == 0 {
		d.Resync = 30 * time.Second
	}
	if d.Presets == nil {
		d.Presets = func() []string { return nil }
	}
	return &Service{d: d, applyErrors: map[string][]LabelError{}, reconciled: make(chan struct{})}
}

// Configured reports whether PANEL_DOCKER_HOST is set.
func (s *Service) Configured() bool { return s.d.Engine != nil }

// List answers GET /api/containers: the running containers, each with
// where Traefik would reach it and the services bound to it.
func (s *Service) List(ctx context.Context) (ListResponse, error) {
	out := ListResponse{State: StateOK, TraefikNetworks: nonNil(s.d.Options.TraefikNetworks), Items: []ContainerItem{}}
	if s.d.Engine == nil {
		out.State, out.Reason = StateNotConfigured, "PANEL_DOCKER_HOST is not set: the panel is not connected to a container engine"
		return out, nil
	}
	list, err := s.d.Engine.List(ctx, false)
	if err != nil {
		s.d.Logger.Warn("container engine did not answer", "err", err)
		out.State, out.Reason = StateUnreachable, "the container engine at PANEL_DOCKER_HOST did not answer the list of containers"
		return out, nil
	}
	var rows []store.ContainerBinding
	if err := s.d.DB.WithContext(ctx).Order("created_at, service_id").Find(&rows).Error; err != nil {
		return out, fmt.Errorf("list container bindings: %w", err)
	}
	bound := map[string][]BoundService{}
	for _, r := range rows {
		bound[r.ContainerName] = append(bound[r.ContainerName], BoundService{ServiceID: r.ServiceID, Source: r.Source})
	}
	s.mu.Lock()
	applyErrs := make(map[string][]LabelError, len(s.applyErrors))
	for k, v := range s.applyErrors {
		applyErrs[k] = v
	}
	s.mu.Unlock()
	for _, c := range list {
		out.Items = append(out.Items, s.item(c, bound[c.Name], applyErrs[c.Name]))
	}
	return out, nil
}

func (s *Service) item(c Container, bound []BoundService, applyErrs []LabelError) ContainerItem {
	it := ContainerItem{ID: c.ID, Name: c.Name, Image: c.Image, State: c.State, Health: c.Health,
		Networks: []NetworkItem{}, Ports: []PortItem{}, Labels: map[string]string{}, LabelErrors: []LabelError{},
		Services: nonNil(bound)}
	for _, n := range c.Networks {
		it.Networks = append(it.Networks, NetworkItem{Name: n.Name, Address: n.Address,
			Traefik: contains(s.d.Options.TraefikNetworks, n.Name)})
	}
	for _, p := range c.Ports {
		it.Ports = append(it.Ports, PortItem(p))
	}
	for k, v := range c.Labels {
		if len(k) > 256 {
			continue
		}
		if len(v) > maxLabelValue {
			v = v[:maxLabelValue]
		}
		it.Labels[k] = v
	}
	if Declared(c.Labels) {
		it.Declared = true
		// Labels refused as written, else why the leader could not apply
		// them (it finds the first kind too: they are not repeated).
		_, errs := ParseLabels(c.Name, c.Labels, s.d.Presets())
		if len(errs) == 0 {
			errs = applyErrs
		}
		it.LabelErrors = append(it.LabelErrors, errs...)
	}
	if pl, err := Place(c, "", 0, s.d.Options); err == nil {
		it.Suggestion = toSuggestion(pl)
	} else {
		it.SuggestionError = err.Error()
	}
	return it
}

// Bindings answers GET /api/containers/bindings.
func (s *Service) Bindings(ctx context.Context) ([]Binding, error) {
	var rows []store.ContainerBinding
	if err := s.d.DB.WithContext(ctx).Order("created_at, service_id").Find(&rows).Error; err != nil {
		return nil, fmt.Errorf("list container bindings: %w", err)
	}
	out := make([]Binding, len(rows))
	for i, r := range rows {
		out[i] = toBinding(r)
	}
	return out, nil
}

// find returns the running container named name.
func (s *Service) find(ctx context.Context, name string) (Container, error) {
	if s.d.Engine == nil {
		return Container{}, apperr.InvalidRequest("PANEL_DOCKER_HOST is not set: the panel is not connected to a container engine")
	}
	list, err := s.d.Engine.List(ctx, false)
	if err != nil {
		return Container{}, &apperr.Error{Code: apperr.CodeConflict, Message: "the container engine did not answer: " + err.Error()}
	}
	for _, c := range list {
		if c.Name == name {
			return c, nil
		}
	}
	return Container{}, apperr.Field("container", "no running container is named %q", name)
}

// Create makes a service from a running container and binds it.
func (s *Service) Create(ctx context.Context, req CreateRequest) (CreateResponse, error) {
	c, err := s.find(ctx, req.Container)
	if err != nil {
		return CreateResponse{}, err
	}
	if req.Network != "" && !validNetworkName(req.Network) {
		return CreateResponse{}, apperr.Field("network", "is not a network name")
	}
	pl, err := Place(c, req.Network, req.Port, s.d.Options)
	if err != nil {
		field := "network"
		if req.Network == "" {
			field = "port"
		}
		return CreateResponse{}, apperr.Field(field, "%s", err.Error())
	}
	scheme := req.Scheme
	if scheme == "" {
		scheme = "http"
	}
	sr := req.Service
	sr.Targets = []store.Target{{Scheme: scheme, Host: pl.Host, Port: pl.TargetPort}}
	now := s.d.Now()
	row := store.ContainerBinding{ContainerName: c.Name, Network: pl.Network, Port: pl.Port, Source: store.BindingPanel,
		State: store.ContainerRunning, ContainerID: c.ID, Address: address(pl), CreatedAt: now, UpdatedAt: now}
	svc, err := s.d.Services.CreateThen(ctx, sr, func(tx *gorm.DB, id string) error {
		row.ServiceID = id
		if err := tx.Create(&row).Error; err != nil {
			return fmt.Errorf("bind service to container %s: %w", c.Name, err)
		}
		return nil
	})
	if err != nil {
		return CreateResponse{}, prefixFields(err, "service")
	}
	audit.Changed(ctx, nil, svc)
	return CreateResponse{Service: svc, Binding: toBinding(row), Suggestion: *toSuggestion(pl)}, nil
}

// Detach ends a service's binding: the service stays, as an ordinary one
// whose target no longer follows the container (and, if labels declared
// it, may be edited).
func (s *Service) Detach(ctx context.Context, serviceID string) error {
	var row store.ContainerBinding
	err := s.d.DB.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		err := tx.Where("service_id = ?", serviceID).Take(&row).Error
		if errors.Is(err, gorm.ErrRecordNotFound) {
			return apperr.NotFound("container binding")
		}
		if err != nil {
			return err
		}
		return tx.Where("service_id = ?", serviceID).Delete(&store.ContainerBinding{}).Error
	})
	if err != nil {
		if _, ok := apperr.As(err); ok {
			return err
		}
		return fmt.Errorf("detach service %s: %w", serviceID, err)
	}
	audit.Changed(ctx, toBinding(row), nil)
	s.d.Bus.Publish(change.Event{Entity: change.Service, Kind: change.Updated, ID: serviceID})
	return nil
}

// ReadOnly says why service id may not be changed through the API: its
// container's labels declare it. It is services.Deps.ReadOnly.
func ReadOnly(ctx context.Context, db *gorm.DB, id string) (string, error) {
	var row store.ContainerBinding
	err := db.WithContext(ctx).Where("service_id = ? AND source = ?", id, store.BindingLabels).Take(&row).Error
	if errors.Is(err, gorm.ErrRecordNotFound) {
		return "", nil
	}
	if err != nil {
		return "", fmt.Errorf("read container binding of %s: %w", id, err)
	}
	return fmt.Sprintf("the service is managed by the gatehouse.* labels of container %q: change the labels, "+
		"or detach it (DELETE /api/containers/bindings/%s) to edit it here", row.ContainerName, id), nil
}

func address(p Placement) string {
	return net.JoinHostPort(p.Host, strconv.Itoa(p.TargetPort))
}

// prefixFields puts prefix before the field paths of a validation error
// from the services feature (name -> service.name).
func prefixFields(err error, prefix string) error {
	e, ok := apperr.As(err)
	if !ok || len(e.Fields) == 0 {
		return err
	}
	c := *e
	c.Fields = make([]apperr.FieldError, len(e.Fields))
	for i, f := range e.Fields {
		f.Field = prefix + "." + f.Field
		c.Fields[i] = f
	}
	return &c
}

func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}
