import { BlockList, isIP } from 'node:net';
import { lookup, type LookupAddress, type LookupOptions } from 'node:dns';

/**
 * Private, loopback, link-local and otherwise non-public ranges. Webhook targets are checked
 * against this after DNS resolution (in the socket's lookup), so a public name that resolves
 * to 127.0.0.1 is refused too.
 */
function nonPublicRanges(): BlockList {
  const list = new BlockList();
  for (const [net, prefix] of [
    ['0.0.0.0', 8],
    ['10.0.0.0', 8],
    ['100.64.0.0', 10],
    ['127.0.0.0', 8],
    ['169.254.0.0', 16],
    ['172.16.0.0', 12],
    ['192.0.0.0', 24],
    ['192.168.0.0', 16],
    ['198.18.0.0', 15],
    ['224.0.0.0', 4],
    ['240.0.0.0', 4],
  ] as const) {
    list.addSubnet(net, prefix, 'ipv4');
  }
  list.addAddress('::', 'ipv6');
  list.addAddress('::1', 'ipv6');
  list.addSubnet('fc00::', 7, 'ipv6');
  list.addSubnet('fe80::', 10, 'ipv6');
  list.addSubnet('ff00::', 8, 'ipv6');
  return list;
}

export class AddressGuard {
  private readonly blocked = nonPublicRanges();

  isPublic(address: string): boolean {
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1];
    if (mapped) return !this.blocked.check(mapped, 'ipv4');
    const family = isIP(address);
    if (family === 0) return false;
    return !this.blocked.check(address, family === 4 ? 'ipv4' : 'ipv6');
  }

  /** For a URL whose host is an IP literal (no DNS lookup happens for those). */
  hostIsAllowed(hostname: string): boolean {
    const bare = hostname.replace(/^\[|\]$/g, '');
    return isIP(bare) === 0 || this.isPublic(bare);
  }

  /** A `lookup` for net.connect that fails when any resolved address is not public. */
  readonly lookup = (
    hostname: string,
    options: LookupOptions,
    callback: (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void,
  ): void => {
    lookup(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err, []);
      const refused = addresses.find((a) => !this.isPublic(a.address));
      if (refused) return callback(blockedError(hostname, refused.address), []);
      if (options.all) return callback(null, addresses);
      const [first] = addresses;
      return callback(null, first?.address ?? '', first?.family);
    });
  };
}

export const SSRF_CODE = 'ESSRFBLOCKED';

function blockedError(hostname: string, address: string): NodeJS.ErrnoException {
  const error: NodeJS.ErrnoException = new Error(`${hostname} resolves to the non-public address ${address}`);
  error.code = SSRF_CODE;
  return error;
}
