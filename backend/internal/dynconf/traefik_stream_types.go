package dynconf

// The subset of Traefik's TCP and UDP dynamic configuration the panel
// emits (pkg/config/dynamic tcp_config.go and udp_config.go), with the same
// JSON and YAML names.

// TCPConfig is the "tcp" section.
type TCPConfig struct {
	Routers           map[string]*TCPRouter           `json:"routers,omitempty" yaml:"routers,omitempty"`
	Services          map[string]*TCPService          `json:"services,omitempty" yaml:"services,omitempty"`
	Middlewares       map[string]*TCPMiddleware       `json:"middlewares,omitempty" yaml:"middlewares,omitempty"`
	ServersTransports map[string]*TCPServersTransport `json:"serversTransports,omitempty" yaml:"serversTransports,omitempty"`
}

// TCPRouter is dynamic.TCPRouter.
type TCPRouter struct {
	EntryPoints []string      `json:"entryPoints,omitempty" yaml:"entryPoints,omitempty"`
	Middlewares []string      `json:"middlewares,omitempty" yaml:"middlewares,omitempty"`
	Service     string        `json:"service,omitempty" yaml:"service,omitempty"`
	Rule        string        `json:"rule,omitempty" yaml:"rule,omitempty"`
	TLS         *TCPRouterTLS `json:"tls,omitempty" yaml:"tls,omitempty"`
}

// TCPRouterTLS is dynamic.RouterTCPTLSConfig: passthrough hands the TLS
// connection to the target as it is; otherwise Traefik terminates it.
type TCPRouterTLS struct {
	Passthrough  bool     `json:"passthrough,omitempty" yaml:"passthrough,omitempty"`
	Options      string   `json:"options,omitempty" yaml:"options,omitempty"`
	CertResolver string   `json:"certResolver,omitempty" yaml:"certResolver,omitempty"`
	Domains      []Domain `json:"domains,omitempty" yaml:"domains,omitempty"`
}

// TCPService is dynamic.TCPService (the load balancer and weighted kinds).
type TCPService struct {
	LoadBalancer *StreamLoadBalancer `json:"loadBalancer,omitempty" yaml:"loadBalancer,omitempty"`
	Weighted     *StreamWeighted     `json:"weighted,omitempty" yaml:"weighted,omitempty"`
}

// StreamLoadBalancer is dynamic.TCPServersLoadBalancer and
// dynamic.UDPServersLoadBalancer (UDP has no serversTransport). TCP and UDP
// servers carry no weight: weights go through a weighted service.
type StreamLoadBalancer struct {
	Servers          []StreamServer `json:"servers,omitempty" yaml:"servers,omitempty"`
	ServersTransport string         `json:"serversTransport,omitempty" yaml:"serversTransport,omitempty"`
}

// StreamServer is dynamic.TCPServer and dynamic.UDPServer: host:port.
type StreamServer struct {
	Address string `json:"address,omitempty" yaml:"address,omitempty"`
}

// StreamWeighted is dynamic.TCPWeightedRoundRobin and UDPWeightedRoundRobin.
type StreamWeighted struct {
	Services []WRRService `json:"services,omitempty" yaml:"services,omitempty"`
}

// WRRService is dynamic.TCPWRRService and UDPWRRService.
type WRRService struct {
	Name   string `json:"name,omitempty" yaml:"name,omitempty"`
	Weight *int   `json:"weight,omitempty" yaml:"weight,omitempty"`
}

// TCPMiddleware is dynamic.TCPMiddleware (the kinds the panel emits).
type TCPMiddleware struct {
	InFlightConn *TCPInFlightConn `json:"inFlightConn,omitempty" yaml:"inFlightConn,omitempty"`
	IPAllowList  *TCPIPAllowList  `json:"ipAllowList,omitempty" yaml:"ipAllowList,omitempty"`
}

// TCPInFlightConn is dynamic.TCPInFlightConn: at most Amount simultaneous
// connections from one client address.
type TCPInFlightConn struct {
	Amount int64 `json:"amount,omitempty" yaml:"amount,omitempty"`
}

// TCPIPAllowList is dynamic.TCPIPAllowList.
type TCPIPAllowList struct {
	SourceRange []string `json:"sourceRange,omitempty" yaml:"sourceRange,omitempty"`
}

// TCPServersTransport is dynamic.TCPServersTransport (the PROXY protocol
// to the targets; Traefik 3.5.2 moved it here from the load balancer).
type TCPServersTransport struct {
	ProxyProtocol *ProxyProtocol `json:"proxyProtocol,omitempty" yaml:"proxyProtocol,omitempty"`
}

// ProxyProtocol is dynamic.ProxyProtocol.
type ProxyProtocol struct {
	Version int `json:"version,omitempty" yaml:"version,omitempty"`
}

// UDPConfig is the "udp" section.
type UDPConfig struct {
	Routers  map[string]*UDPRouter  `json:"routers,omitempty" yaml:"routers,omitempty"`
	Services map[string]*UDPService `json:"services,omitempty" yaml:"services,omitempty"`
}

// UDPRouter is dynamic.UDPRouter: every datagram of its entrypoints.
type UDPRouter struct {
	EntryPoints []string `json:"entryPoints,omitempty" yaml:"entryPoints,omitempty"`
	Service     string   `json:"service,omitempty" yaml:"service,omitempty"`
}

// UDPService is dynamic.UDPService.
type UDPService struct {
	LoadBalancer *StreamLoadBalancer `json:"loadBalancer,omitempty" yaml:"loadBalancer,omitempty"`
	Weighted     *StreamWeighted     `json:"weighted,omitempty" yaml:"weighted,omitempty"`
}
