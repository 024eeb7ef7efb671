/**
 * The data folder must outlive the container. ShowDoc's most common data-loss report is a
 * container recreated on upgrade with its data on the container's own writable layer (an
 * unmounted volume): everything written since the image was built vanishes with it. Quire refuses
 * to start in that state unless ALLOW_EPHEMERAL_DATA=true says the loss is wanted (a demo, CI).
 *
 * The decision is a pure function of what the machine shows (container markers, the mount
 * table), so it is tested with any machine's picture; `inspectMachine` reads this one's.
 */
import fs from 'node:fs';
import path from 'node:path';

export interface MachinePicture {
  /** What marks this process as running in a container (a file or cgroup line), or null. */
  containerMarker: string | null;
  /** The text of /proc/self/mountinfo ('' where there is none, e.g. not Linux). */
  mountinfo: string;
}

/** mountinfo escapes space, tab, newline and backslash as octal (`\040`). */
function unescapeMountPath(field: string): string {
  return field.replace(/\\([0-7]{3})/g, (_, octal: string) =>
    String.fromCharCode(parseInt(octal, 8)),
  );
}

export interface Mount {
  point: string;
  /** The folder of the source file system mounted there (e.g. a volume's folder on the host). */
  root: string;
  fsType: string;
}

/** The mounts of a mountinfo text: the fifth field, and the type after the ` - ` separator. */
export function parseMountinfo(mountinfo: string): Mount[] {
  const mounts: Mount[] = [];
  for (const line of mountinfo.split('\n')) {
    const [fields, rest] = line.split(' - ');
    const [, , , root, point] = fields?.split(' ') ?? [];
    if (point && root && rest)
      mounts.push({
        point: unescapeMountPath(point),
        root: unescapeMountPath(root),
        fsType: rest.split(' ')[0],
      });
  }
  return mounts;
}

/** The mount a path lives on: the longest mount point that is it or one of its parents. */
export function mountOf(target: string, mountinfo: string): Mount | undefined {
  let best: Mount | undefined;
  for (const mount of parseMountinfo(mountinfo)) {
    const { point } = mount;
    const inside = point === '/' || target === point || target.startsWith(`${point}/`);
    // The last of equal mount points is the one on top (mounted over the others).
    if (inside && (!best || point.length >= best.point.length)) best = mount;
  }
  return best;
}

/**
 * The union filesystems container engines build a container's writable layer with (Docker's and
 * containerd's overlay2, old aufs, rootless Podman's fuse-overlayfs). Images on the vfs, btrfs or
 * zfs drivers are not recognised: their layer looks like any disk from inside.
 */
const CONTAINER_LAYER_TYPES = new Set(['overlay', 'aufs', 'fuse.fuse-overlayfs']);

/**
 * Docker's anonymous volumes (an image's VOLUME left unnamed at `docker run`): a folder named by
 * 64 hex digits under its volumes folder, as the mount's root shows it.
 */
const ANONYMOUS_VOLUME = /\/volumes\/[0-9a-f]{64}\/_data$/;

/**
 * Why `dataDir` (absolute, symlinks resolved) would be lost with the container, or null when it
 * is safe: outside a container, or on a mount of its own (a volume, a bind mount, a PVC).
 */
export function ephemeralDataProblem(dataDir: string, machine: MachinePicture): string | null {
  if (!machine.containerMarker) return null;
  const mount = mountOf(dataDir, machine.mountinfo);
  if (mount && ANONYMOUS_VOLUME.test(mount.root))
    return (
      `DATA_DIR ${dataDir} is on an anonymous volume (running in a container: ` +
      `${machine.containerMarker}; the image's VOLUME with no volume named for it): the next ` +
      'container, e.g. after an upgrade, gets a new empty one and the data seems lost. Name the ' +
      'volume (docker run -v quire-data:/data, a compose volume, a Kubernetes ' +
      'PersistentVolumeClaim), or set ALLOW_EPHEMERAL_DATA=true if losing the data is intended.'
    );
  if (!mount || mount.point !== '/' || !CONTAINER_LAYER_TYPES.has(mount.fsType)) return null;
  return (
    `DATA_DIR ${dataDir} is on the container's own writable layer (running in a container: ` +
    `${machine.containerMarker}; no volume is mounted at it or above it, / is ${mount.fsType}), ` +
    'so the database and the uploaded files would be lost when the container is recreated, ' +
    'e.g. on an upgrade. Mount a volume there (docker run -v quire-data:/data, a compose ' +
    'volume, a Kubernetes PersistentVolumeClaim), or set ALLOW_EPHEMERAL_DATA=true if losing ' +
    'the data is intended.'
  );
}

/** The container marker of this machine: Docker's and Podman's files, then the cgroup names. */
function containerMarker(): string | null {
  for (const file of ['/.dockerenv', '/run/.containerenv']) if (fs.existsSync(file)) return file;
  if (process.env.KUBERNETES_SERVICE_HOST) return 'KUBERNETES_SERVICE_HOST is set';
  try {
    const cgroup = fs.readFileSync('/proc/1/cgroup', 'utf8');
    const match = /\b(docker|kubepods|containerd|libpod|lxc)\b/.exec(cgroup);
    if (match) return `/proc/1/cgroup names ${match[1]}`;
  } catch {
    // not Linux, or no /proc: no cgroup marker
  }
  return null;
}

export function inspectMachine(): MachinePicture {
  let mountinfo = '';
  try {
    mountinfo = fs.readFileSync('/proc/self/mountinfo', 'utf8');
  } catch {
    // not Linux: no mount table to read, and no Linux container either
  }
  return { containerMarker: containerMarker(), mountinfo };
}

/** The folder itself when it exists, else its nearest existing parent, symlinks resolved. */
export function resolveExisting(dir: string): string {
  const wanted = path.resolve(dir);
  let current = wanted;
  for (;;) {
    try {
      return path.join(fs.realpathSync(current), path.relative(current, wanted));
    } catch {
      const parent = path.dirname(current);
      if (parent === current) return wanted;
      current = parent;
    }
  }
}

/** The start-up check: a message to stop with, or null. */
export function checkDataDirPersistent(
  dataDir: string,
  allowEphemeral: boolean,
  machine: MachinePicture = inspectMachine(),
): string | null {
  if (allowEphemeral) return null;
  return ephemeralDataProblem(resolveExisting(dataDir), machine);
}
