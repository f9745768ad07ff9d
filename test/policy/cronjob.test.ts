// Cron schedules and the CronJob controller's decisions (src/api/cron.ts, src/policy/cronjob.ts),
// in the shapes of pkg/controller/cronjob's utils_test.go (mostRecentScheduleTime, nextScheduleTime,
// getJobName) and cronjob_controllerv2_test.go (concurrency policies, startingDeadlineSeconds,
// suspend), plus robfig/cron's parse errors and time zones through Intl.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { cronScheduleError, nextCronTime, parseCronSchedule } from '../../src/api/cron.js';
import type { CronJob } from '../../src/api/types.js';
import { cronJobScheduledTimestampAnnotation, decideCronJobSync, mostRecentScheduleTime, rfc3339InZone } from '../../src/policy/cronjob.js';

const at = (s: string) => Date.parse(s);
const iso = (ms: number | undefined) => (ms === undefined ? undefined : new Date(ms).toISOString().replace('.000Z', 'Z'));

describe('nextCronTime', () => {
  const rows: { schedule: string; after: string; zone?: string; want: string | undefined }[] = [
    { schedule: '*/1 * * * *', after: '2026-05-19T10:00:30Z', want: '2026-05-19T10:01:00Z' },
    { schedule: '*/1 * * * *', after: '2026-05-19T10:01:00Z', want: '2026-05-19T10:02:00Z' },
    { schedule: '*/15 * * * *', after: '2026-05-19T10:00:00Z', want: '2026-05-19T10:15:00Z' },
    { schedule: '@hourly', after: '2026-05-19T10:59:59Z', want: '2026-05-19T11:00:00Z' },
    { schedule: '@daily', after: '2026-12-31T23:00:00Z', want: '2027-01-01T00:00:00Z' },
    { schedule: '@weekly', after: '2026-05-19T10:00:00Z', want: '2026-05-24T00:00:00Z' },
    { schedule: '@monthly', after: '2026-05-19T10:00:00Z', want: '2026-06-01T00:00:00Z' },
    { schedule: '@yearly', after: '2026-05-19T10:00:00Z', want: '2027-01-01T00:00:00Z' },
    { schedule: '0 9 * * 1-5', after: '2026-05-22T10:00:00Z', want: '2026-05-25T09:00:00Z' },
    { schedule: '0 9 * * mon-fri', after: '2026-05-22T10:00:00Z', want: '2026-05-25T09:00:00Z' },
    { schedule: '0 0 * jan,jul *', after: '2026-05-19T10:00:00Z', want: '2026-07-01T00:00:00Z' },
    { schedule: '5/20 * * * *', after: '2026-05-19T10:46:00Z', want: '2026-05-19T11:05:00Z' },
    { schedule: '0 0 13 * 5', after: '2026-05-13T01:00:00Z', want: '2026-05-15T00:00:00Z' },
    { schedule: '0 0 29 2 *', after: '2026-03-01T00:00:00Z', want: '2028-02-29T00:00:00Z' },
    { schedule: '0 0 30 2 *', after: '2026-03-01T00:00:00Z', want: undefined },
    { schedule: '0 9 * * *', after: '2026-01-01T00:00:00Z', zone: 'America/New_York', want: '2026-01-01T14:00:00Z' },
    { schedule: '0 9 * * *', after: '2026-07-01T00:00:00Z', zone: 'America/New_York', want: '2026-07-01T13:00:00Z' },
    { schedule: '30 2 * * *', after: '2026-03-08T00:00:00Z', zone: 'Asia/Tokyo', want: '2026-03-08T17:30:00Z' },
    { schedule: '@every 1h30m', after: '2026-05-19T10:00:00.500Z', want: '2026-05-19T11:30:00Z' },
  ];
  for (const r of rows) test(`${r.schedule} after ${r.after}${r.zone ? ` in ${r.zone}` : ''}`, () => assert.equal(iso(nextCronTime(parseCronSchedule(r.schedule), at(r.after), r.zone)), r.want));
});

