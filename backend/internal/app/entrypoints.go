package app

import (
	"context"

	"github.com/gatehouse-proxy/gatehouse/internal/services"
	"github.com/gatehouse-proxy/gatehouse/internal/settings"
)

// entrypointInfo answers services.Entrypoints: the default entrypoints
// from the settings, and each entrypoint's protocol from the first source
// that knows (managed mode's configuration, then Traefik's API). Sources
// are added once the wiring has built them.
type entrypointInfo struct {
	settings *settings.Service
	sources  []func(context.Context) (map[string]string, bool)
}

func (e *entrypointInfo) get(ctx context.Context) (services.EntrypointInfo, error) {
	g, err := e.settings.Get(ctx)
	if err != nil {
		return services.EntrypointInfo{}, err
	}
	info := services.EntrypointInfo{Defaults: g.DefaultEntrypoints}
	for _, src := range e.sources {
		if m, ok := src(ctx); ok {
			info.Protocols = m
			break
		}
	}
	return info, nil
}
