/**
 * Cloud storage as the back office configures it (`oss_open`, `oss_setting`, spec 002 §3): the
 * S3-compatible storage for new uploads while it is on, and for reading older cloud files
 * always. The client is rebuilt only when the stored settings change (seen at once in every
 * process through the settings cache).
 */
import { S3FileStorage, type CloudResolver, type FileStorage } from '../platform';
import { getSiteSettings } from '../settings';

function text(form: Record<string, unknown>, key: string): string {
  return typeof form[key] === 'string' ? (form[key] as string).trim() : '';
}

/** The SDK settings of a stored form, or null when it names no bucket. */
function s3SettingsOf(form: Record<string, unknown> | null) {
  if (!form || !text(form, 'bucket')) return null;
  const protocol = text(form, 'protocol') === 'http' ? 'http' : 'https';
  const raw = text(form, 'endpoint');
  const endpoint = !raw ? '' : /^https?:\/\//i.test(raw) ? raw : `${protocol}://${raw}`;
  return {
    endpoint,
    region: text(form, 'region'),
    bucket: text(form, 'bucket'),
    // ShowDoc's forms: key/secret (S3, Aliyun, Qiniu) or secretId/secretKey (Tencent COS).
    accessKeyId: text(form, 'key') || text(form, 'secretId'),
    secretAccessKey: text(form, 'secret') || text(form, 'secretKey'),
  };
}

export function cloudResolver(staging: Pick<FileStorage, 'stagingDir'>): CloudResolver {
  let cached: { signature: string; storage: S3FileStorage | null } | null = null;
  async function configured(): Promise<S3FileStorage | null> {
    const settings = s3SettingsOf((await getSiteSettings()).ossSetting);
    const signature = JSON.stringify(settings);
    if (cached?.signature !== signature) {
      cached?.storage?.close();
      cached = { signature, storage: settings ? new S3FileStorage(settings, staging) : null };
    }
    return cached.storage;
  }
  return {
    configured,
    async forUploads() {
      return (await getSiteSettings()).ossOpen ? configured() : null;
    },
  };
}