describe('cron parse errors (robfig/cron ParseStandard)', () => {
  const rows: [string, string | undefined][] = [
    ['*/1 * * * *', undefined],
    ['@every 5m', undefined],
    ['', 'empty spec string'],
    ['* * * *', 'expected exactly 5 fields, found 4: [* * * *]'],
    ['* * * * * *', 'expected exactly 5 fields, found 6: [* * * * * *]'],
    ['60 * * * *', 'end of range (60) above maximum (59): 60'],
    ['* 24 * * *', 'end of range (24) above maximum (23): 24'],
    ['* * 0 * *', 'beginning of range (0) below minimum (1): 0'],
    ['* * * * 7', 'end of range (7) above maximum (6): 7'],
    ['5-1 * * * *', 'beginning of range (5) beyond end of range (1): 5-1'],
    ['*/0 * * * *', 'step of range should be a positive number: */0'],
    ['1-2-3 * * * *', 'too many hyphens: 1-2-3'],
    ['*/2/3 * * * *', 'too many slashes: */2/3'],
    ['x * * * *', 'failed to parse int from x: strconv.Atoi: parsing "x": invalid syntax'],
    ['@sometimes', 'unrecognized descriptor: @sometimes'],
  ];
  for (const [s, want] of rows) test(JSON.stringify(s), () => assert.equal(cronScheduleError(s), want));
});

function cronJob(spec: Partial<NonNullable<CronJob['spec']>> = {}, status: CronJob['status'] = {}, created = '2026-05-19T08:30:00Z'): CronJob {
  return {
    apiVersion: 'batch/v1',
    kind: 'CronJob',
    metadata: { name: 'hello', namespace: 'default', uid: 'cj-uid', creationTimestamp: created },
    spec: { schedule: '0 * * * *', concurrencyPolicy: 'Allow', jobTemplate: { metadata: { labels: { app: 'hello' } }, spec: { template: { spec: { containers: [{ name: 'c', image: 'busybox' }], restartPolicy: 'OnFailure' } } } }, ...spec },
    status,
  };
}

describe('mostRecentScheduleTime', () => {
  const rows: { name: string; cj: CronJob; now: string; want: { mostRecent?: string; missed: number } }[] = [
    { name: 'created after the last schedule time: nothing missed', cj: cronJob({}, {}, '2026-05-19T10:00:30Z'), now: '2026-05-19T10:30:00Z', want: { missed: 0 } },
    { name: 'one schedule time passed since creation', cj: cronJob({}, {}, '2026-05-19T09:30:00Z'), now: '2026-05-19T10:30:00Z', want: { mostRecent: '2026-05-19T10:00:00Z', missed: 1 } },
    { name: 'two missed on the hour since creation', cj: cronJob(), now: '2026-05-19T10:30:00Z', want: { mostRecent: '2026-05-19T10:00:00Z', missed: 2 } },
    { name: 'from lastScheduleTime, not creation', cj: cronJob({}, { lastScheduleTime: '2026-05-19T10:00:00Z' }), now: '2026-05-19T10:30:00Z', want: { missed: 0 } },
    { name: 'exactly at a schedule time', cj: cronJob({}, { lastScheduleTime: '2026-05-19T10:00:00Z' }), now: '2026-05-19T11:00:00Z', want: { mostRecent: '2026-05-19T11:00:00Z', missed: 1 } },
    { name: 'a week of minutes, by arithmetic', cj: cronJob({ schedule: '*/1 * * * *' }, {}, '2026-05-12T10:00:00Z'), now: '2026-05-19T10:00:30Z', want: { mostRecent: '2026-05-19T10:00:00Z', missed: 7 * 24 * 60 } },
    { name: 'startingDeadlineSeconds bounds how far back', cj: cronJob({ schedule: '*/1 * * * *', startingDeadlineSeconds: 600 }, {}, '2026-05-12T10:00:00Z'), now: '2026-05-19T10:00:30Z', want: { mostRecent: '2026-05-19T10:00:00Z', missed: 10 } },
    { name: 'an uneven schedule: the latest time exact, the count upstream\'s period approximation', cj: cronJob({ schedule: '0 9,17 * * *' }, {}, '2026-05-19T08:00:00Z'), now: '2026-05-21T12:00:00Z', want: { mostRecent: '2026-05-21T09:00:00Z', missed: 7 } },
  ];
  for (const r of rows) {
    test(r.name, () => {
      const got = mostRecentScheduleTime(r.cj, parseCronSchedule(r.cj.spec!.schedule!), at(r.now));
      assert.deepEqual({ mostRecent: iso(got.mostRecent), missed: got.missed }, { mostRecent: r.want.mostRecent, missed: r.want.missed });
    });
  }
});

