/**
 * The refusal to start with DATA_DIR on a container's writable layer (models/platform/ephemeral.ts),
 * decided from a machine's picture: its container marker and its /proc/self/mountinfo text, as
 * Docker (overlay root, a volume at /data) and a plain host show them.
 */
import { expect, test } from '@jest/globals';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  checkDataDirPersistent,
  ephemeralDataProblem,
  mountOf,
  resolveExisting,
} from '../../../models/platform/ephemeral';
import { loadConfig } from '../../../models/platform/config';

// Lines as Docker 24 writes them for `docker run -v quire-data:/data`.
const DOCKER_MOUNTINFO = [
  '501 412 0:52 / / rw,relatime master:1 - overlay overlay rw,lowerdir=/var/lib/docker/overlay2/l/A:/var/lib/docker/overlay2/l/B,upperdir=/var/lib/docker/overlay2/x/diff,workdir=/var/lib/docker/overlay2/x/work',
  '502 501 0:55 / /proc rw,nosuid,nodev,noexec,relatime - proc proc rw',
  '510 501 254:1 /docker/volumes/quire-data/_data /data rw,relatime master:2 - ext4 /dev/vda1 rw',
  '511 501 254:1 /docker/containers/abc/hostname /etc/hostname rw,relatime - ext4 /dev/vda1 rw',
  '512 501 254:1 /home/ops/with\\040space /srv/with\\040space rw,relatime - ext4 /dev/vda1 rw',
].join('\n');
const HOST_MOUNTINFO = '27 1 254:0 / / rw,relatime - ext4 /dev/vda rw';
const IN_DOCKER = { containerMarker: '/.dockerenv', mountinfo: DOCKER_MOUNTINFO };

test('a data folder on the overlay root of a container is refused, naming the reason and the way out', () => {
  const problem = ephemeralDataProblem('/app/data', IN_DOCKER);
  expect(problem).toContain("DATA_DIR /app/data is on the container's own writable layer");
  expect(problem).toContain('/.dockerenv');
  expect(problem).toContain('/ is overlay');
  expect(problem).toContain('ALLOW_EPHEMERAL_DATA=true');
  // Mounted over by an /etc file does not protect a sibling folder.
  expect(ephemeralDataProblem('/etc/quire', IN_DOCKER)).not.toBeNull();
});

test('a volume at the data folder or above it is safe; so is any folder outside a container', () => {
  expect(ephemeralDataProblem('/data', IN_DOCKER)).toBeNull();
  expect(ephemeralDataProblem('/data/quire', IN_DOCKER)).toBeNull();
  expect(ephemeralDataProblem('/srv/with space/data', IN_DOCKER)).toBeNull();
  expect(ephemeralDataProblem('/database', IN_DOCKER)).not.toBeNull(); // /data is no parent of it
  expect(ephemeralDataProblem('/app/data', { ...IN_DOCKER, containerMarker: null })).toBeNull();
  // A container marker on a machine whose root is a real disk (a VM sandbox): no writable layer.
  expect(
    ephemeralDataProblem('/app/data', {
      containerMarker: '/.dockerenv',
      mountinfo: HOST_MOUNTINFO,
    }),
  ).toBeNull();
});

test('an anonymous volume (the image VOLUME, no -v) is refused too: the next container gets an empty one', () => {
  const anonymous = DOCKER_MOUNTINFO.replace(
    '/docker/volumes/quire-data/_data',
    `/docker/volumes/${'3f'.repeat(32)}/_data`,
  );
  const problem = ephemeralDataProblem('/data', { ...IN_DOCKER, mountinfo: anonymous });
  expect(problem).toContain('DATA_DIR /data is on an anonymous volume');
  expect(problem).toContain('-v quire-data:/data');
  expect(ephemeralDataProblem('/data', { containerMarker: null, mountinfo: anonymous })).toBeNull();
});

test('mountOf picks the deepest mount holding the path, unescaping mountinfo octal escapes', () => {
  expect(mountOf('/data/files/2026', DOCKER_MOUNTINFO)).toEqual({
    point: '/data',
    root: '/docker/volumes/quire-data/_data',
    fsType: 'ext4',
  });
  expect(mountOf('/srv/with space', DOCKER_MOUNTINFO)?.point).toBe('/srv/with space');
  expect(mountOf('/app', DOCKER_MOUNTINFO)).toMatchObject({ point: '/', fsType: 'overlay' });
});

test('ALLOW_EPHEMERAL_DATA=true lets it start; the setting defaults to false and is validated', () => {
  expect(checkDataDirPersistent('/app/data', false, IN_DOCKER)).toMatch(/writable layer/);
  expect(checkDataDirPersistent('/app/data', true, IN_DOCKER)).toBeNull();
  expect(loadConfig({}, '/x').allowEphemeralData).toBe(false);
  expect(loadConfig({ ALLOW_EPHEMERAL_DATA: 'true' }, '/x').allowEphemeralData).toBe(true);
  expect(() => loadConfig({ ALLOW_EPHEMERAL_DATA: 'yes' }, '/x')).toThrow(/ALLOW_EPHEMERAL_DATA/);
});

test('a data folder not made yet is judged by where it will be: its nearest existing parent, links resolved', () => {
  const base = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-eph-'));
  try {
    fs.mkdirSync(path.join(base, 'real'));
    fs.symlinkSync(path.join(base, 'real'), path.join(base, 'link'));
    expect(resolveExisting(path.join(base, 'link', 'not', 'yet'))).toBe(
      path.join(fs.realpathSync(base), 'real', 'not', 'yet'),
    );
  } finally {
    fs.rmSync(base, { recursive: true, force: true });
  }
});
