// What the abuse limits count as one client: an IPv6 subscriber holds a whole /64 (one phone, one home),
// so it counts as one; an IPv4 address is itself, also when written `::ffff:1.2.3.4`.
import { isIPv4, isIPv6 } from 'node:net';

/** The longest text an unreadable address is kept to. */
const MAX_ADDRESS = 64;

/** The eight groups of an IPv6 address, as numbers (`::` expanded, a trailing IPv4 as two groups). */
function ipv6Groups(address: string): number[] {
  let text = address;
  const v4 = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (v4)
    text = `${text.slice(0, v4.index)}${((+v4[1] << 8) | +v4[2]).toString(16)}:${((+v4[3] << 8) | +v4[4]).toString(16)}`;
  const [head, tail] = text.split('::');
  const part = (s: string | undefined) => (s ? s.split(':').map((g) => parseInt(g, 16)) : []);
  const front = part(head);
  const back = part(tail);
  return tail === undefined ? front : [...front, ...Array(8 - front.length - back.length).fill(0), ...back];
}

/** The network a client address is counted as: `1.2.3.4`, or `2001:db8:1:2::/64`; '' unknown. */
export function addressNetwork(ip: string | null | undefined): string {
  let a = (ip ?? '').trim().toLowerCase();
  const zone = a.indexOf('%');
  if (zone >= 0) a = a.slice(0, zone);
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(a);
  if (mapped) a = mapped[1];
  if (isIPv4(a)) return a;
  if (isIPv6(a))
    return `${ipv6Groups(a)
      .slice(0, 4)
      .map((g) => g.toString(16))
      .join(':')}::/64`;
  return a.slice(0, MAX_ADDRESS);
}

/** An IPv4 address's /24 (`1.2.3.0/24`): the neighbours a single owner of a block may also use; null for IPv6. */
export function ipv4Block(network: string): string | null {
  const m = /^(\d+\.\d+\.\d+)\.\d+$/.exec(network);
  return m ? `${m[1]}.0/24` : null;
}
