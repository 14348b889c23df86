import { readFileSync } from 'node:fs';
import net from 'node:net';

/**
 * A free TCP port on loopback (never assume 5432 is free), chosen below the kernel's
 * ephemeral range.
 *
 * Tests stop servers and start them again on the same port (the standby, a paused cluster).
 * A port from the ephemeral range (what `listen(0)` hands out) is also what every outgoing
 * connection on the machine takes as its local port: while the server is down, one of the
 * thousands of connections a loaded test run makes can take it, and the restart then fails
 * with "address in use". Below the range only an explicit bind takes a port, and this
 * function checks that none holds it.
 */
export async function freePort(): Promise<number> {
  const [low, high] = belowEphemeralRange();
  for (let attempt = 0; attempt < 200; attempt++) {
    const port = low + Math.floor(Math.random() * (high - low));
    if (await canListen(port)) return port;
  }
  return listenOnAny();
}

/** [from, to) under the kernel's ephemeral ports (Linux; elsewhere, IANA's 49152 start). */
function belowEphemeralRange(): [number, number] {
  let ephemeralLow = 49_152;
  try {
    const [first] = readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/);
    if (first && Number(first) > 12_000) ephemeralLow = Number(first);
  } catch {
    // not Linux: IANA's dynamic range
  }
  return [10_000, ephemeralLow];
}

function canListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.unref();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

function listenOnAny(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}
