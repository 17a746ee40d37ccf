package containers

import (
	"context"
	"fmt"
	"strings"
	"time"

	"gorm.io/gorm"

	"github.com/gatehouse-proxy/gatehouse/internal/apperr"
	"github.com/gatehouse-proxy/gatehouse/internal/background"
	"github.com/gatehouse-proxy/gatehouse/internal/services"
	"github.com/gatehouse-proxy/gatehouse/internal/store"
)

// LeaderLoops follows the engine: its event stream, and a full read every
// Resync (events are lost while the stream reconnects). One replica runs
// it for all; nothing without PANEL_DOCKER_HOST.
func (s *Service) LeaderLoops() []background.Loop {
	if s.d.Engine == nil {
		return nil
	}
	return []background.Loop{{Name: "containers: follow the engine", Run: s.watch}}
}

func (s *Service) watch(ctx context.Context) {
	kick := make(chan struct{}, 1)
	poke := func() {
		select {
		case kick <- struct{}{}:
		default:
		}
	}
	go func() {
		for ctx.Err() == nil {
			err := s.d.Engine.Events(ctx, func(ev Event) {
				if relevant(ev.Action) {
					poke()
				}
			})
			if ctx.Err() != nil {
				return
			}
			s.d.Logger.Warn("container events stopped; reconnecting", "err", err)
			select {
			case <-ctx.Done():
				return
			case <-time.After(2 * time.Second):
			}
			poke() // what happened while the stream was down
		}
	}()
	t := time.NewTicker(s.d.Resync)
	defer t.Stop()
	for {
		if err := s.Reconcile(ctx); err != nil && ctx.Err() == nil {
			s.d.Logger.Warn("containers: reconcile failed", "err", err)
		}
		select {
		case <-ctx.Done():
			return
		case <-kick:
		case <-t.C:
		}
	}
}

// relevant reports whether a container event can change an address, a
// state or labels (not an exec, an attach or a log read).
func relevant(action string) bool {
	for _, p := range []string{"exec", "attach", "detach", "top", "resize", "archive", "export", "commit", "copy", "checkpoint"} {
		if strings.HasPrefix(action, p) {
			return false
		}
	}
	return true
}

// Reconciled returns a channel closed after the next reconciliation ends.
func (s *Service) Reconciled() <-chan struct{} {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.reconciled
}

// Reconcile reads every container once and brings the bindings in line:
// each bound service's target follows its container's address, its state
// is recorded, and the labels of running containers are applied.
func (s *Service) Reconcile(ctx context.Context) error {
	defer func() {
		s.mu.Lock()
		close(s.reconciled)
		s.reconciled = make(chan struct{})
		s.mu.Unlock()
	}()
	all, err := s.d.Engine.List(ctx, true)
	if err != nil {
		return err
	}
	byName := make(map[string]*Container, len(all))
	for i := range all {
		// A stopped container and a running one of the same name can
		// exist only briefly; the running one counts.
		if prev, ok := byName[all[i].Name]; !ok || !prev.Running() {
			byName[all[i].Name] = &all[i]
		}
	}
	var rows []store.ContainerBinding
	if err := s.d.DB.WithContext(ctx).Order("created_at, service_id").Find(&rows).Error; err != nil {
		return fmt.Errorf("list container bindings: %w", err)
	}
	labelled := map[string]store.ContainerBinding{}
	for _, r := range rows {
		if r.Source == store.BindingLabels {
			labelled[r.ContainerName] = r
		}
		if err := s.follow(ctx, r, byName[r.ContainerName]); err != nil {
			s.d.Logger.Warn("containers: follow failed", "service_id", r.ServiceID, "container", r.ContainerName, "err", err)
		}
	}
	applyErrs := map[string][]LabelError{}
	for _, c := range all {
		if !c.Running() || !Declared(c.Labels) {
			continue
		}
		r, ok := labelled[c.Name]
		if errs := s.applyLabels(ctx, c, r, ok); len(errs) > 0 {
			applyErrs[c.Name] = errs
		}
	}
	s.mu.Lock()
	s.applyErrors = applyErrs
	s.mu.Unlock()
	return nil
}

// follow records the state of r's container and points r's service at
// the container's current address.
func (s *Service) follow(ctx context.Context, r store.ContainerBinding, c *Container) error {
	next := r
	switch {
	case c == nil:
		next.State = store.ContainerGone
	case !c.Running():
		next.State, next.ContainerID = store.ContainerStopped, c.ID
	default:
		next.State, next.ContainerID = store.ContainerRunning, c.ID
		var pl Placement
		var err error
		if r.Network != "" {
			pl, err = onNetwork(*c, r.Network, r.Port, s.d.Options)
		} else {
			pl, err = PublishedPlacement(*c, r.Port, s.d.Options)
		}
		if err != nil {
			return err
		}
		if addr := address(pl); addr != r.Address {
			if err := s.retarget(ctx, r.ServiceID, pl); err != nil {
				return err
			}
			next.Address = addr
			s.d.Logger.Info("containers: service follows its container", "service_id", r.ServiceID,
				"container", c.Name, "from", r.Address, "to", addr)
		}
	}
	if next.State == r.State && next.ContainerID == r.ContainerID && next.Address == r.Address {
		return nil
	}
	return s.d.DB.WithContext(ctx).Model(&store.ContainerBinding{}).Where("service_id = ?", r.ServiceID).
		Updates(map[string]any{"state": next.State, "container_id": next.ContainerID, "address": next.Address,
			"updated_at": s.d.Now()}).Error
}

