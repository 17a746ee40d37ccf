package containers

import (
	"time"

	"github.com/gatehouse-proxy/gatehouse/internal/services"
	"github.com/gatehouse-proxy/gatehouse/internal/store"
)

// States of GET /api/containers.
const (
	StateOK            = "ok"
	StateNotConfigured = "not_configured"
	StateUnreachable   = "unreachable"
)

// ListResponse is GET /api/containers.
type ListResponse struct {
	// State is ok, not_configured (PANEL_DOCKER_HOST is not set) or
	// unreachable (the engine did not answer); Reason says why in words.
	State  string `json:"state"`
	Reason string `json:"reason"`
	// TraefikNetworks are the networks Traefik shares with containers
	// (PANEL_DOCKER_NETWORK).
	TraefikNetworks []string        `json:"traefikNetworks"`
	Items           []ContainerItem `json:"items"`
}

// ContainerItem is one running container.
type ContainerItem struct {
	ID       string            `json:"id"`
	Name     string            `json:"name"`
	Image    string            `json:"image"`
	State    string            `json:"state"`
	Health   string            `json:"health"`
	Networks []NetworkItem     `json:"networks"`
	Ports    []PortItem        `json:"ports"`
	Labels   map[string]string `json:"labels"`
	// Suggestion is where Traefik would reach the container, and why
	// there; nil with SuggestionError saying why there is none.
	Suggestion      *Suggestion `json:"suggestion"`
	SuggestionError string      `json:"suggestionError,omitempty"`
	// Declared: the container's gatehouse.enable label asks for a
	// service; LabelErrors are the labels refused (no service is made
	// while there are any).
	Declared    bool         `json:"declared"`
	LabelErrors []LabelError `json:"labelErrors"`
	// Services are the services bound to the container.
	Services []BoundService `json:"services"`
}

// NetworkItem is the container's address on one network; Traefik says
// whether Traefik is on that network too.
type NetworkItem struct {
	Name    string `json:"name"`
	Address string `json:"address"`
	Traefik bool   `json:"traefik"`
}

// PortItem is an exposed port; public 0 when it is not published.
type PortItem struct {
	Private  int    `json:"private"`
	Public   int    `json:"public"`
	HostIP   string `json:"hostIp"`
	Protocol string `json:"protocol"`
}

// BoundService names a service bound to a container.
type BoundService struct {
	ServiceID string `json:"serviceId"`
	Source    string `json:"source"`
}

// Suggestion is the target "create service" fills in.
type Suggestion struct {
	// Network is "" when Via is published.
	Network string `json:"network"`
	// Port is the container's port; Host and TargetPort what the
	// service's target is set to.
	Port       int    `json:"port"`
	Host       string `json:"host"`
	TargetPort int    `json:"targetPort"`
	// Via is network, published or unshared_network; Reason says why in words.
	Via    string `json:"via"`
	Reason string `json:"reason"`
}

func toSuggestion(p Placement) *Suggestion {
	return &Suggestion{Network: p.Network, Port: p.Port, Host: p.Host, TargetPort: p.TargetPort, Via: p.Via, Reason: p.Reason}
}

// CreateRequest is POST /api/containers/services: a service made from a
// running container and bound to it. The service's targets are the
// panel's to fill: whatever Service.Targets holds is replaced.
type CreateRequest struct {
	Container string `json:"container" validate:"required,max=128"`
	// Network whose address the target uses; "" chooses as the
	// suggestion does.
	Network string `json:"network" validate:"max=128"`
	// Port of the container; 0 chooses its only exposed port.
	Port int `json:"port" validate:"min=0,max=65535"`
	// Scheme of the target: http (default), https or h2c.
	Scheme  string           `json:"scheme" validate:"omitempty,oneof=http https h2c"`
	Service services.Request `json:"service"`
}

// CreateResponse is the service made, its binding and where it points.
type CreateResponse struct {
	Service    services.Response `json:"service"`
	Binding    Binding           `json:"binding"`
	Suggestion Suggestion        `json:"placement"`
}

// Binding is GET /api/containers/bindings's item: a service bound to a
// container.
type Binding struct {
	ServiceID string `json:"serviceId"`
	Container string `json:"container"`
	Network   string `json:"network"`
	Port      int    `json:"port"`
	// Source is panel (created from the list; editable) or labels
	// (declared by the container's labels; read-only until detached).
	Source string `json:"source"`
	// State is running, stopped or gone, as the engine last said.
	State string `json:"state"`
	// Address is host:port the service's target was last set to.
	Address    string    `json:"address"`
	LabelError string    `json:"labelError"`
	UpdatedAt  time.Time `json:"updatedAt"`
}

func toBinding(r store.ContainerBinding) Binding {
	return Binding{ServiceID: r.ServiceID, Container: r.ContainerName, Network: r.Network, Port: r.Port,
		Source: r.Source, State: r.State, Address: r.Address, LabelError: r.LabelError, UpdatedAt: r.UpdatedAt}
}
