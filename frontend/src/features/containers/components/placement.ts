import type { Container } from '@/lib/api-types';

export type Placement = { host: string; targetPort: number; via: 'network' | 'published' | 'unshared_network'; network: string };

/**
 * Where Traefik would reach port of container c over network ('' chooses), as the server
 * chooses (containers.Place): a network Traefik shares, then a published port, then any
 * network with an address. Undefined when nothing fits.
 */
export function placement(c: Container, network: string, port: number): Placement | undefined {
  const on = (name: string): Placement | undefined => {
    const n = c.networks.find((x) => x.name === name && x.address);
    if (!n) return undefined;
    return { host: n.address, targetPort: port, network: n.name, via: n.traefik ? 'network' : 'unshared_network' };
  };
  if (!port) return undefined;
  if (network) return on(network);
  const shared = c.networks.find((n) => n.traefik && n.address);
  if (shared) return on(shared.name);
  const pub = c.ports.find((p) => p.private === port && p.public > 0 && (!p.protocol || p.protocol === 'tcp'));
  if (pub) return { host: pub.hostIp && pub.hostIp !== '0.0.0.0' && pub.hostIp !== '::' ? pub.hostIp : '', targetPort: pub.public, via: 'published', network: '' };
  const any = c.networks.find((n) => n.address);
  return any ? on(any.name) : undefined;
}

/** The container's TCP ports, each once. */
export function tcpPorts(c: Container): number[] {
  return [...new Set(c.ports.filter((p) => !p.protocol || p.protocol === 'tcp').map((p) => p.private))].sort((a, b) => a - b);
}
