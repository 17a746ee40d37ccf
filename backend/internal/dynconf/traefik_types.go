package dynconf

import (
	"slices"

	"gopkg.in/yaml.v3"
)

// The subset of Traefik's pkg/config/dynamic types the panel emits, with the
// same JSON and YAML names: the HTTP provider's JSON (Build), and the file
// provider's YAML of managed mode (managed.BuildReplicas). Maps are encoded
// with sorted keys by encoding/json and yaml.v3, so the output is
// byte-identical for the same input.

// Config is Traefik's dynamic configuration.
type Config struct {
	// HTTP is nil when there is nothing to route: Traefik refuses an empty
	// "http" object ("http cannot be a standalone element") but accepts {}.
	HTTP *HTTPConfig `json:"http,omitempty" yaml:"http,omitempty"`
	// TCP and UDP are nil without tcp or udp services.
	TCP *TCPConfig `json:"tcp,omitempty" yaml:"tcp,omitempty"`
	UDP *UDPConfig `json:"udp,omitempty" yaml:"udp,omitempty"`

	// owners records which panel service contributed each name; it is not
	// part of the wire format. tcpOwners and udpOwners do for the tcp and
	// udp sections (udp has no middlewares or transports).
	owners, tcpOwners, udpOwners owners
}

// Section returns the "http" section, empty when there is none.
func (c Config) Section() HTTPConfig {
	if c.HTTP == nil {
		return HTTPConfig{}
	}
	return *c.HTTP
}

// HTTPConfig is the "http" section.
type HTTPConfig struct {
	Routers           map[string]*Router           `json:"routers,omitempty" yaml:"routers,omitempty"`
	Services          map[string]*TraefikService   `json:"services,omitempty" yaml:"services,omitempty"`
	Middlewares       map[string]*Middleware       `json:"middlewares,omitempty" yaml:"middlewares,omitempty"`
	ServersTransports map[string]*ServersTransport `json:"serversTransports,omitempty" yaml:"serversTransports,omitempty"`
}

// MarshalYAML writes the section's keys in the order the file provider's
// documents have always had them (the replicas file's hash is what the
// wrapper compares, so it must not change between versions).
func (h HTTPConfig) MarshalYAML() (any, error) {
	type plain HTTPConfig
	return yamlInOrder(plain(h), "routers", "middlewares", "services")
}

// Router is dynamic.Router.
type Router struct {
	EntryPoints []string         `json:"entryPoints,omitempty" yaml:"entryPoints,omitempty"`
	Middlewares []string         `json:"middlewares,omitempty" yaml:"middlewares,omitempty"`
	Service     string           `json:"service,omitempty" yaml:"service,omitempty"`
	Rule        string           `json:"rule,omitempty" yaml:"rule,omitempty"`
	Priority    int              `json:"priority,omitempty" yaml:"priority,omitempty"`
	TLS         *RouterTLSConfig `json:"tls,omitempty" yaml:"tls,omitempty"`
}

// MarshalYAML writes the router's keys in the file provider's order (see
// HTTPConfig.MarshalYAML).
func (r Router) MarshalYAML() (any, error) {
	type plain Router
	return yamlInOrder(plain(r), "entryPoints", "rule", "middlewares", "service")
}

// RouterTLSConfig is dynamic.RouterTLSConfig.
type RouterTLSConfig struct {
	Options      string   `json:"options,omitempty" yaml:"options,omitempty"`
	CertResolver string   `json:"certResolver,omitempty" yaml:"certResolver,omitempty"`
	Domains      []Domain `json:"domains,omitempty" yaml:"domains,omitempty"`
}

// Domain is types.Domain: one certificate's main name and SANs.
type Domain struct {
	Main string   `json:"main,omitempty" yaml:"main,omitempty"`
	SANs []string `json:"sans,omitempty" yaml:"sans,omitempty"`
}

// TraefikService is dynamic.Service (the load balancer and failover kinds).
type TraefikService struct {
	LoadBalancer *ServersLoadBalancer `json:"loadBalancer,omitempty" yaml:"loadBalancer,omitempty"`
	Failover     *Failover            `json:"failover,omitempty" yaml:"failover,omitempty"`
}