describe('decideCronJobSync', () => {
  const now = at('2026-05-19T10:00:10Z');
  const onTime = cronJob({}, { lastScheduleTime: '2026-05-19T09:00:00Z' });
  const jobName = `hello-${Math.floor(at('2026-05-19T10:00:00Z') / 60000)}`;
  test('a due run creates hello-<minutes> owned by the CronJob, with the scheduled-timestamp annotation', () => {
    const d = decideCronJobSync(onTime, [], now);
    assert.equal(d.create?.metadata.name, jobName);
    assert.deepEqual(d.create?.metadata.labels, { app: 'hello' });
    assert.equal(d.create?.metadata.annotations?.[cronJobScheduledTimestampAnnotation], '2026-05-19T10:00:00Z');
    assert.deepEqual(d.create?.metadata.ownerReferences, [{ apiVersion: 'batch/v1', kind: 'CronJob', name: 'hello', uid: 'cj-uid', controller: true, blockOwnerDeletion: true }]);
    assert.equal(d.lastScheduleTime, '2026-05-19T10:00:00Z');
    assert.equal(iso(d.nextRun), '2026-05-19T11:00:00Z');
    assert.deepEqual(d.events, [{ type: 'Normal', reason: 'SuccessfulCreate', message: `Created job ${jobName}` }]);
  });
  test('the run already started is not started again', () => assert.equal(decideCronJobSync(onTime, [jobName], now).create, undefined));
  test('Forbid with a job running: JobAlreadyActive', () => {
    const d = decideCronJobSync(cronJob({ concurrencyPolicy: 'Forbid' }, onTime.status), ['hello-1'], now);
    assert.equal(d.create, undefined);
    assert.deepEqual(d.events, [{ type: 'Normal', reason: 'JobAlreadyActive', message: 'Not starting job because prior execution is running and concurrency policy is Forbid' }]);
  });
  test('Replace: the running job is deleted and the new one created', () => {
    const d = decideCronJobSync(cronJob({ concurrencyPolicy: 'Replace' }, onTime.status), ['hello-1'], now);
    assert.deepEqual(d.deleteActive, ['hello-1']);
    assert.equal(d.create?.metadata.name, jobName);
  });
  test('Allow: runs side by side', () => assert.deepEqual(decideCronJobSync(onTime, ['hello-1'], now).deleteActive, []));
  test('suspended: nothing starts', () => assert.equal(decideCronJobSync(cronJob({ suspend: true }, onTime.status), [], now).create, undefined));
  test('a run missed by more than startingDeadlineSeconds is not started', () => {
    const d = decideCronJobSync(cronJob({ startingDeadlineSeconds: 5 }, onTime.status), [], now);
    assert.equal(d.create, undefined);
    assert.equal(iso(d.nextRun), '2026-05-19T11:00:00Z');
  });
  test('within startingDeadlineSeconds the run starts', () => assert.equal(decideCronJobSync(cronJob({ startingDeadlineSeconds: 30 }, onTime.status), [], now).create?.metadata.name, jobName));
  test('over 100 missed times: TooManyMissedTimes, and the latest still runs', () => {
    const d = decideCronJobSync(cronJob({ schedule: '*/1 * * * *' }, {}, '2026-05-19T08:00:00Z'), [], now);
    assert.equal(d.events[0]?.reason, 'TooManyMissedTimes');
    assert.equal(d.create?.metadata.name, jobName);
  });
  test('timeZone: the annotation carries the zone\'s offset', () => {
    assert.equal(rfc3339InZone(at('2026-05-19T13:00:00Z'), 'America/New_York'), '2026-05-19T09:00:00-04:00');
    const d = decideCronJobSync(cronJob({ schedule: '0 9 * * *', timeZone: 'America/New_York' }, { lastScheduleTime: '2026-05-18T13:00:00Z' }), [], at('2026-05-19T13:00:05Z'));
    assert.equal(d.create?.metadata.annotations?.[cronJobScheduledTimestampAnnotation], '2026-05-19T09:00:00-04:00');
  });
});
