// Command whoami is the tiny HTTP server the container end-to-end tests run
// inside podman: it answers every request with its NAME and the addresses
// of its interfaces, so a test can tell which container Traefik reached.
// It is built statically (CGO_ENABLED=0) and imported as an image with
// `podman import`, since no image registry is reachable from the tests.
package main

import (
	"fmt"
	"net"
	"net/http"
	"os"
	"strings"
	"time"
)

func main() {
	name := os.Getenv("NAME")
	addr := os.Getenv("LISTEN")
	if addr == "" {
		addr = ":8080"
	}
	http.HandleFunc("/", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		_, _ = fmt.Fprintf(w, "name=%s addrs=%s\n", name, strings.Join(addresses(), ","))
	})
	srv := &http.Server{Addr: addr, ReadHeaderTimeout: 5 * time.Second}
	if err := srv.ListenAndServe(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

func addresses() []string {
	var out []string
	addrs, err := net.InterfaceAddrs()
	if err != nil {
		return nil
	}
	for _, a := range addrs {
		if n, ok := a.(*net.IPNet); ok && !n.IP.IsLoopback() {
			out = append(out, n.IP.String())
		}
	}
	return out
}
