// The streaming protocols' pure parts: the WebSocket channel framing (v4/v5.channel.k8s.io),
// SPDY/3.1 frames and header blocks, the stored-block header compression a Go inflater reads,
// the v4 resize stream's JSON values, attach's k8s-file records, and the kubelet's paths and
// stream options.

import assert from 'node:assert/strict';
import { createInflate, constants } from 'node:zlib';
import { describe, it } from 'node:test';
import { exitStatus, frame, negotiate, parseClientMessage, parseTerminalSize } from '../../../src/agent/streaming/channels.js';
import { recordsOutput } from '../../../src/agent/streaming/attach.js';
import { parseStreamPath, streamOptions } from '../../../src/agent/streaming/server.js';
import { adler32, controlFrame, dataFrame, decodeHeaderBlock, encodeHeaderBlock, parseFrames, StoredBlockWriter } from '../../../src/agent/streaming/spdy.js';
import { spdyHeaderDictionary } from '../../../src/agent/streaming/spdydictionary.js';
import { splitJSONValues } from '../../../src/agent/streaming/spdyremotecommand.js';

describe('WebSocket channel framing', () => {
  it('a message is the channel byte, then the data', () => {
    assert.deepEqual([...frame(1, 'hi')], [1, 0x68, 0x69]);
    assert.deepEqual([...frame(3)], [3]);
  });

  const rows: { name: string; msg: number[] | string; protocol: 'v5.channel.k8s.io' | 'v4.channel.k8s.io'; want: unknown }[] = [
    { name: 'stdin data on channel 0', msg: [0, 0x61], protocol: 'v5.channel.k8s.io', want: { kind: 'stdin', data: Buffer.from('a') } },
    { name: 'resize on channel 4 as TerminalSize JSON', msg: '\x04{"Width":80,"Height":24}', protocol: 'v4.channel.k8s.io', want: { kind: 'resize', width: 80, height: 24 } },
    { name: 'v5 close of stdin is [255, 0]', msg: [255, 0], protocol: 'v5.channel.k8s.io', want: { kind: 'close', channel: 0 } },
    { name: 'v4 has no close channel', msg: [255, 0], protocol: 'v4.channel.k8s.io', want: { kind: 'ignored' } },
    { name: 'an empty message is ignored', msg: [], protocol: 'v5.channel.k8s.io', want: { kind: 'ignored' } },
    { name: 'a malformed resize is ignored', msg: '\x04{"Width":-1}', protocol: 'v5.channel.k8s.io', want: { kind: 'ignored' } },
    { name: 'writes on server channels are ignored', msg: [1, 0x61], protocol: 'v5.channel.k8s.io', want: { kind: 'ignored' } },
  ];
  for (const r of rows) {
    it(r.name, () => {
      const b = typeof r.msg === 'string' ? Buffer.from(r.msg, 'latin1') : Buffer.from(r.msg);
      assert.deepEqual(parseClientMessage(b, r.protocol), r.want);
    });
  }

  it('TerminalSize fields are Go names, unsigned 16-bit', () => {
    assert.deepEqual(parseTerminalSize(Buffer.from('{"Width":120,"Height":40}')), { width: 120, height: 40 });
    assert.equal(parseTerminalSize(Buffer.from('{"width":1,"height":1}')), undefined);
    assert.equal(parseTerminalSize(Buffer.from('{"Width":70000,"Height":1}')), undefined);
  });

  it('the first offered subprotocol that is served wins', () => {
    assert.equal(negotiate('v5.channel.k8s.io', ['v5.channel.k8s.io', 'v4.channel.k8s.io']), 'v5.channel.k8s.io');
    assert.equal(negotiate('v4.channel.k8s.io, v5.channel.k8s.io', ['v5.channel.k8s.io', 'v4.channel.k8s.io']), 'v4.channel.k8s.io');
    assert.equal(negotiate('base64.channel.k8s.io', ['v5.channel.k8s.io']), undefined);
    assert.equal(negotiate(undefined, ['v5.channel.k8s.io']), undefined);
  });

  it('the exit Status: Success for 0, NonZeroExitCode with the ExitCode cause otherwise', () => {
    assert.deepEqual(exitStatus(0, ['true']), { metadata: {}, status: 'Success' });
    assert.deepEqual(exitStatus(3, ['sh', '-c', 'exit 3']), {
      metadata: {},
      status: 'Failure',
      message: 'command terminated with non-zero exit code: error executing command [sh -c exit 3], exit code 3',
      reason: 'NonZeroExitCode',
      details: { causes: [{ reason: 'ExitCode', message: '3' }] },
    });
  });
});

