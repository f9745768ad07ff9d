// SPDY/3.1 framing, the server's side, as far as Kubernetes' streaming uses it
// (moby/spdystream under k8s.io/apimachinery/pkg/util/httpstream/spdy): the client opens
// streams with SYN_STREAM (headers such as streamtype, port, requestid), the server answers
// each with SYN_REPLY, both send DATA frames, a FIN flag half-closes a stream, RST_STREAM
// resets it, PING is echoed, GOAWAY ends the connection. spdystream implements no flow
// control (WINDOW_UPDATE is read and ignored) and neither does this.
//
// Header blocks are one zlib stream per direction for the whole connection, declared with the
// SPDY/3 dictionary, each block ending on a flush. The client's are inflated by one zlib
// stream that lives as long as the connection (write, then flush with Z_SYNC_FLUSH, as the ws
// library inflates permessage-deflate), so frames are handled in order through a promise
// chain. The server's own blocks (SYN_REPLY with no headers) are written as deflate *stored*
// blocks: byte-aligned, complete on their own, valid for any inflater that knows the
// dictionary, and made without a compressor, so a reply goes out before the stream's data.

import { EventEmitter } from 'node:events';
import { Duplex } from 'node:stream';
import { constants, createInflate, type Inflate } from 'node:zlib';
import { spdyHeaderDictionary } from './spdydictionary.js';

export const frameType = { synStream: 1, synReply: 2, rstStream: 3, settings: 4, ping: 6, goaway: 7, headers: 8, windowUpdate: 9 } as const;
export const flagFin = 0x01;
/** The largest DATA payload sent in one frame (the length field allows 16 MiB; spdystream writes 64 KiB or less). */
const maxDataPayload = 1 << 16;

export type Headers = Record<string, string[]>;

/** Adler-32, the zlib header's DICTID of the dictionary. */
export function adler32(b: Buffer): number {
  let a = 1;
  let c = 0;
  for (const x of b) {
    a = (a + x) % 65521;
    c = (c + a) % 65521;
  }
  return ((c << 16) | a) >>> 0;
}

/**
 * A header block as the next piece of the server's zlib stream: the stream's header (deflate,
 * FDICT with the dictionary's id) before the first block, then non-final stored blocks.
 */
export class StoredBlockWriter {
  private started = false;

  block(data: Buffer): Buffer {
    const parts: Buffer[] = [];
    if (!this.started) {
      this.started = true;
      const head = Buffer.alloc(6);
      // CMF 0x78 (deflate, 32K window), FLG 0xbb: FDICT set, level 2, check bits for %31 == 0.
      head[0] = 0x78;
      head[1] = 0xbb;
      head.writeUInt32BE(adler32(spdyHeaderDictionary), 2);
      parts.push(head);
    }
    const stored = (piece: Buffer) => {
      const h = Buffer.alloc(5);
      h.writeUInt16LE(piece.length, 1);
      h.writeUInt16LE(~piece.length & 0xffff, 3);
      parts.push(h, piece);
    };
    for (let off = 0; off < data.length; off += 0xffff) stored(data.subarray(off, off + 0xffff));
    // The empty stored block a sync flush ends with: Go's inflater hands out a block's bytes
    // only once it has read the next block's header, which must be within this frame.
    stored(Buffer.alloc(0));
    return Buffer.concat(parts);
  }
}

/** The uncompressed name/value block: a count, then each name and value with 32-bit lengths (values NUL-separated). */
export function encodeHeaderBlock(h: Headers): Buffer {
  const parts: Buffer[] = [];
  const u32 = (n: number) => {
    const b = Buffer.alloc(4);
    b.writeUInt32BE(n);
    return b;
  };
  const entries = Object.entries(h);
  parts.push(u32(entries.length));
  for (const [k, vs] of entries) {
    const name = Buffer.from(k.toLowerCase());
    const value = Buffer.from(vs.join('\0'));
    parts.push(u32(name.length), name, u32(value.length), value);
  }
  return Buffer.concat(parts);
}

