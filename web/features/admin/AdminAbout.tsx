/**
 * Back office — about (Chinese only, spec 002 §2): the running version and the update check
 * against the configured release feed. Quire is installed with npm or an image, so a newer
 * version is linked, never installed from here; when the feed cannot be read, one line says so.
 */
import { Alert, Button, Descriptions, Space } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { checkUpdate, siteVersion, type UpdateInfo } from './api';
import { ApiRequestError } from '../../api/request';

/** Dotted versions compared numerically ("v1.10.0" > "v1.9.3"). */
export function isNewer(candidate: string, current: string): boolean {
  const parts = (v: string) =>
    v
      .replace(/^v/i, '')
      .split(/[-+]/)[0]
      .split('.')
      .map((n) => Number.parseInt(n, 10) || 0);
  const a = parts(candidate || '0');
  const b = parts(current || '0');
  for (let i = 0; i < Math.max(a.length, b.length); i += 1)
    if ((a[i] ?? 0) !== (b[i] ?? 0)) return (a[i] ?? 0) > (b[i] ?? 0);
  return false;
}

export function AdminAbout() {
  const { t } = useTranslation();
  const [version, setVersion] = useState('');
  const [update, setUpdate] = useState<UpdateInfo | null>(null);
  const [problem, setProblem] = useState('');
  const [checking, setChecking] = useState(false);

  useEffect(() => {
    siteVersion().then(
      (data) => setVersion(data.version),
      () => undefined,
    );
  }, []);

  async function check() {
    setChecking(true);
    setProblem('');
    try {
      setUpdate(await checkUpdate());
    } catch (error) {
      setUpdate(null);
      setProblem(error instanceof ApiRequestError ? error.message : t('admin.about.unreachable'));
    } finally {
      setChecking(false);
    }
  }

  const newer = update && isNewer(update.new_version, update.version);
  return (
    <Space orientation="vertical" style={{ width: '100%', maxWidth: 560 }}>
      <Descriptions
        column={1}
        bordered
        size="small"
        items={[{ key: 'version', label: t('admin.about.version'), children: version || '…' }]}
      />
      <Button onClick={check} loading={checking}>
        {t('admin.about.check')}
      </Button>
      {problem && <Alert type="warning" showIcon title={problem} />}
      {update && !newer && <Alert type="success" showIcon title={t('admin.about.upToDate')} />}
      {update && newer && (
        <Alert
          type="info"
          showIcon
          title={t('admin.about.newVersion', { version: update.new_version })}
          description={
            update.url ? (
              <a href={update.url} target="_blank" rel="noreferrer">
                {t('admin.about.releaseNotes')}
              </a>
            ) : (
              t('admin.about.howToUpdate')
            )
          }
        />
      )}
    </Space>
  );
}
