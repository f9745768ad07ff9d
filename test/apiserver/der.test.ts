// The PKI's DER writer, one row per encoding rule (X.690), and the certificates issueCert makes
// with it, read back by Node's own X.509 parser (OpenSSL): chained to the CA, with the CA's
// subject as their issuer byte for byte, the names, usages and addresses asked for.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { X509Certificate, createPrivateKey } from 'node:crypto';
import * as der from '../../src/apiserver/der.js';
import { issueCert, makeCA } from '../../src/apiserver/pki.js';

const hex = (b: Buffer) => b.toString('hex');

describe('DER encodings', () => {
  const rows: [string, Buffer, string][] = [
    ['a short length is one octet', der.octetString(Buffer.alloc(3)), '0403000000'],
    ['a length of 128 or more is long form (0x81 + one octet)', der.octetString(Buffer.alloc(200)).subarray(0, 3), '0481c8'],
    ['a length over 255 takes two length octets', der.octetString(Buffer.alloc(300)).subarray(0, 4), '0482012c'],
    ['an INTEGER whose high bit is set gets a leading zero (it is positive)', der.unsignedInteger(Buffer.from([0x80])), '02020080'],
    ['an INTEGER drops redundant leading zeros', der.unsignedInteger(Buffer.from([0, 0, 5])), '020105'],
    ['zero is one zero octet', der.unsignedInteger(Buffer.from([0])), '020100'],
    ['an OID: first two arcs in one octet, then base 128', der.objectIdentifier('1.2.840.10045.4.3.2'), '06082a8648ce3d040302'],
    ['an OID arc under 128 is one octet', der.objectIdentifier('2.5.29.19'), '0603551d13'],
    ['TRUE is 0xff', der.boolean(true), '0101ff'],
    ['KeyUsage digitalSignature|keyEncipherment: 5 unused bits', der.namedBits([0, 2]), '030205a0'],
    ['KeyUsage digitalSignature|keyCertSign|cRLSign: 1 unused bit', der.namedBits([0, 5, 6]), '03020186'],
    ['a time before 2050 is UTCTime', der.time(new Date('2036-11-23T20:22:17.456Z')), '170d3336313132333230323231375a'],
    ['a time from 2050 is GeneralizedTime', der.time(new Date('2050-01-02T03:04:05Z')), '180f32303530303130323033303430355a'],
    ['[3] EXPLICIT wraps in a constructed context tag', der.explicit(3, der.sequence()), 'a3023000'],
  ];
  for (const [name, got, want] of rows) it(name, () => assert.equal(hex(got), want));

  it('certificateSubject reads the subject, not the issuer, with or without a version field', () => {
    const name = (cn: string) => der.sequence(der.set(der.sequence(der.objectIdentifier('2.5.4.3'), der.utf8String(cn))));
    const tbs = (withVersion: boolean) =>
      der.sequence(...(withVersion ? [der.explicit(0, der.smallInteger(2))] : []), der.smallInteger(1), der.sequence(), name('issuer'), der.sequence(), name('subject'));
    for (const v of [true, false]) assert.equal(hex(der.certificateSubject(der.sequence(tbs(v)))), hex(name('subject')));
  });
});

describe('issueCert: ECDSA P-256 certificates Node (OpenSSL) accepts', async () => {
  const ca = makeCA();
  const caCert = new X509Certificate(ca.cert);
  const server = await issueCert(ca, { commonName: 'bulkhead-apiserver', hosts: ['localhost', '127.0.0.1', '::1', 'fe80::1:2', '::ffff:10.1.2.3'], usage: 'server' });
  const client = await issueCert(ca, { commonName: 'system:node:n1', organizations: ['system:nodes'], usage: 'client' });
  const s = new X509Certificate(server.cert);
  const c = new X509Certificate(client.cert);

  it('the CA is a CA', () => assert.equal(caCert.ca, true));
  it('issued certificates chain to the CA and are signed by its key', () => {
    for (const x of [s, c]) {
      assert.equal(x.checkIssued(caCert), true);
      assert.equal(x.verify(caCert.publicKey), true);
      assert.equal(x.ca, false);
    }
  });
  it('the issuer is the CA\'s subject', () => assert.equal(s.issuer, caCert.subject));
  it('the subject carries the CN and each O', () => assert.equal(c.subject, 'CN=system:node:n1\nO=system:nodes'));
  it('the key is a P-256 key matching the certificate', () => {
    assert.equal(s.publicKey.asymmetricKeyDetails?.namedCurve, 'prime256v1');
    assert.equal(s.checkPrivateKey(createPrivateKey(server.key)), true);
  });
  it('SANs: DNS names and IP addresses (v4, v6, v4-mapped v6)', () =>
    assert.equal(s.subjectAltName, 'DNS:localhost, IP Address:127.0.0.1, IP Address:0:0:0:0:0:0:0:1, IP Address:FE80:0:0:0:0:0:1:2, IP Address:0:0:0:0:0:FFFF:A01:203'));
  it('extended key usage: serverAuth for serving, clientAuth for clients', () => {
    assert.deepEqual(s.keyUsage, ['1.3.6.1.5.5.7.3.1']);
    assert.deepEqual(c.keyUsage, ['1.3.6.1.5.5.7.3.2']);
  });
  it('a client certificate has no SANs', () => assert.equal(c.subjectAltName, undefined));
  it('another CA of the same name did not sign it', () => {
    const other = new X509Certificate(makeCA().cert);
    assert.equal(s.verify(other.publicKey), false);
  });
  it('valid from a minute ago for a year', () => {
    const from = Date.parse(s.validFrom);
    const to = Date.parse(s.validTo);
    assert.ok(from <= Date.now());
    assert.ok(to - from >= 365 * 864e5);
  });
});