export function decodeHeaderBlock(b: Buffer): Headers {
  const out: Headers = {};
  let off = 0;
  const u32 = () => {
    if (off + 4 > b.length) throw new Error('header block truncated');
    const n = b.readUInt32BE(off);
    off += 4;
    return n;
  };
  const bytes = (n: number) => {
    if (off + n > b.length) throw new Error('header block truncated');
    const s = b.subarray(off, off + n).toString('utf8');
    off += n;
    return s;
  };
  const count = u32();
  for (let i = 0; i < count; i++) {
    const name = bytes(u32()).toLowerCase();
    const value = bytes(u32());
    (out[name] ??= []).push(...value.split('\0'));
  }
  return out;
}

export function controlFrame(type: number, flags: number, payload: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt16BE(0x8003, 0);
  head.writeUInt16BE(type, 2);
  head.writeUInt32BE(payload.length, 4);
  head[4] = flags;
  return Buffer.concat([head, payload]);
}

export function dataFrame(streamId: number, flags: number, payload: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(streamId & 0x7fffffff, 0);
  head.writeUInt32BE(payload.length, 4);
  head[4] = flags;
  return Buffer.concat([head, payload]);
}

export type Frame =
  | { control: true; type: number; flags: number; payload: Buffer }
  | { control: false; streamId: number; flags: number; payload: Buffer };

/** Splits `buf` into whole frames; `rest` is an incomplete frame's start. */
export function parseFrames(buf: Buffer): { frames: Frame[]; rest: Buffer } {
  const frames: Frame[] = [];
  let off = 0;
  while (buf.length - off >= 8) {
    const len = buf.readUInt32BE(off + 4) & 0xffffff;
    if (buf.length - off < 8 + len) break;
    const flags = buf[off + 4]!;
    const payload = buf.subarray(off + 8, off + 8 + len);
    if (buf[off]! & 0x80) frames.push({ control: true, type: buf.readUInt16BE(off + 2), flags, payload });
    else frames.push({ control: false, streamId: buf.readUInt32BE(off) & 0x7fffffff, flags, payload });
    off += 8 + len;
  }
  return { frames, rest: buf.subarray(off) };
}

/** One stream of a connection: readable is what the client sends, writable what it receives. */
export class SpdyStream extends Duplex {
  private replied = false;
  private finSent = false;
  remoteClosed = false;

  constructor(
    private readonly conn: SpdyConnection,
    readonly id: number,
    readonly headers: Headers,
  ) {
    super({ allowHalfOpen: true });
  }

  /** The header's first value (names are lowercase on the wire). */
  header(name: string): string | undefined {
    return this.headers[name.toLowerCase()]?.[0];
  }

  /** SYN_REPLY: the stream is accepted (the client's CreateStream waits for it). */
  reply(headers: Headers = {}): void {
    if (this.replied) return;
    this.replied = true;
    this.conn.sendSynReply(this.id, headers);
  }

  override _read(): void {
    // Data is pushed as frames arrive.
  }

  override _write(chunk: Buffer, _enc: BufferEncoding, cb: (e?: Error | null) => void): void {
    this.reply();
    for (let i = 0; i < chunk.length; i += maxDataPayload) this.conn.sendData(this.id, 0, chunk.subarray(i, i + maxDataPayload));
    cb();
  }

  override _final(cb: (e?: Error | null) => void): void {
    this.reply();
    if (!this.finSent) {
      this.finSent = true;
      this.conn.sendData(this.id, flagFin, Buffer.alloc(0));
    }
    cb();
  }

  /** Frames from the client. */
  receive(data: Buffer, fin: boolean): void {
    if (data.length) this.push(data);
    if (fin && !this.remoteClosed) {
      this.remoteClosed = true;
      this.push(null);
    }
  }
}

/**
 * A server-side SPDY/3.1 connection over `transport` (a socket after the HTTP upgrade, or a
 * WebSocket tunnel). Emits 'stream' (SpdyStream) for each SYN_STREAM and 'close' once.
 */
export class SpdyConnection extends EventEmitter {
  private readonly streams = new Map<number, SpdyStream>();
  private readonly inflate: Inflate;
  private readonly headerWriter = new StoredBlockWriter();
  private chain: Promise<void> = Promise.resolve();
  private pending: Buffer = Buffer.alloc(0);
  private closed = false;
  private lastStreamId = 0;

  constructor(private readonly transport: Duplex) {
    super();
    this.inflate = createInflate({ dictionary: spdyHeaderDictionary });
    this.inflate.on('error', () => undefined);
    transport.on('data', (d: Buffer) => this.onData(d));
    transport.on('close', () => this.shutdown());
    transport.on('end', () => this.shutdown());
    transport.on('error', () => this.shutdown());
  }

