import dns from "node:dns";
import { BlockList, isIP } from "node:net";

/**
 * Which addresses a delivery may connect to. Destinations are set by a clinic's admins and reached from the
 * server's own network, so hospital systems on private networks (10/8, 172.16/12, 192.168/16, fc00::/7) are
 * allowed; never the machine's "any" address, link-local addresses (169.254.169.254 is a cloud's metadata
 * service) or multicast; the server itself (loopback) only with DELIVERY_ALLOW_LOOPBACK=true. The check is made on
 * the address a name resolves to when connecting, so a name that later resolves elsewhere is checked again.
 */

const blocked = new BlockList();
blocked.addSubnet("0.0.0.0", 8, "ipv4");
blocked.addSubnet("169.254.0.0", 16, "ipv4");
blocked.addSubnet("224.0.0.0", 4, "ipv4");
blocked.addSubnet("240.0.0.0", 4, "ipv4");
blocked.addAddress("::", "ipv6");
blocked.addSubnet("fe80::", 10, "ipv6");
blocked.addSubnet("ff00::", 8, "ipv6");

const loopback = new BlockList();
loopback.addSubnet("127.0.0.0", 8, "ipv4");
loopback.addAddress("::1", "ipv6");

/** An IPv4 address written as IPv6 (::ffff:169.254.169.254) is judged as the IPv4 address. */
function normalise(address: string): { address: string; family: "ipv4" | "ipv6" } {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return { address: mapped[1]!, family: "ipv4" };
  return { address, family: isIP(address) === 6 ? "ipv6" : "ipv4" };
}

/** Why the address may not be reached, in an admin's words; null when it may. */
export function blockedAddressReason(address: string, allowLoopback: boolean): string | null {
  const { address: a, family } = normalise(address);
  if (blocked.check(a, family))
    return `the address ${address} is not one reports may be sent to (link-local, multicast or unspecified)`;
  if (!allowLoopback && loopback.check(a, family)) return `the address ${address} is this server itself`;
  return null;
}

type LookupCallback = (
  err: NodeJS.ErrnoException | null,
  address: string | dns.LookupAddress[],
  family?: number,
) => void;

/**
 * Node resolves nothing for an address written as such (`127.0.0.1`, `[::1]`), so the lookup below is not called:
 * such a host is checked here, before connecting. Throws with the reason; names pass (checked when resolved).
 */
export function assertLiteralAddressAllowed(host: string, allowLoopback: boolean): void {
  const bare = host.replace(/^\[(.*)\]$/, "$1");
  if (!isIP(bare)) return;
  const reason = blockedAddressReason(bare, allowLoopback);
  if (reason) throw Object.assign(new Error(`${host}: ${reason}`), { code: "EBLOCKED" });
}

/** A dns.lookup for http.request and net.connect that refuses blocked addresses after resolving. */
export function guardedLookup(allowLoopback: boolean) {
  return (hostname: string, options: dns.LookupOptions, callback: LookupCallback) => {
    dns.lookup(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err, "");
      const list = addresses as dns.LookupAddress[];
      for (const entry of list) {
        const reason = blockedAddressReason(entry.address, allowLoopback);
        if (reason) return callback(Object.assign(new Error(`${hostname}: ${reason}`), { code: "EBLOCKED" }), "");
      }
      if (options.all) return callback(null, list);
      const first = list[0];
      if (!first) return callback(Object.assign(new Error(`${hostname} has no address`), { code: "ENOTFOUND" }), "");
      return callback(null, first.address, first.family);
    });
  };
}
