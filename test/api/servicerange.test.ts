// The service IP and node port ranges (src/api/servicerange.ts, after ipallocator and
// portallocator): parsing the flags, the addresses a range holds, the lower band for static
// requests, the dynamic scan order and the allocators' wording.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ipIndex, isIPv6Address, ipNotInRangeMessage, kubernetesServiceIP, parseNodePortRange, parseServiceIPRange, portNotInRangeMessage, scanOrder } from '../../src/api/servicerange.js';

describe('service ranges', () => {
  it('10.96.0.0/12: 2^20 - 2 usable addresses, a 256-address lower band, the kubernetes Service at 10.96.0.1', () => {
    const r = parseServiceIPRange('10.96.0.0/12');
    assert.deepEqual(r, { cidr: '10.96.0.0/12', network: (10 << 24) + (96 << 16), size: 2 ** 20 - 2, offset: 256 });
    assert.equal(kubernetesServiceIP(r), '10.96.0.1');
  });
  it('a CIDR with host bits is normalized to its network', () => assert.equal(parseServiceIPRange('10.96.5.7/16').cidr, '10.96.0.0/16'));
  it('a small range has a lower band of 16, a tiny one none', () => {
    assert.equal(parseServiceIPRange('10.0.0.0/24').offset, 16);
    assert.equal(parseServiceIPRange('10.0.0.0/29').offset, 0);
  });
  const bad: [string, RegExp][] = [
    ['fd00::/108', /not an IPv4 CIDR/],
    ['10.96.0.0', /not an IPv4 CIDR/],
    ['10.96.0.0/31', /at most \/30/],
    ['10.0.0.0/4', /at least \/8/],
  ];
  for (const [spec, re] of bad) it(`--service-cluster-ip-range ${spec} is refused`, () => assert.throws(() => parseServiceIPRange(spec), re));
  it('the network and broadcast addresses are outside the range', () => {
    const r = parseServiceIPRange('10.0.0.0/29');
    assert.deepEqual(['10.0.0.0', '10.0.0.1', '10.0.0.6', '10.0.0.7', '10.0.1.1'].map((ip) => ipIndex(r, ip)), [undefined, 0, 5, undefined, undefined]);
  });
  it('node ports: 30000-32767 holds 2768 ports with a lower band of 86; base+size also parses', () => {
    assert.deepEqual(parseNodePortRange('30000-32767'), { base: 30000, size: 2768, offset: 86 });
    assert.deepEqual(parseNodePortRange('30000+99'), { base: 30000, size: 100, offset: 16 });
    assert.throws(() => parseNodePortRange('30000-70000'), /within 1-65535/);
    assert.throws(() => parseNodePortRange('high'), /not a port range/);
  });
  it('the allocators\' out-of-range wording', () => {
    assert.equal(ipNotInRangeMessage('10.0.0.5', parseServiceIPRange('10.96.0.0/12')), 'the provided IP (10.0.0.5) is not in the valid range. The range of valid IPs is 10.96.0.0/12');
    assert.equal(portNotInRangeMessage(parseNodePortRange('30000-32767')), 'provided port is not in the valid range. The range of valid ports is 30000-32767');
  });
  it('dynamic allocation scans the upper band from a random start, then the lower band', () => {
    assert.deepEqual([...scanOrder(6, 2, () => 0.5)], [4, 5, 2, 3, 1, 0]);
    assert.deepEqual([...scanOrder(3, 0, () => 0)], [0, 1, 2]);
  });
  it('IPv6 addresses as net.ParseIP reads them', () => {
    assert.deepEqual(['::', '::1', '2001:db8::ffff', '::ffff:1.2.3.4', '1:2:3:4:5:6:7:8', '1::2::3', '1:2:3:4:5:6:7:8:9', 'g::', '10.0.0.1'].map(isIPv6Address), [true, true, true, true, true, false, false, false, false]);
  });
});