// Failover is dynamic.Failover: Service while it has a healthy server,
// else Fallback.
type Failover struct {
	Service  string `json:"service,omitempty" yaml:"service,omitempty"`
	Fallback string `json:"fallback,omitempty" yaml:"fallback,omitempty"`
}

// ServersLoadBalancer is dynamic.ServersLoadBalancer.
type ServersLoadBalancer struct {
	Sticky           *Sticky            `json:"sticky,omitempty" yaml:"sticky,omitempty"`
	Servers          []Server           `json:"servers,omitempty" yaml:"servers,omitempty"`
	HealthCheck      *ServerHealthCheck `json:"healthCheck,omitempty" yaml:"healthCheck,omitempty"`
	PassHostHeader   *bool              `json:"passHostHeader,omitempty" yaml:"passHostHeader,omitempty"`
	ServersTransport string             `json:"serversTransport,omitempty" yaml:"serversTransport,omitempty"`
}

// Sticky is dynamic.Sticky.
type Sticky struct {
	Cookie *Cookie `json:"cookie,omitempty" yaml:"cookie,omitempty"`
}

// Cookie is dynamic.Cookie.
type Cookie struct {
	Name     string `json:"name,omitempty" yaml:"name,omitempty"`
	Secure   bool   `json:"secure,omitempty" yaml:"secure,omitempty"`
	HTTPOnly bool   `json:"httpOnly,omitempty" yaml:"httpOnly,omitempty"`
	SameSite string `json:"sameSite,omitempty" yaml:"sameSite,omitempty"`
}

// ServerHealthCheck is dynamic.ServerHealthCheck; durations are Go
// duration strings ("10s").
type ServerHealthCheck struct {
	Path     string `json:"path,omitempty" yaml:"path,omitempty"`
	Status   int    `json:"status,omitempty" yaml:"status,omitempty"`
	Interval string `json:"interval,omitempty" yaml:"interval,omitempty"`
	Timeout  string `json:"timeout,omitempty" yaml:"timeout,omitempty"`
}

// Server is dynamic.Server.
type Server struct {
	URL    string `json:"url,omitempty" yaml:"url,omitempty"`
	Weight *int   `json:"weight,omitempty" yaml:"weight,omitempty"`
}

// ServersTransport is dynamic.ServersTransport.
type ServersTransport struct {
	InsecureSkipVerify bool                `json:"insecureSkipVerify,omitempty" yaml:"insecureSkipVerify,omitempty"`
	ForwardingTimeouts *ForwardingTimeouts `json:"forwardingTimeouts,omitempty" yaml:"forwardingTimeouts,omitempty"`
}

// ForwardingTimeouts is dynamic.ForwardingTimeouts (Go duration strings).
type ForwardingTimeouts struct {
	DialTimeout           string `json:"dialTimeout,omitempty" yaml:"dialTimeout,omitempty"`
	ResponseHeaderTimeout string `json:"responseHeaderTimeout,omitempty" yaml:"responseHeaderTimeout,omitempty"`
	IdleConnTimeout       string `json:"idleConnTimeout,omitempty" yaml:"idleConnTimeout,omitempty"`
}

// Middleware is dynamic.Middleware (the kinds the panel emits).
type Middleware struct {
	BasicAuth      *BasicAuth      `json:"basicAuth,omitempty" yaml:"basicAuth,omitempty"`
	ForwardAuth    *ForwardAuth    `json:"forwardAuth,omitempty" yaml:"forwardAuth,omitempty"`
	Headers        *Headers        `json:"headers,omitempty" yaml:"headers,omitempty"`
	ReplacePath    *ReplacePath    `json:"replacePath,omitempty" yaml:"replacePath,omitempty"`
	RedirectScheme *RedirectScheme `json:"redirectScheme,omitempty" yaml:"redirectScheme,omitempty"`
	RedirectRegex  *RedirectRegex  `json:"redirectRegex,omitempty" yaml:"redirectRegex,omitempty"`
	Retry          *Retry          `json:"retry,omitempty" yaml:"retry,omitempty"`
}

