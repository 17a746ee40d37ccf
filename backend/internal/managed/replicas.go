package managed

import (
	"bytes"
	"fmt"
	"path"

	"gopkg.in/yaml.v3"
)

// Managed mode with replicas (PANEL_REPLICA_URLS): Traefik reaches "the
// panel" on its own loopback entrypoint, which load-balances over every
// replica. The load balancer lives in a file the wrapper fetches and
// Traefik's file provider watches, so Traefik can reach the panel before its
// HTTP provider (which goes through that entrypoint) has answered once.
const (
	// PanelEntrypoint is the loopback entrypoint in front of the replicas.
	PanelEntrypoint = "gatehouse"
	// PanelService is the replicas' load balancer in the file provider;
	// other providers name it PanelService + "@file".
	PanelService = "gatehouse-panel"
	// PanelReadyService balances over the replicas /api/health calls
	// ready (they reach the database); PanelAnyService over every replica.
	PanelReadyService = "gatehouse-panel-ready"
	PanelAnyService   = "gatehouse-panel-any"
	// ReplicasFile is the file's name in the wrapper's GATEHOUSE_CONFIG_DIR.
	ReplicasFile = "replicas.yml"
	// ReplicasHashHeader carries the hash of the replicas file.
	ReplicasHashHeader = "X-Gatehouse-Replicas-Hash"
	// PanelRetry is the retry middleware in front of PanelService: a request
	// that cannot connect to a replica goes to another one. Other providers
	// name it PanelRetry + "@file".
	PanelRetry = "gatehouse-retry"

	replicasHashLinePrefix = "# gatehouse-replicas-hash: "
)

// Health checking and retries: a dead replica leaves the rotation within
// one interval (connections to it are refused at once), and the retry sends
// a request that could not connect to another replica meanwhile. Each
// attempt picks a server anew, so it may pick the dead one again; the
// backoff (about 100, 120, 140, 170 ms for 5 attempts) spreads the attempts
// over half an interval.
//
// What no setting here fixes: Traefik does not retry a request it has
// written to a connection, so a request on a keep-alive connection open when
// the replica died (in flight, or sent before Traefik saw the connection
// close, later on a busy host) fails with 502; Go's transport re-dials the
// same dead replica for it and gets "connection refused". Passive health
// checks (Traefik 3.6+) do not save that request, and in the SIGKILL test
// under load they did not lower the failures (9 to 64 per run with them,
// 4 to 33 without); they also take out a live replica for a 5xx or a
// request cancelled before it was sent, and an empty ready balancer fails
// over to the one that still has the dead replica.
//
// /api/health also fails while a replica cannot reach the database; when no
// replica is ready (the database is down for all), PanelService fails over
// to every replica, which still answer forward-auth from memory for the
// sessions they know.
const (
	healthPath     = "/api/health"
	healthInterval = "1s"
	healthTimeout  = "500ms"
	retryAttempts  = 5
	retryInterval  = "100ms"
)

// The YAML shape mirrors the subset of Traefik's dynamic configuration
// (pkg/config/dynamic) the file holds, with the same keys.
type replicasYAML struct {
	HTTP replicasHTTP `yaml:"http"`
}

type replicasHTTP struct {
	Routers     map[string]fileRouter     `yaml:"routers"`
	Middlewares map[string]fileMiddleware `yaml:"middlewares"`
	Services    map[string]fileService    `yaml:"services"`
}

type fileRouter struct {
	EntryPoints []string `yaml:"entryPoints"`
	Rule        string   `yaml:"rule"`
	Middlewares []string `yaml:"middlewares"`
	Service     string   `yaml:"service"`
}

type fileMiddleware struct {
	Retry fileRetry `yaml:"retry"`
}

type fileRetry struct {
	Attempts        int    `yaml:"attempts"`
	InitialInterval string `yaml:"initialInterval"`
}

type fileService struct {
	LoadBalancer *fileLoadBalancer `yaml:"loadBalancer,omitempty"`
	Failover     *fileFailover     `yaml:"failover,omitempty"`
}

type fileFailover struct {
	Service  string `yaml:"service"`
	Fallback string `yaml:"fallback"`
}

type fileLoadBalancer struct {
	Servers        []fileServer     `yaml:"servers"`
	HealthCheck    *fileHealthCheck `yaml:"healthCheck,omitempty"`
	PassHostHeader bool             `yaml:"passHostHeader"`
}

type fileServer struct {
	URL string `yaml:"url"`
}

type fileHealthCheck struct {
	Path     string `yaml:"path"`
	Interval string `yaml:"interval"`
	Timeout  string `yaml:"timeout"`
}

// BuildReplicas renders the file provider's dynamic configuration: the
// router on the loopback entrypoint, the retry and the load balancer over
// urls. Without replicas it is empty (the static configuration then has no
// file provider, and the wrapper's copy is never read).
func BuildReplicas(urls []string) []byte {
	if len(urls) == 0 {
		return nil
	}
	servers := make([]fileServer, len(urls))
	for i, u := range urls {
		servers[i] = fileServer{URL: u}
	}
	// Without health checks the fallback can pick a dead replica: enough
	// attempts to try them all.
	attempts := max(retryAttempts, len(urls))
	doc := replicasYAML{HTTP: replicasHTTP{
		Routers: map[string]fileRouter{PanelService: {
			EntryPoints: []string{PanelEntrypoint}, Rule: "PathPrefix(`/`)",
			Middlewares: []string{PanelRetry}, Service: PanelService,
		}},
		Middlewares: map[string]fileMiddleware{PanelRetry: {Retry: fileRetry{Attempts: attempts, InitialInterval: retryInterval}}},
		Services: map[string]fileService{
			PanelService: {Failover: &fileFailover{Service: PanelReadyService, Fallback: PanelAnyService}},
			PanelReadyService: {LoadBalancer: &fileLoadBalancer{
				Servers:        servers,
				HealthCheck:    &fileHealthCheck{Path: healthPath, Interval: healthInterval, Timeout: healthTimeout},
				PassHostHeader: true,
			}},
			PanelAnyService: {LoadBalancer: &fileLoadBalancer{Servers: servers, PassHostHeader: true}},
		},
	}}
	return encodeYAML(doc)
}

// ReplicasDocument is the file served to the wrapper: a header whose second
// line repeats the hash (the wrapper checks it), then the YAML.
func ReplicasDocument(yamlBody []byte) (doc []byte, hash string) {
	return document("# Traefik file provider: the panel's replicas, generated by Gatehouse (managed mode). Do not edit.", replicasHashLinePrefix, yamlBody)
}

// replicasFilePath is where Traefik's file provider reads the file.
func replicasFilePath(configDir string) string {
	if configDir == "" {
		configDir = "/run/gatehouse"
	}
	return path.Join(configDir, ReplicasFile)
}

func encodeYAML(v any) []byte {
	var buf bytes.Buffer
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(2)
	if err := enc.Encode(v); err != nil {
		// Only plain structs, strings and maps with string keys: cannot fail.
		panic(fmt.Sprintf("encode YAML: %v", err))
	}
	_ = enc.Close()
	return buf.Bytes()
}
