package status

import (
	"fmt"
	"net"
	"net/url"
	"strings"
	"time"
)

// Setup variants: where Traefik runs relative to the panel.
const (
	SetupDocker = "docker" // Traefik in a container, the panel reached over a Docker network
	SetupHost   = "host"   // Traefik a process on the panel's host
)

// SetupInput is what the setup guide needs to know about the panel.
type SetupInput struct {
	// Internal is PANEL_INTERNAL_URL as configured ("" when unset).
	Internal string
	// Bound is the listener's address as bound ("127.0.0.1:8080").
	Bound    string
	TokenSet bool
	Interval time.Duration
}

// Setup is one complete static configuration for Traefik and the panel's
// environment that goes with it.
type Setup struct {
	Variant string `json:"variant"`
	// ProviderURL is the address Traefik polls in this variant.
	ProviderURL string `json:"providerUrl"`
	TraefikYML  string `json:"traefikYml"`
	// Env are the panel's variables to set (NAME=value lines).
	Env string `json:"env"`
	// Warnings are what stops this variant from working as things are.
	Warnings []string `json:"warnings"`
}

// Setups returns the guide for both variants: a Traefik container cannot
// reach a loopback address, so the Docker variant names the panel by its
// Docker service name unless PANEL_INTERNAL_URL already gives a reachable
// one, and warns about every loopback address on the way.
func Setups(in SetupInput) []Setup {
	if in.Interval <= 0 {
		in.Interval = DefaultInterval
	}
	host, port := "127.0.0.1", "8080"
	if h, p, err := net.SplitHostPort(in.Bound); err == nil {
		host, port = h, p
	}
	listenLoopback := isLoopback(host)
	internalLoopback := in.Internal != "" && isLoopback(hostOf(in.Internal))

	// Traefik in Docker.
	docker := Setup{Variant: SetupDocker, ProviderURL: in.Internal, Warnings: []string{}}
	var env []string
	if in.Internal == "" || internalLoopback {
		docker.ProviderURL = "http://gatehouse:" + port
		env = append(env, "PANEL_INTERNAL_URL="+docker.ProviderURL)
	}
	if internalLoopback {
		docker.Warnings = append(docker.Warnings, fmt.Sprintf(
			"PANEL_INTERNAL_URL is %s, a loopback address: inside a container that is the container itself, so Traefik cannot reach the panel there. Set PANEL_INTERNAL_URL to the panel's address on the Docker network, for example %s.",
			in.Internal, docker.ProviderURL))
	} else if in.Internal == "" {
		docker.Warnings = append(docker.Warnings, fmt.Sprintf(
			"PANEL_INTERNAL_URL is not set: the panel does not know the address Traefik reaches it at. Set it to the panel's address on the Docker network (%s if the panel's service is called gatehouse).",
			docker.ProviderURL))
	}
	if listenLoopback {
		env = append(env, "PANEL_LISTEN=0.0.0.0:"+port)
		docker.Warnings = append(docker.Warnings, fmt.Sprintf(
			"The panel listens on %s, a loopback address that other containers cannot reach. Set PANEL_LISTEN=0.0.0.0:%s (and never publish that port to the internet).",
			net.JoinHostPort(host, port), port))
	}
	docker.Env = strings.Join(append(env, "PANEL_PROXY_API_URL=http://traefik:8080"), "\n") + "\n"
	docker.TraefikYML = traefikYML("Traefik in Docker", docker.ProviderURL, in, "",
		"# The API, dashboard and metrics on Traefik's internal \"traefik\" entrypoint (:8080):\n# the panel reads them at http://traefik:8080. Never publish that port.\n")

	// Traefik on this host: the panel's own address works, loopback too.
	hostSetup := Setup{Variant: SetupHost, ProviderURL: in.Internal, Warnings: []string{}}
	env = nil
	if in.Internal == "" {
		h := host
		if ip := net.ParseIP(h); h == "" || (ip != nil && ip.IsUnspecified()) {
			h = "127.0.0.1"
		}
		hostSetup.ProviderURL = "http://" + net.JoinHostPort(h, port)
		env = append(env, "PANEL_INTERNAL_URL="+hostSetup.ProviderURL)
	}
	// Traefik's API entrypoint defaults to :8080, the panel's own default
	// port: on one host it moves to the next port, on loopback only.
	apiPort := "8080"
	if port == "8080" {
		apiPort = "8081"
	}
	apiAddr := net.JoinHostPort("127.0.0.1", apiPort)
	hostSetup.Env = strings.Join(append(env, "PANEL_PROXY_API_URL=http://"+apiAddr), "\n") + "\n"
	hostSetup.TraefikYML = traefikYML("Traefik on this host", hostSetup.ProviderURL, in,
		"  traefik:\n    address: \""+apiAddr+"\" # the API and metrics, on loopback only\n",
		"# The API, dashboard and metrics on the \"traefik\" entrypoint above: the panel reads\n# them at http://"+apiAddr+".\n")
	return []Setup{docker, hostSetup}
}

// traefikYML is a complete static configuration: the web and websecure
// entrypoints (extra: more entrypoints), the HTTP provider polling the
// panel at panelURL, the API and Prometheus metrics.
func traefikYML(title, panelURL string, in SetupInput, extraEntrypoints, apiComment string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# traefik.yml: Traefik's static configuration (%s).\n", title)
	// websecure declares its TLS (http.tls) rather than leaving it to the
	// port: the panel reads Traefik's entrypoints and gives TLS to the
	// routers of those that have it, so a websecure moved off 443 (a port
	// taken on a shared host) still serves HTTPS.
	b.WriteString("entryPoints:\n  web:\n    address: \":80\"\n  websecure:\n    address: \":443\"\n    http:\n      tls: {} # HTTPS on every router of this entrypoint\n")
	b.WriteString(extraEntrypoints)
	prov := Snippet(panelURL, in.Interval, in.TokenSet)
	b.WriteString(prov)
	b.WriteString(apiComment)
	b.WriteString("api:\n  insecure: true\nmetrics:\n  prometheus:\n    addEntryPointsLabels: true\n    addRoutersLabels: true\n    addServicesLabels: true\n")
	return b.String()
}

func hostOf(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return ""
	}
	return u.Hostname()
}

// isLoopback reports whether host is a loopback address or "localhost".
func isLoopback(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}
