import { createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';

/** Header the proxy adds to every request it forwards, so a site can tell proxied visitors apart. */
export const PROXY_MARK_HEADER = 'x-testkit-proxy';

export interface ProxyLogEntry {
  method: 'GET' | 'HEAD' | 'POST' | 'CONNECT' | string;
  /** Absolute URL for forwarded requests, host:port for CONNECT tunnels. */
  target: string;
  at: number;
}

export interface Proxy {
  /** `http://127.0.0.1:<port>`, the value for EngineOptions.proxies. */
  url: string;
  name: string;
  log: ProxyLogEntry[];
  close(): Promise<void>;
}

const now = () => performance.timeOrigin + performance.now();

/**
 * A forward proxy on loopback: absolute-form requests are forwarded with PROXY_MARK_HEADER
 * set to the proxy's name; CONNECT opens a raw tunnel (the mark cannot be added inside it,
 * the log still records it). Every request is logged so tests prove a tier went through it.
 */
export async function startProxy(options: { name?: string } = {}): Promise<Proxy> {
  const name = options.name ?? 'proxy';
  const log: ProxyLogEntry[] = [];
  const sockets = new Set<Socket>();

  const server = createServer((req, res) => forward(req, res, name, log));
  server.on('connect', (req: IncomingMessage, client: Socket, head: Buffer) => {
    const target = req.url ?? '';
    log.push({ method: 'CONNECT', target, at: now() });
    const [host, port] = splitHostPort(target);
    const upstream = connect(port, host, () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length > 0) upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    sockets.add(upstream);
    upstream.on('close', () => sockets.delete(upstream));
    upstream.on('error', () => client.end('HTTP/1.1 502 Bad Gateway\r\n\r\n'));
    client.on('error', () => upstream.destroy());
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    name,
    log,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

function forward(req: IncomingMessage, res: ServerResponse, name: string, log: ProxyLogEntry[]): void {
  let target: URL;
  try {
    target = new URL(req.url ?? '');
  } catch {
    res.writeHead(400).end('proxy: absolute-form request required');
    return;
  }
  log.push({ method: req.method ?? 'GET', target: target.toString(), at: now() });
  const headers: Record<string, string | string[] | undefined> = { ...req.headers, host: target.host, [PROXY_MARK_HEADER]: name };
  delete headers['proxy-connection'];
  delete headers['proxy-authorization'];
  const upstream = httpRequest(target, { method: req.method, headers }, (answer) => {
    res.writeHead(answer.statusCode ?? 502, answer.headers);
    answer.pipe(res);
  });
  upstream.on('error', () => {
    if (!res.headersSent) res.writeHead(502);
    res.end();
  });
  res.on('close', () => upstream.destroy());
  req.pipe(upstream);
}

function splitHostPort(target: string): [string, number] {
  const at = target.lastIndexOf(':');
  return [target.slice(0, at).replace(/^\[|\]$/g, ''), Number(target.slice(at + 1)) || 443];
}
