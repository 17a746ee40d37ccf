package dynconf

// The subset of Traefik's pkg/config/dynamic types the panel emits, with the
// same JSON tags. Maps are encoded with sorted keys by encoding/json, so the
// output is byte-identical for the same input.

// Config is Traefik's dynamic configuration.
type Config struct {
	// HTTP is nil when there is nothing to route: Traefik refuses an empty
	// "http" object ("http cannot be a standalone element") but accepts {}.
	HTTP *HTTPConfig `json:"http,omitempty"`

	// owners records which panel service contributed each name; it is not
	// part of the wire format.
	owners owners
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
	Routers           map[string]*Router           `json:"routers,omitempty"`
	Services          map[string]*TraefikService   `json:"services,omitempty"`
	Middlewares       map[string]*Middleware       `json:"middlewares,omitempty"`
	ServersTransports map[string]*ServersTransport `json:"serversTransports,omitempty"`
}

// Router is dynamic.Router.
type Router struct {
	EntryPoints []string         `json:"entryPoints,omitempty"`
	Middlewares []string         `json:"middlewares,omitempty"`
	Service     string           `json:"service,omitempty"`
	Rule        string           `json:"rule,omitempty"`
	Priority    int              `json:"priority,omitempty"`
	TLS         *RouterTLSConfig `json:"tls,omitempty"`
}

// RouterTLSConfig is dynamic.RouterTLSConfig.
type RouterTLSConfig struct {
	Options      string   `json:"options,omitempty"`
	CertResolver string   `json:"certResolver,omitempty"`
	Domains      []Domain `json:"domains,omitempty"`
}

// Domain is types.Domain: one certificate's main name and SANs.
type Domain struct {
	Main string   `json:"main,omitempty"`
	SANs []string `json:"sans,omitempty"`
}

// TraefikService is dynamic.Service (only the load balancer kind).
type TraefikService struct {
	LoadBalancer *ServersLoadBalancer `json:"loadBalancer,omitempty"`
}

// ServersLoadBalancer is dynamic.ServersLoadBalancer.
type ServersLoadBalancer struct {
	Sticky           *Sticky            `json:"sticky,omitempty"`
	Servers          []Server           `json:"servers,omitempty"`
	HealthCheck      *ServerHealthCheck `json:"healthCheck,omitempty"`
	PassHostHeader   *bool              `json:"passHostHeader,omitempty"`
	ServersTransport string             `json:"serversTransport,omitempty"`
}

// Sticky is dynamic.Sticky.
type Sticky struct {
	Cookie *Cookie `json:"cookie,omitempty"`
}

// Cookie is dynamic.Cookie.
type Cookie struct {
	Name     string `json:"name,omitempty"`
	Secure   bool   `json:"secure,omitempty"`
	HTTPOnly bool   `json:"httpOnly,omitempty"`
	SameSite string `json:"sameSite,omitempty"`
}

// ServerHealthCheck is dynamic.ServerHealthCheck; durations are Go
// duration strings ("10s").
type ServerHealthCheck struct {
	Path     string `json:"path,omitempty"`
	Status   int    `json:"status,omitempty"`
	Interval string `json:"interval,omitempty"`
	Timeout  string `json:"timeout,omitempty"`
}

// Server is dynamic.Server.
type Server struct {
	URL    string `json:"url,omitempty"`
	Weight *int   `json:"weight,omitempty"`
}

// ServersTransport is dynamic.ServersTransport.
type ServersTransport struct {
	InsecureSkipVerify bool                `json:"insecureSkipVerify,omitempty"`
	ForwardingTimeouts *ForwardingTimeouts `json:"forwardingTimeouts,omitempty"`
}

// ForwardingTimeouts is dynamic.ForwardingTimeouts (Go duration strings).
type ForwardingTimeouts struct {
	DialTimeout           string `json:"dialTimeout,omitempty"`
	ResponseHeaderTimeout string `json:"responseHeaderTimeout,omitempty"`
	IdleConnTimeout       string `json:"idleConnTimeout,omitempty"`
}

// Middleware is dynamic.Middleware (the kinds the panel emits).
type Middleware struct {
	BasicAuth      *BasicAuth      `json:"basicAuth,omitempty"`
	ForwardAuth    *ForwardAuth    `json:"forwardAuth,omitempty"`
	Headers        *Headers        `json:"headers,omitempty"`
	ReplacePath    *ReplacePath    `json:"replacePath,omitempty"`
	RedirectScheme *RedirectScheme `json:"redirectScheme,omitempty"`
	RedirectRegex  *RedirectRegex  `json:"redirectRegex,omitempty"`
}

// RedirectRegex is dynamic.RedirectRegex.
type RedirectRegex struct {
	Regex       string `json:"regex,omitempty"`
	Replacement string `json:"replacement,omitempty"`
	Permanent   bool   `json:"permanent,omitempty"`
}

// RedirectScheme is dynamic.RedirectScheme.
type RedirectScheme struct {
	Scheme    string `json:"scheme,omitempty"`
	Port      string `json:"port,omitempty"`
	Permanent bool   `json:"permanent,omitempty"`
}

// BasicAuth is dynamic.BasicAuth; users are "name:hash" (bcrypt is verified natively).
type BasicAuth struct {
	Users        []string `json:"users,omitempty"`
	Realm        string   `json:"realm,omitempty"`
	RemoveHeader bool     `json:"removeHeader,omitempty"`
}

// ForwardAuth is dynamic.ForwardAuth.
type ForwardAuth struct {
	Address                  string   `json:"address,omitempty"`
	TrustForwardHeader       bool     `json:"trustForwardHeader"`
	AuthResponseHeaders      []string `json:"authResponseHeaders,omitempty"`
	AuthResponseHeadersRegex string   `json:"authResponseHeadersRegex,omitempty"`
	AddAuthCookiesToResponse []string `json:"addAuthCookiesToResponse,omitempty"`
}

// Headers is dynamic.Headers (request headers and HSTS).
type Headers struct {
	CustomRequestHeaders map[string]string `json:"customRequestHeaders,omitempty"`
	STSSeconds           int64             `json:"stsSeconds,omitempty"`
	STSIncludeSubdomains bool              `json:"stsIncludeSubdomains,omitempty"`
	STSPreload           bool              `json:"stsPreload,omitempty"`
}

// ReplacePath is dynamic.ReplacePath.
type ReplacePath struct {
	Path string `json:"path,omitempty"`
}
