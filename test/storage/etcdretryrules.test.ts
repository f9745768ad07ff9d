// Which failed etcd calls the store sends again, and what it throws when it gives up: Go
// clientv3's rules (client/v3/retry.go isSafeRetryImmutableRPC / isSafeRetryMutableRPC) on the
// errors grpc-js and the etcd3 client raise. One row per error.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import etcd3 from 'etcd3';
import { BrokenCircuitError } from 'cockatiel';
import { neverSent, retryableRead, unanswered } from '../../src/storage/etcdretry.js';
import { StoreUnavailableError } from '../../src/storage/store.js';

/** An error as the etcd3 client hands it over: grpc-js's status error, cast to its class. */
const grpc = (code: number, name: string, details: string) => etcd3.castGrpcError(Object.assign(new Error(`${code} ${name}: ${details}`), { code, details }));

const refused = grpc(14, 'UNAVAILABLE', 'No connection established. Last error: connect ECONNREFUSED 127.0.0.1:2379. Resolution note: ');

interface Row {
  error: Error;
  /** A read (Range, a read-only txn) is sent again. */
  read: boolean;
  /** A write (put, delete, a txn with writes) is sent again: only when it never left. */
  write: boolean;
  /** What a write that ends with this error throws: the words and whether it may have committed; undefined: the error itself. */
  thrown?: { message: string; outcomeUnknown: boolean };
}

const rows: Record<string, Row> = {
  'connection dropped after the request went out': {
    error: grpc(14, 'UNAVAILABLE', 'Connection dropped'),
    read: true,
    write: false,
    thrown: { message: 'rpc error: code = Unavailable desc = Connection dropped', outcomeUnknown: true },
  },
  'no connection to send on (clientv3: "there is no connection available")': {
    error: refused,
    read: true,
    write: true,
    thrown: { message: `rpc error: code = Unavailable desc = ${refused.message.slice('14 UNAVAILABLE: '.length)}`, outcomeUnknown: false },
  },
  'round robin with no connection': {
    error: grpc(14, 'UNAVAILABLE', 'round_robin: No connection established. Last error: x'),
    read: true,
    write: true,
    thrown: { message: 'rpc error: code = Unavailable desc = round_robin: No connection established. Last error: x', outcomeUnknown: false },
  },
  'channel closed before the call started': {
    error: grpc(14, 'UNAVAILABLE', 'Channel closed before call started'),
    read: true,
    write: true,
    thrown: { message: 'rpc error: code = Unavailable desc = Channel closed before call started', outcomeUnknown: false },
  },
  "every member's circuit open (the words are the last gRPC error's)": {
    error: new BrokenCircuitError(),
    read: true,
    write: true,
    thrown: { message: `rpc error: code = Unavailable desc = ${refused.message.slice('14 UNAVAILABLE: '.length)}`, outcomeUnknown: false },
  },
  'etcd: request timed out (the proposal may still commit)': {
    error: grpc(14, 'UNAVAILABLE', 'etcdserver: request timed out'),
    read: true,
    write: false,
    thrown: { message: 'etcdserver: request timed out', outcomeUnknown: true },
  },
  'etcd: leader changed': { error: grpc(14, 'UNAVAILABLE', 'etcdserver: leader changed'), read: true, write: false, thrown: { message: 'etcdserver: leader changed', outcomeUnknown: true } },
  'deadline exceeded': {
    error: grpc(4, 'DEADLINE_EXCEEDED', 'Deadline exceeded'),
    read: false,
    write: false,
    thrown: { message: 'rpc error: code = DeadlineExceeded desc = Deadline exceeded', outcomeUnknown: true },
  },
  'cancelled': { error: grpc(1, 'CANCELLED', 'Call cancelled'), read: false, write: false, thrown: { message: 'rpc error: code = Canceled desc = Call cancelled', outcomeUnknown: true } },
  'etcd refuses: compacted revision (the caller turns it into 410)': { error: grpc(11, 'OUT_OF_RANGE', 'etcdserver: mvcc: required revision has been compacted'), read: false, write: false },
  'etcd refuses: database space exceeded': { error: grpc(8, 'RESOURCE_EXHAUSTED', 'etcdserver: mvcc: database space exceeded'), read: false, write: false },
  'etcd refuses: too many operations in a txn': { error: grpc(3, 'INVALID_ARGUMENT', 'etcdserver: too many operations in txn request'), read: false, write: false },
};

describe('etcd store retry rules', () => {
  for (const [name, row] of Object.entries(rows)) {
    it(name, () => {
      assert.equal(retryableRead(row.error), row.read, 'read retried');
      assert.equal(neverSent(row.error), row.write, 'write retried');
      const thrown = unanswered(row.error, refused, true);
      if (!row.thrown) return assert.equal(thrown, row.error);
      assert.ok(thrown instanceof StoreUnavailableError);
      assert.deepEqual({ message: thrown.message, outcomeUnknown: thrown.outcomeUnknown }, row.thrown);
      // A read that ends so has nothing to be unknown about.
      assert.equal((unanswered(row.error, refused, false) as StoreUnavailableError).outcomeUnknown, false);
    });
  }
});