// Retry is dynamic.Retry; InitialInterval is a Go duration string.
type Retry struct {
	Attempts        int    `json:"attempts,omitempty" yaml:"attempts,omitempty"`
	InitialInterval string `json:"initialInterval,omitempty" yaml:"initialInterval,omitempty"`
}

// RedirectRegex is dynamic.RedirectRegex.
type RedirectRegex struct {
	Regex       string `json:"regex,omitempty" yaml:"regex,omitempty"`
	Replacement string `json:"replacement,omitempty" yaml:"replacement,omitempty"`
	Permanent   bool   `json:"permanent,omitempty" yaml:"permanent,omitempty"`
}

// RedirectScheme is dynamic.RedirectScheme.
type RedirectScheme struct {
	Scheme    string `json:"scheme,omitempty" yaml:"scheme,omitempty"`
	Port      string `json:"port,omitempty" yaml:"port,omitempty"`
	Permanent bool   `json:"permanent,omitempty" yaml:"permanent,omitempty"`
}

// BasicAuth is dynamic.BasicAuth; users are "name:hash" (bcrypt is verified natively).
type BasicAuth struct {
	Users        []string `json:"users,omitempty" yaml:"users,omitempty"`
	Realm        string   `json:"realm,omitempty" yaml:"realm,omitempty"`
	RemoveHeader bool     `json:"removeHeader,omitempty" yaml:"removeHeader,omitempty"`
}

// ForwardAuth is dynamic.ForwardAuth.
type ForwardAuth struct {
	Address                  string   `json:"address,omitempty" yaml:"address,omitempty"`
	TrustForwardHeader       bool     `json:"trustForwardHeader" yaml:"trustForwardHeader"`
	AuthResponseHeaders      []string `json:"authResponseHeaders,omitempty" yaml:"authResponseHeaders,omitempty"`
	AuthResponseHeadersRegex string   `json:"authResponseHeadersRegex,omitempty" yaml:"authResponseHeadersRegex,omitempty"`
	AddAuthCookiesToResponse []string `json:"addAuthCookiesToResponse,omitempty" yaml:"addAuthCookiesToResponse,omitempty"`
}

// Headers is dynamic.Headers (request headers and HSTS).
type Headers struct {
	CustomRequestHeaders map[string]string `json:"customRequestHeaders,omitempty" yaml:"customRequestHeaders,omitempty"`
	STSSeconds           int64             `json:"stsSeconds,omitempty" yaml:"stsSeconds,omitempty"`
	STSIncludeSubdomains bool              `json:"stsIncludeSubdomains,omitempty" yaml:"stsIncludeSubdomains,omitempty"`
	STSPreload           bool              `json:"stsPreload,omitempty" yaml:"stsPreload,omitempty"`
}

// ReplacePath is dynamic.ReplacePath.
type ReplacePath struct {
	Path string `json:"path,omitempty" yaml:"path,omitempty"`
}

// yamlInOrder encodes v, a struct, as a YAML mapping whose keys come in
// order; the keys order leaves out follow in their field order.
func yamlInOrder(v any, order ...string) (*yaml.Node, error) {
	var n yaml.Node
	if err := n.Encode(v); err != nil {
		return nil, err
	}
	rank := func(k *yaml.Node) int {
		if i := slices.Index(order, k.Value); i >= 0 {
			return i
		}
		return len(order)
	}
	pairs := make([][2]*yaml.Node, 0, len(n.Content)/2)
	for i := 0; i+1 < len(n.Content); i += 2 {
		pairs = append(pairs, [2]*yaml.Node{n.Content[i], n.Content[i+1]})
	}
	slices.SortStableFunc(pairs, func(a, b [2]*yaml.Node) int { return rank(a[0]) - rank(b[0]) })
	for i, kv := range pairs {
		n.Content[2*i], n.Content[2*i+1] = kv[0], kv[1]
	}
	return &n, nil
}
