/**
 * Which proxies in front of the server may be believed about the client's address
 * (`X-Forwarded-For`): `false` none (the peer is the client; the default), `true` all (the
 * leftmost address), a number n the n nearest hops (with 1, the peer is a proxy and the header's
 * last address is the client's), or a function saying whether one address is a trusted proxy.
 */
export type TrustProxy = boolean | number | ((address: string) => boolean);

/** An address as proxies write it: IPv4, IPv6 (maybe bracketed), or an obfuscated token; no spaces. */
const ADDRESS = /^[\w.:%[\]-]{1,64}$/;

/**
 * The client's address: `peer` (the connection's), or the first untrusted hop of
 * `X-Forwarded-For` read from the right when `trust` says the hops before it are proxies. The walk
 * stops at an entry that is not an address, keeping the last good one.
 */
export function clientAddress(
  peer: string | undefined,
  forwardedFor: string | null,
  trust: TrustProxy,
): string | undefined {
  if (trust === false || peer === undefined || forwardedFor === null) return peer;
  const hops = forwardedFor.split(',');
  let address = peer;
  for (let passed = 1, i = hops.length - 1; i >= 0; passed++, i--) {
    const trusted = typeof trust === 'function' ? trust(address) : trust === true || passed <= trust;
    if (!trusted) break;
    const next = hops[i]!.trim();
    if (!ADDRESS.test(next)) break;
    address = next;
  }
  return address;
}

/** Checks a `trustProxy` option; `undefined` is `false`. */
export function checkTrustProxy(where: string, trust: TrustProxy | undefined): TrustProxy {
  if (trust === undefined) return false;
  if (typeof trust === 'boolean' || typeof trust === 'function' || (Number.isInteger(trust) && trust >= 0))
    return trust;
  throw new TypeError(
    `${where}: trustProxy must be a boolean, a number of hops ≥ 0 or a function, got ${String(trust)}`,
  );
}
