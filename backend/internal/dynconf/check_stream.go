package dynconf

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/gatehouse-proxy/gatehouse/internal/validate"
)

// checkStream verifies the tcp and udp sections as CheckConfig does "http":
// every tcp rule is HostSNI(`*`) or host names only, every router names an
// existing service and middlewares, every weighted service existing load
// balancers with servers.
func checkStream(cfg Config) error {
	if t := cfg.TCP; t != nil {
		for _, name := range slices.Sorted(maps.Keys(t.Routers)) {
			r := t.Routers[name]
			if !strings.HasPrefix(name, Prefix) {
				return fmt.Errorf("tcp router %q lacks the %s prefix", name, Prefix)
			}
			if err := CheckSNIRule(r.Rule); err != nil {
				return fmt.Errorf("tcp router %s: rule %q: %w", name, r.Rule, err)
			}
			if _, ok := t.Services[r.Service]; !ok {
				return fmt.Errorf("tcp router %s: service %q does not exist", name, r.Service)
			}
			for _, m := range r.Middlewares {
				if _, ok := t.Middlewares[m]; !ok {
					return fmt.Errorf("tcp router %s: middleware %q does not exist", name, m)
				}
			}
			if len(r.EntryPoints) == 0 {
				return fmt.Errorf("tcp router %s: no entrypoints", name)
			}
		}
		for name, s := range t.Services {
			if err := checkStreamService(name, s.LoadBalancer, s.Weighted, func(n string) (*StreamLoadBalancer, bool) {
				o, ok := t.Services[n]
				if !ok || o.LoadBalancer == nil {
					return nil, false
				}
				return o.LoadBalancer, true
			}); err != nil {
				return err
			}
			if lb := s.LoadBalancer; lb != nil && lb.ServersTransport != "" {
				if _, ok := t.ServersTransports[lb.ServersTransport]; !ok {
					return fmt.Errorf("tcp service %s: servers transport %q does not exist", name, lb.ServersTransport)
				}
			}
		}
	}
	if u := cfg.UDP; u != nil {
		for name, r := range u.Routers {
			if _, ok := u.Services[r.Service]; !ok || len(r.EntryPoints) == 0 {
				return fmt.Errorf("udp router %s: no service %q or no entrypoints", name, r.Service)
			}
		}
		for name, s := range u.Services {
			if err := checkStreamService(name, s.LoadBalancer, s.Weighted, func(n string) (*StreamLoadBalancer, bool) {
				o, ok := u.Services[n]
				if !ok || o.LoadBalancer == nil {
					return nil, false
				}
				return o.LoadBalancer, true
			}); err != nil {
				return err
			}
		}
	}
	return nil
}

func checkStreamService(name string, lb *StreamLoadBalancer, w *StreamWeighted, get func(string) (*StreamLoadBalancer, bool)) error {
	switch {
	case (lb == nil) == (w == nil):
		return fmt.Errorf("service %s: needs exactly one of loadBalancer and weighted", name)
	case lb != nil && len(lb.Servers) == 0:
		return fmt.Errorf("service %s: no servers", name)
	case w != nil:
		for _, c := range w.Services {
			if _, ok := get(c.Name); !ok {
				return fmt.Errorf("weighted service %s: %q is not a load balancer", name, c.Name)
			}
		}
	}
	return nil
}

// CheckSNIRule accepts HostSNI(`*`) and one HostSNI of a valid host name,
// or several joined by " || " in parentheses: what the builder emits.
func CheckSNIRule(rule string) error {
	if rule == "HostSNI(`*`)" {
		return nil
	}
	inner := rule
	if strings.HasPrefix(rule, "(") && strings.HasSuffix(rule, ")") {
		inner = rule[1 : len(rule)-1]
	}
	parts := strings.Split(inner, " || ")
	if len(parts) > 1 && inner == rule {
		return fmt.Errorf("alternatives outside parentheses")
	}
	for _, p := range parts {
		h, ok := strings.CutPrefix(p, "HostSNI(`")
		if !ok {
			return fmt.Errorf("%q is not a HostSNI matcher", p)
		}
		h, ok = strings.CutSuffix(h, "`)")
		if !ok || validate.Hostname(h, false) != nil {
			return fmt.Errorf("%q is not a HostSNI matcher of a host name", p)
		}
	}
	return nil
}