describe('SPDY/3.1 framing', () => {
  it('the header dictionary is the 1,423 bytes whose Adler-32 Go clients put in their zlib header (e3c6a7c2)', () => {
    assert.equal(spdyHeaderDictionary.length, 1423);
    assert.equal(adler32(spdyHeaderDictionary).toString(16), 'e3c6a7c2');
  });

  it('a header block round-trips, names lowercased, repeated values NUL-joined', () => {
    const b = encodeHeaderBlock({ streamType: ['error'], port: ['80'], x: ['a', 'b'] });
    assert.deepEqual(decodeHeaderBlock(b), { streamtype: ['error'], port: ['80'], x: ['a', 'b'] });
    assert.throws(() => decodeHeaderBlock(b.subarray(0, b.length - 1)), /truncated/);
  });

  it('frames are split where they end; an incomplete one is kept for the next read', () => {
    const a = controlFrame(6, 0, Buffer.from([0, 0, 0, 1]));
    const d = dataFrame(3, 1, Buffer.from('xyz'));
    const all = Buffer.concat([a, d]);
    const { frames, rest } = parseFrames(all.subarray(0, all.length - 1));
    assert.equal(frames.length, 1);
    assert.deepEqual(frames[0], { control: true, type: 6, flags: 0, payload: Buffer.from([0, 0, 0, 1]) });
    assert.equal(rest.length, d.length - 1);
    const again = parseFrames(all).frames[1]!;
    assert.deepEqual(again, { control: false, streamId: 3, flags: 1, payload: Buffer.from('xyz') });
    assert.equal(a.readUInt16BE(0), 0x8003, 'control bit and version 3');
  });

  it("the server's header blocks are one zlib stream with the dictionary, each ending in an empty stored block", async () => {
    const w = new StoredBlockWriter();
    const blocks = [w.block(encodeHeaderBlock({})), w.block(encodeHeaderBlock({ a: ['b'] }))];
    assert.deepEqual([...blocks[0]!.subarray(0, 2)], [0x78, 0xbb]);
    assert.equal(blocks[0]!.readUInt32BE(2), adler32(spdyHeaderDictionary));
    assert.deepEqual([...blocks[1]!.subarray(-5)], [0, 0, 0, 0xff, 0xff], 'the sync-flush marker');
    const inflate = createInflate({ dictionary: spdyHeaderDictionary });
    const out: Buffer[] = [];
    for (const b of blocks) {
      const chunks: Buffer[] = [];
      const on = (d: Buffer) => chunks.push(d);
      inflate.on('data', on);
      inflate.write(b);
      await new Promise<void>((r) => inflate.flush(constants.Z_SYNC_FLUSH, () => r()));
      inflate.off('data', on);
      out.push(Buffer.concat(chunks));
    }
    inflate.close();
    assert.deepEqual(decodeHeaderBlock(out[0]!), {});
    assert.deepEqual(decodeHeaderBlock(out[1]!), { a: ['b'] });
  });

  it('resize values are read one JSON object after another, a partial one kept', () => {
    assert.deepEqual(splitJSONValues('{"Width":1,"Height":2}\n{"Width":3,"Height":4}\n{"Wid'), { values: [{ Width: 1, Height: 2 }, { Width: 3, Height: 4 }], rest: '\n{"Wid' });
    assert.deepEqual(splitJSONValues('{"a":"}{"}'), { values: [{ a: '}{' }], rest: '' });
  });
});

describe('attach and the kubelet paths', () => {
  it("attach sends each k8s-file record's text on its stream, F records ending the line", () => {
    const log = '2026-01-01T00:00:00.000000000Z stdout P par\n2026-01-01T00:00:00.000000001Z stdout F tial\n2026-01-01T00:00:00.000000002Z stderr F oops\n';
    assert.deepEqual(recordsOutput(log), [
      { stream: 'stdout', data: 'par' },
      { stream: 'stdout', data: 'tial\n' },
      { stream: 'stderr', data: 'oops\n' },
    ]);
  });

  it("a terminal's record keeps its carriage return (a tty container's lines end in \\r\\n)", () => {
    assert.deepEqual(recordsOutput('2026-01-01T00:00:00.000000000Z stdout F got typed\r\n'), [{ stream: 'stdout', data: 'got typed\r\n' }]);
  });

  const paths: { path: string; want: unknown }[] = [
    { path: '/exec/ns/pod/c', want: { kind: 'exec', namespace: 'ns', pod: 'pod', container: 'c' } },
    { path: '/exec/ns/pod/uid-1/c', want: { kind: 'exec', namespace: 'ns', pod: 'pod', container: 'c' } },
    { path: '/attach/ns/pod/c', want: { kind: 'attach', namespace: 'ns', pod: 'pod', container: 'c' } },
    { path: '/portForward/ns/pod', want: { kind: 'portForward', namespace: 'ns', pod: 'pod' } },
    { path: '/exec/ns/pod', want: undefined },
    { path: '/containerLogs/ns/pod/c', want: undefined },
    { path: '/exec/ns/%E0%A4%A/c', want: undefined },
  ];
  for (const r of paths) it(`path ${r.path}`, () => assert.deepEqual(parseStreamPath(r.path), r.want));

  it('stream options: "1" flags; a TTY takes stderr; at least one stream', () => {
    assert.deepEqual(streamOptions(new URLSearchParams('input=1&output=1&error=1')), { stdin: true, stdout: true, stderr: true, tty: false });
    assert.deepEqual(streamOptions(new URLSearchParams('output=1&error=1&tty=1')), { stdin: false, stdout: true, stderr: false, tty: true });
    assert.equal(streamOptions(new URLSearchParams('output=true')), 'you must specify at least 1 of stdin, stdout, stderr');
  });
});
