/**
 * "Follow an OpenAPI URL" in the item's import dialog (managers): the URL and schedule, the last
 * check's outcome, "check now", and the last version's changes, breaking first. CI can push the
 * document through `open/pushSpec` instead; the last push shows here the same way.
 */
import { Alert, Button, Form, Input, InputNumber, Select, Space, Typography } from 'antd';
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  checkContract,
  CONTRACT_SCHEDULES,
  contractInfo,
  type ContractInfo,
  followContract,
  unfollowContract,
} from '../../api/apiContracts';
import { ContractChanges } from './ContractChanges';

export function FollowContract({ itemId, onSynced }: { itemId: number; onSynced: () => void }) {
  const { t } = useTranslation();
  const [info, setInfo] = useState<ContractInfo | null>(null);
  const [url, setUrl] = useState('');
  const [schedule, setSchedule] = useState<string>('daily');
  const [minutes, setMinutes] = useState(60);
  const [busy, setBusy] = useState<'' | 'save' | 'check' | 'unfollow'>('');
  const [error, setError] = useState('');

  const show = useCallback((next: ContractInfo) => {
    setInfo(next);
    if (next.following) {
      setUrl(next.source_url);
      setSchedule(next.schedule);
      if (next.schedule === 'custom') setMinutes(next.interval_minutes);
    }
  }, []);

  useEffect(() => {
    contractInfo(itemId).then(show, () => undefined);
  }, [itemId, show]);

  const save = async () => {
    setBusy('save');
    setError('');
    try {
      show(
        await followContract({
          item_id: itemId,
          url: url.trim(),
          schedule,
          interval_minutes: minutes,
        }),
      );
    } finally {
      setBusy('');
    }
  };

  const check = async () => {
    setBusy('check');
    setError('');
    try {
      await checkContract(itemId);
      onSynced();
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    } finally {
      setBusy('');
      show(await contractInfo(itemId));
    }
  };

  const unfollow = async () => {
    setBusy('unfollow');
    try {
      show(await unfollowContract(itemId));
    } finally {
      setBusy('');
    }
  };

  const status = info?.last_status ?? '';
  const breaking = info?.last_diff.filter((c) => c.breaking).length ?? 0;
  return (
    <section data-testid="follow-contract" style={{ marginTop: 20 }}>
      <Typography.Title level={5}>{t('apiContracts.follow')}</Typography.Title>
      <Typography.Paragraph type="secondary">{t('apiContracts.intro')}</Typography.Paragraph>
      <Form layout="vertical" onFinish={save}>
        <Form.Item label={t('apiContracts.url')} required>
          <Input
            value={url}
            onChange={(e) => setUrl(e.target.value)}
            placeholder="https://api.example.com/openapi.json"
            data-testid="contract-url"
          />
        </Form.Item>
        <Space wrap align="end">
          <Form.Item label={t('apiContracts.schedule')}>
            <Select
              value={schedule}
              onChange={setSchedule}
              style={{ width: 180 }}
              data-testid="contract-schedule"
              options={CONTRACT_SCHEDULES.map((s) => ({
                value: s,
                label: t(`apiContracts.schedules.${s}`),
              }))}
            />
          </Form.Item>
          {schedule === 'custom' && (
            <Form.Item label={t('apiContracts.minutes')}>
              <InputNumber
                min={5}
                max={10080}
                value={minutes}
                onChange={(v) => setMinutes(Number(v) || 60)}
              />
            </Form.Item>
          )}
          <Form.Item>
            <Space>
              <Button
                type="primary"
                htmlType="submit"
                disabled={!url.trim()}
                loading={busy === 'save'}
                data-testid="contract-save"
              >
                {t('apiContracts.save')}
              </Button>
              <Button
                onClick={check}
                disabled={!info?.following}
                loading={busy === 'check'}
                data-testid="contract-check"
              >
                {t('apiContracts.checkNow')}
              </Button>
              {info?.following ? (
                <Button type="link" danger onClick={unfollow} loading={busy === 'unfollow'}>
                  {t('apiContracts.unfollow')}
                </Button>
              ) : null}
            </Space>
          </Form.Item>
        </Space>
      </Form>
      {info && status && (
        <Alert
          data-testid="contract-status"
          type={
            status === 'error' ? 'error' : breaking && status === 'changed' ? 'warning' : 'info'
          }
          showIcon
          message={t(`apiContracts.status.${status}`, { version: info.spec_version })}
          description={
            <>
              <div>
                {t('apiContracts.lastCheck', { time: info.last_check_at })}
                {info.next_check_at
                  ? ` · ${t('apiContracts.nextCheck', { time: info.next_check_at })}`
                  : ''}
              </div>
              {status === 'error' && info.last_error && <div>{info.last_error}</div>}
            </>
          }
        />
      )}
      {error && !info?.last_error && <Alert type="error" showIcon message={error} />}
      {info && info.last_diff.length > 0 && (
        <div style={{ marginTop: 12 }} data-testid="contract-last-diff">
          <Typography.Text strong>
            {t('apiContracts.lastDiff', {
              from: info.last_diff_from,
              to: info.spec_version,
              breaking,
              count: info.last_diff.length,
            })}
          </Typography.Text>
          <ContractChanges changes={info.last_diff} />
        </div>
      )}
      <Typography.Paragraph type="secondary" style={{ marginTop: 12 }}>
        {t('apiContracts.pushHint')}
      </Typography.Paragraph>
    </section>
  );
}
