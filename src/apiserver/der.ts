// The DER (X.690) the PKI's certificates need: writing the few ASN.1 types RFC 5280 uses, and
// reading back the raw subject of a certificate, which an issued certificate must carry
// byte for byte as its issuer (Go's chain building, hence kubectl's, matches names by bytes).
// Hand-written because the general X.509 library it replaces took 0.2–0.4 s to load, most of
// a server start.

function length(n: number): Buffer {
  if (n < 0x80) return Buffer.from([n]);
  const bytes: number[] = [];
  for (let v = n; v > 0; v = Math.floor(v / 256)) bytes.unshift(v & 0xff);
  return Buffer.from([0x80 | bytes.length, ...bytes]);
}

/** A tag-length-value with `tag` as one identifier octet. */
export function tlv(tag: number, ...content: Buffer[]): Buffer {
  const body = Buffer.concat(content);
  return Buffer.concat([Buffer.from([tag]), length(body.length), body]);
}

export const sequence = (...items: Buffer[]): Buffer => tlv(0x30, ...items);
export const set = (...items: Buffer[]): Buffer => tlv(0x31, ...items);
export const octetString = (b: Buffer): Buffer => tlv(0x04, b);
export const boolean = (v: boolean): Buffer => tlv(0x01, Buffer.from([v ? 0xff : 0]));
export const utf8String = (s: string): Buffer => tlv(0x0c, Buffer.from(s, 'utf8'));
/** [n] EXPLICIT: the inner encoding wrapped in a constructed context tag. */
export const explicit = (n: number, inner: Buffer): Buffer => tlv(0xa0 | n, inner);

/** A non-negative INTEGER from its big-endian magnitude. */
export function unsignedInteger(magnitude: Buffer): Buffer {
  let i = 0;
  while (i < magnitude.length - 1 && magnitude[i] === 0) i++;
  const m = magnitude.subarray(i);
  return tlv(0x02, (m[0] ?? 0) & 0x80 ? Buffer.concat([Buffer.from([0]), m]) : m);
}

export const smallInteger = (n: number): Buffer => unsignedInteger(Buffer.from([n]));

export function objectIdentifier(dotted: string): Buffer {
  const arcs = dotted.split('.').map(Number);
  const out = [40 * arcs[0]! + arcs[1]!];
  for (const arc of arcs.slice(2)) {
    const base128: number[] = [arc & 0x7f];
    for (let v = Math.floor(arc / 128); v > 0; v = Math.floor(v / 128)) base128.unshift(0x80 | (v & 0x7f));
    out.push(...base128);
  }
  return tlv(0x06, Buffer.from(out));
}

/** A BIT STRING of whole octets (no unused bits), as keys and signatures are. */
export const bitString = (b: Buffer): Buffer => tlv(0x03, Buffer.from([0]), b);

/**
 * A named bit list (KeyUsage): bit 0 is the first octet's high bit; trailing zero bits are
 * dropped and counted as unused, as DER requires.
 */
export function namedBits(bits: number[]): Buffer {
  const top = Math.max(...bits);
  const bytes = Buffer.alloc(Math.floor(top / 8) + 1);
  for (const b of bits) bytes[b >> 3]! |= 0x80 >> (b & 7);
  return tlv(0x03, Buffer.from([7 - (top & 7)]), bytes);
}

/** UTCTime through 2049, GeneralizedTime after (RFC 5280 4.1.2.5), to the second, in UTC. */
export function time(d: Date): Buffer {
  const iso = d.toISOString().replace(/[-:T]/g, '').replace(/\.\d+Z$/, 'Z');
  return d.getUTCFullYear() < 2050 ? tlv(0x17, Buffer.from(iso.slice(2), 'ascii')) : tlv(0x18, Buffer.from(iso, 'ascii'));
}

interface Element {
  tag: number;
  /** The whole encoding, tag and length included. */
  raw: Buffer;
  content: Buffer;
}

function readElement(buf: Buffer, at: number): Element {
  const tag = buf[at]!;
  let len = buf[at + 1]!;
  let head = 2;
  if (len & 0x80) {
    const n = len & 0x7f;
    len = 0;
    for (let i = 0; i < n; i++) len = len * 256 + buf[at + 2 + i]!;
    head += n;
  }
  if (at + head + len > buf.length) throw new Error('DER: element runs past the end of its container');
  return { tag, raw: buf.subarray(at, at + head + len), content: buf.subarray(at + head, at + head + len) };
}

function children(e: Element): Element[] {
  const out: Element[] = [];
  for (let at = 0; at < e.content.length; ) {
    const c = readElement(e.content, at);
    out.push(c);
    at += c.raw.length;
  }
  return out;
}

/** The subject Name of a DER certificate, exactly as encoded there. */
export function certificateSubject(der: Buffer): Buffer {
  const tbs = children(readElement(der, 0))[0];
  if (!tbs) throw new Error('DER: not a certificate');
  const fields = children(tbs);
  // version [0] is optional; then serial, signature, issuer, validity, subject.
  const subject = fields[fields[0]?.tag === 0xa0 ? 5 : 4];
  if (!subject || subject.tag !== 0x30) throw new Error('DER: certificate has no subject');
  return subject.raw;
}

/** The DER inside a PEM block. */
export function pemBody(pem: string): Buffer {
  return Buffer.from(pem.replace(/-----[^-]+-----/g, '').replace(/\s+/g, ''), 'base64');
}

export function pem(label: string, der: Buffer): string {
  const b64 = der.toString('base64').replace(/(.{64})/g, '$1\n').replace(/\n$/, '');
  return `-----BEGIN ${label}-----\n${b64}\n-----END ${label}-----\n`;
}
