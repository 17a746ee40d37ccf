package npm

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/gatehouse-proxy/gatehouse/internal/store"
	"github.com/gatehouse-proxy/gatehouse/internal/validate"
)

// stream imports an NPM stream: nginx listening on a port and forwarding
// every connection (TCP) or datagram (UDP) to one host and port. Each
// protocol it forwards becomes a Gatehouse service of its own, on an
// entrypoint named after the protocol and port ("tcp-2222", "udp-53"),
// which Traefik must have: managed mode creates it on the Managed Traefik page.
func (c *converter) stream(s stream) {
	source := fmt.Sprintf("stream #%d (port %s to %s:%s)", s.id, s.incomingPort, s.forwardingHost, s.forwardingPort)
	in, err1 := strconv.Atoi(strings.TrimSpace(s.incomingPort))
	out, err2 := strconv.Atoi(strings.TrimSpace(s.forwardingPort))
	host := strings.Trim(strings.TrimSpace(s.forwardingHost), "[]")
	switch {
	case err1 != nil || in < 1 || in > 65535:
		c.skip(source, "not imported: incoming port %q is not a port number", s.incomingPort)
		return
	case err2 != nil || out < 1 || out > 65535:
		c.skip(source, "not imported: forwarding port %q is not a port number", s.forwardingPort)
		return
	case validate.TargetHost(host) != nil:
		c.skip(source, "not imported: forwarding host %q is not an IP address or host name", s.forwardingHost)
		return
	case !s.tcp && !s.udp:
		c.skip(source, "not imported: it forwards neither TCP nor UDP")
		return
	}
	for _, proto := range []string{store.KindTCP, store.KindUDP} {
		if (proto == store.KindTCP && !s.tcp) || (proto == store.KindUDP && !s.udp) {
			continue
		}
		ep := proto + "-" + strconv.Itoa(in)
		sv := newService(c.serviceName(fmt.Sprintf("Stream %d/%s", in, proto)), []store.Hostname{}, s.enabled)
		sv.Kind = proto
		sv.Entrypoints = []string{ep}
		sv.Targets = []store.Target{{Scheme: proto, Host: host, Port: out}}
		if proto == store.KindTCP {
			sv.TCP = &store.TCP{TLS: store.TLSNone, AllowList: []string{}}
			if s.certificateID > 0 {
				// NPM terminates TLS on the stream with its certificate;
				// Traefik does with its default one, or a stored one.
				sv.TCP.TLS = store.TLSTerminate
				c.skip(source, "its certificate #%d%s is not imported: Traefik terminates TLS on the stream with its default certificate "+
					"unless one is stored for the name clients ask", s.certificateID, quoted(c.src.certificates[s.certificateID].niceName))
			}
		}
		c.doc.Services = append(c.doc.Services, sv)
		c.skip(source, "needs the %s entrypoint %q on port %d in Traefik (managed mode: add it on the Managed Traefik page with protocol %s)",
			strings.ToUpper(proto), ep, in, proto)
	}
}
