import { BlockList, isIP } from 'node:net';
import { lookup, type LookupAddress, type LookupOptions } from 'node:dns';

/**
 * Addresses a server-side fetch must never reach unless the operator allows the private
 * network: private, loopback, link-local (cloud metadata lives at 169.254.169.254),
 * unique-local, CGNAT, unspecified, multicast and reserved ranges.
 */
function nonPublicRanges(): BlockList {
  const list = new BlockList();
  const v4: Array<[string, number]> = [
    ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12],
    ['192.0.0.0', 24], ['192.0.2.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15], ['198.51.100.0', 24], ['203.0.113.0', 24],
    ['224.0.0.0', 4], ['240.0.0.0', 4],
  ];
  for (const [net, prefix] of v4) list.addSubnet(net, prefix, 'ipv4');
  list.addAddress('::', 'ipv6');
  list.addAddress('::1', 'ipv6');
  for (const [net, prefix] of [['fc00::', 7], ['fe80::', 10], ['ff00::', 8], ['64:ff9b:1::', 48], ['2001:db8::', 32]] as const) {
    list.addSubnet(net, prefix, 'ipv6');
  }
  return list;
}

export const SSRF_ERROR_CODE = 'EWVRSSRF';

const isLoopbackName = (hostname: string) => /(^|\.)localhost\.?$/i.test(hostname);

export class AddressPolicy {
  private readonly blocked = nonPublicRanges();
  private readonly exempt = new BlockList();

  constructor(
    private readonly allowPrivateNetwork: boolean,
    allowedPrivateAddresses: readonly string[] = [],
  ) {
    for (const entry of allowedPrivateAddresses) {
      const [address = '', prefix] = entry.split('/');
      const type = isIP(address) === 6 ? 'ipv6' : 'ipv4';
      if (prefix === undefined) this.exempt.addAddress(address, type);
      else this.exempt.addSubnet(address, Number(prefix), type);
    }
  }

  isAllowed(address: string): boolean {
    if (this.allowPrivateNetwork) return true;
    const bare = address.replace(/^\[|\]$/g, '');
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(bare)?.[1];
    const plain = mapped ?? bare;
    const family = isIP(plain);
    if (family === 0) return false;
    const type = family === 4 ? 'ipv4' : 'ipv6';
    return !this.blocked.check(plain, type) || this.exempt.check(plain, type);
  }

  /** Why a URL's host is refused before any socket is opened; null when it may be tried. */
  refuseLiteral(hostname: string): string | null {
    const bare = hostname.replace(/^\[|\]$/g, '');
    // `localhost` and its subdomains are loopback by definition (RFC 6761), whatever DNS says.
    if (isLoopbackName(bare)) return this.isAllowed('127.0.0.1') ? null : `${bare} is a loopback name`;
    if (isIP(bare) === 0 || this.isAllowed(bare)) return null;
    return `${bare} is not a public address`;
  }

  /** Resolves a name and refuses it when any address is non-public (for hosts reached through a proxy). */
  async refuseResolved(hostname: string): Promise<string | null> {
    if (this.allowPrivateNetwork) return null;
    const literal = this.refuseLiteral(hostname);
    if (literal || isIP(hostname.replace(/^\[|\]$/g, '')) !== 0) return literal;
    const addresses = await new Promise<LookupAddress[]>((resolve) => lookup(hostname, { all: true }, (err, found) => resolve(err ? [] : found)));
    const refused = addresses.find((a) => !this.isAllowed(a.address));
    return refused ? `${hostname} resolves to the non-public address ${refused.address}` : null;
  }

  /**
   * A `lookup` for the socket itself: the address checked is the one connected to, so a DNS
   * answer that changes between a pre-check and the connect (rebinding) cannot slip past.
   */
  readonly lookup = (
    hostname: string,
    options: LookupOptions,
    callback: (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void,
  ): void => {
    lookup(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err, []);
      const refused = addresses.find((a) => !this.isAllowed(a.address));
      if (refused) {
        const error: NodeJS.ErrnoException = new Error(`${hostname} resolves to the non-public address ${refused.address}`);
        error.code = SSRF_ERROR_CODE;
        return callback(error, []);
      }
      if (options.all) return callback(null, addresses);
      const [first] = addresses;
      return callback(null, first?.address ?? '', first?.family);
    });
  };
}