  private onData(d: Buffer): void {
    if (this.closed) return;
    const { frames, rest } = parseFrames(this.pending.length ? Buffer.concat([this.pending, d]) : d);
    this.pending = Buffer.from(rest);
    for (const f of frames) {
      this.chain = this.chain.then(
        () => (this.closed ? undefined : this.onFrame(f)),
        () => undefined,
      );
    }
    this.chain = this.chain.catch((e: unknown) => {
      this.emit('protocolError', e);
      this.close();
    });
  }

  private async onFrame(f: Frame): Promise<void> {
    if (!f.control) {
      this.streams.get(f.streamId)?.receive(Buffer.from(f.payload), (f.flags & flagFin) !== 0);
      return;
    }
    const p = f.payload;
    switch (f.type) {
      case frameType.synStream: {
        const id = p.readUInt32BE(0) & 0x7fffffff;
        const headers = decodeHeaderBlock(await this.inflateBlock(p.subarray(10)));
        this.lastStreamId = Math.max(this.lastStreamId, id);
        const s = new SpdyStream(this, id, headers);
        this.streams.set(id, s);
        if (f.flags & flagFin) s.receive(Buffer.alloc(0), true);
        this.emit('stream', s);
        return;
      }
      case frameType.headers:
        await this.inflateBlock(p.subarray(4));
        return;
      case frameType.rstStream: {
        const s = this.streams.get(p.readUInt32BE(0) & 0x7fffffff);
        if (s) {
          this.streams.delete(s.id);
          s.receive(Buffer.alloc(0), true);
          s.destroy();
        }
        return;
      }
      case frameType.ping:
        this.write(controlFrame(frameType.ping, 0, Buffer.from(p.subarray(0, 4))));
        return;
      case frameType.goaway:
        this.close();
        return;
      default:
        // SETTINGS, WINDOW_UPDATE and unknown types: nothing to do.
        return;
    }
  }

  private inflateBlock(b: Buffer): Promise<Buffer> {
    if (!b.length) return Promise.resolve(Buffer.alloc(0));
    return new Promise<Buffer>((resolve, reject) => {
      const chunks: Buffer[] = [];
      const onData = (d: Buffer) => chunks.push(d);
      const onError = (e: Error) => {
        this.inflate.off('data', onData);
        reject(e);
      };
      this.inflate.on('data', onData);
      this.inflate.once('error', onError);
      this.inflate.write(Buffer.from(b));
      this.inflate.flush(constants.Z_SYNC_FLUSH, () => {
        this.inflate.off('data', onData);
        this.inflate.off('error', onError);
        resolve(Buffer.concat(chunks));
      });
    });
  }

  private write(b: Buffer): void {
    if (!this.closed && this.transport.writable) this.transport.write(b);
  }

  sendSynReply(id: number, headers: Headers): void {
    const block = this.headerWriter.block(encodeHeaderBlock(headers));
    const sid = Buffer.alloc(4);
    sid.writeUInt32BE(id);
    this.write(controlFrame(frameType.synReply, 0, Buffer.concat([sid, block])));
  }

  sendData(id: number, flags: number, payload: Buffer): void {
    this.write(dataFrame(id, flags, payload));
  }

  /** RST_STREAM with `status` (1 PROTOCOL_ERROR, 5 CANCEL, …). */
  reset(id: number, status: number): void {
    const b = Buffer.alloc(8);
    b.writeUInt32BE(id, 0);
    b.writeUInt32BE(status, 4);
    this.write(controlFrame(frameType.rstStream, 0, b));
    this.streams.delete(id);
  }

  /** GOAWAY and the end of the transport. */
  close(): void {
    if (this.closed) return;
    const b = Buffer.alloc(8);
    b.writeUInt32BE(this.lastStreamId, 0);
    this.write(controlFrame(frameType.goaway, 0, b));
    this.transport.end();
    this.shutdown();
  }

  private shutdown(): void {
    if (this.closed) return;
    this.closed = true;
    for (const s of this.streams.values()) {
      s.receive(Buffer.alloc(0), true);
      s.destroy();
    }
    this.streams.clear();
    this.inflate.close();
    this.emit('close');
  }
}