// retarget points the service's targets at pl, keeping the scheme.
func (s *Service) retarget(ctx context.Context, serviceID string, pl Placement) error {
	cur, err := s.d.Services.Get(ctx, serviceID)
	if err != nil {
		return err
	}
	t := store.Target{Scheme: "http", Host: pl.Host, Port: pl.TargetPort}
	if len(cur.Targets) > 0 {
		t.Scheme = cur.Targets[0].Scheme
	}
	_, err = s.d.Services.SetTargets(ctx, serviceID, []store.Target{t})
	return err
}

// applyLabels makes or changes the service c's labels declare; r is its
// binding when it has one. It returns what went wrong, label by label.
func (s *Service) applyLabels(ctx context.Context, c Container, r store.ContainerBinding, bound bool) []LabelError {
	spec, errs := ParseLabels(c.Name, c.Labels, s.d.Presets())
	if len(errs) > 0 {
		return errs
	}
	if bound && r.LabelsDigest == spec.Digest {
		return nil
	}
	pl, err := Place(c, spec.Network, spec.Port, s.d.Options)
	if err != nil {
		label := LabelPort
		if spec.Network != "" {
			label = LabelNetwork
		}
		return []LabelError{{Label: label, Message: err.Error()}}
	}
	req := services.Request{Name: spec.Name, Kind: store.KindProxy, Entrypoints: spec.Entrypoints,
		Targets: []store.Target{{Scheme: spec.Scheme, Host: pl.Host, Port: pl.TargetPort}}}
	for _, h := range spec.Hostnames {
		req.Hostnames = append(req.Hostnames, store.Hostname{Type: store.HostCustom, Value: h})
	}
	now := s.d.Now()
	id := r.ServiceID
	if bound {
		_, err = s.d.Services.Replace(ctx, id, req)
		if err == nil {
			err = s.d.DB.WithContext(ctx).Model(&store.ContainerBinding{}).Where("service_id = ?", id).
				Updates(map[string]any{"network": pl.Network, "port": pl.Port, "address": address(pl),
					"labels_digest": spec.Digest, "label_error": "", "container_id": c.ID,
					"state": store.ContainerRunning, "updated_at": now}).Error
		}
	} else {
		var made services.Response
		made, err = s.d.Services.CreateThen(ctx, req, func(tx *gorm.DB, sid string) error {
			return tx.Create(&store.ContainerBinding{ServiceID: sid, ContainerName: c.Name, Network: pl.Network,
				Port: pl.Port, Source: store.BindingLabels, State: store.ContainerRunning, ContainerID: c.ID,
				Address: address(pl), LabelsDigest: spec.Digest, CreatedAt: now, UpdatedAt: now}).Error
		})
		id = made.ID
	}
	if err == nil {
		err = s.protectAndPreset(ctx, id, spec)
	}
	if err != nil {
		s.d.Logger.Warn("containers: labels not applied", "container", c.Name, "err", err)
		msg := err.Error()
		if e, ok := apperr.As(err); ok {
			msg = e.Message
			if len(e.Fields) > 0 {
				msg = e.Fields[0].Field + ": " + e.Fields[0].Message
			}
		}
		if bound {
			_ = s.d.DB.WithContext(ctx).Model(&store.ContainerBinding{}).Where("service_id = ?", id).
				Update("label_error", truncate(msg, 500)).Error
		}
		return []LabelError{{Label: LabelPrefix + "*", Message: truncate(msg, 500)}}
	}
	s.d.Logger.Info("containers: labels applied", "container", c.Name, "service_id", id)
	return nil
}

func (s *Service) protectAndPreset(ctx context.Context, id string, spec Spec) error {
	if s.d.Protect != nil {
		if err := s.d.Protect(ctx, id, spec.Protection); err != nil {
			return fmt.Errorf("%s: %w", LabelProtection, err)
		}
	}
	if spec.AccessPreset != "" && s.d.ApplyPreset != nil {
		if err := s.d.ApplyPreset(ctx, id, spec.AccessPreset); err != nil {
			return fmt.Errorf("%s: %w", LabelAccessPreset, err)
		}
	}
	return nil
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && s[n]&0xC0 == 0x80 {
		n--
	}
	return s[:n]
}
