package containers

import (
	"strings"
	"testing"
)

func TestPlace(t *testing.T) {
	shared := Container{Name: "web", Networks: []Network{{Name: "apps", Address: "10.0.1.5"}, {Name: "proxy", Address: "10.0.2.5"}},
		Ports: []Port{{Private: 8080}}}
	published := Container{Name: "web", Networks: []Network{{Name: "bridge", Address: "172.17.0.3"}},
		Ports: []Port{{Private: 80, Public: 8081, Protocol: "tcp"}}}
	oneAddr := Container{Name: "web", Networks: []Network{{Name: "bridge", Address: "172.17.0.3"}},
		Ports: []Port{{Private: 80, Public: 8081, HostIP: "192.0.2.7", Protocol: "tcp"}}}
	several := Container{Name: "web", Networks: []Network{{Name: "proxy", Address: "10.0.2.5"}}, Ports: []Port{{Private: 80}, {Private: 443}}}
	none := Container{Name: "web", Networks: []Network{{Name: "none"}}}
	opts := Options{TraefikNetworks: []string{"proxy"}, PublishedHost: "127.0.0.1"}
	tests := []struct {
		name    string
		c       Container
		network string
		port    int
		opts    Options
		want    string // via host:port network
		err     string
	}{
		{name: "shared network first", c: shared, opts: opts, want: "network 10.0.2.5:8080 proxy"},
		{name: "chosen network not shared", c: shared, network: "apps", opts: opts, want: "unshared_network 10.0.1.5:8080 apps"},
		{name: "published when no shared network", c: published, opts: opts, want: "published 127.0.0.1:8081 "},
		{name: "published on one address", c: oneAddr, opts: opts, want: "published 192.0.2.7:8081 "},
		{name: "unknown Traefik networks", c: shared, opts: Options{}, want: "unshared_network 10.0.1.5:8080 apps"},
		{name: "several ports need a choice", c: several, opts: opts, err: "several ports"},
		{name: "several ports, one chosen", c: several, port: 443, opts: opts, want: "network 10.0.2.5:443 proxy"},
		{name: "not on the network", c: shared, network: "other", opts: opts, err: "not on network other"},
		{name: "no address", c: none, port: 80, opts: opts, err: "no address"},
		{name: "port out of range", c: shared, port: 70000, opts: opts, err: "between 1 and 65535"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p, err := Place(tc.c, tc.network, tc.port, tc.opts)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("err %v, want %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := p.Via + " " + address(p) + " " + p.Network; got != tc.want {
				t.Errorf("got %q, want %q", got, tc.want)
			}
			if p.Reason == "" {
				t.Error("no reason")
			}
		})
	}
}

func TestCheckHost(t *testing.T) {
	for host, ok := range map[string]bool{
		"unix:///var/run/docker.sock": true, "tcp://socket-proxy:2375": true, "tcp://10.0.0.1:2375": true,
		"unix://relative.sock": false, "tcp://host": false, "http://host:2375": false, "/var/run/docker.sock": false,
		"tcp://host:2375/path": false, "": false,
	} {
		if err := CheckHost(host); (err == nil) != ok {
			t.Errorf("CheckHost(%q) = %v", host, err)
		}
	}
}

func TestHealthFromStatus(t *testing.T) {
	for status, want := range map[string]string{"Up 3 minutes (healthy)": "healthy", "Up 1 second (unhealthy)": "unhealthy",
		"Up 2 seconds (health: starting)": "", "Up 2 seconds (starting)": "starting", "Exited (0)": ""} {
		if got := healthFromStatus(status); got != want {
			t.Errorf("%q: %q, want %q", status, got, want)
		}
	}
}
