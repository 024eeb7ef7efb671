/**
 * Back office — web settings (spec 002 §3): registration, who the member pickers list, home page (with the chooser of the
 * first 100 projects), filing number and AI assistant (Chinese only), history versions kept,
 * watermark, site URL, cloud storage. Secrets are never shown: a blank field keeps the stored one.
 */
import { App, Button, Form, Input, InputNumber, Radio, Select, Spin, Switch } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  adminItems,
  loadSiteConfig,
  saveSiteConfig,
  type AdminItem,
  type OssSetting,
  type SiteConfig,
} from './api';
import { CONFIG_SAVE_OVERLAY_MS, LoadingOverlay } from '../../components/LoadingOverlay';

/** The admin home-item chooser loads the first 100 projects (spec 002 §9). */
const HOME_ITEM_CHOICES = 100;

interface Values {
  register_open: boolean;
  user_directory_open: boolean;
  home_page: string;
  home_item?: string;
  beian: string;
  history_version_count: number;
  page_quota: number;
  show_watermark: boolean;
  enable_public_square: boolean;
  site_url: string;
  open_ai_key: string;
  open_ai_host: string;
  ai_model_name: string;
  oss_open: boolean;
  oss: Partial<OssSetting>;
}

export function AdminSettings({ chinese }: { chinese: boolean }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm<Values>();
  const [config, setConfig] = useState<SiteConfig | null>(null);
  const [items, setItems] = useState<AdminItem[]>([]);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    loadSiteConfig().then(setConfig, () => undefined);
    adminItems({ item_name: '', username: '', page: 1, count: HOME_ITEM_CHOICES }).then(
      (data) => setItems(data.items),
      () => setItems([]),
    );
  }, []);

  if (!config) return <Spin />;

  async function submit(values: Values) {
    setBusy(true);
    try {
      await saveSiteConfig(
        {
          register_open: values.register_open ? 1 : 0,
          user_directory_open: values.user_directory_open ? 1 : 0,
          home_page: values.home_page,
          home_item: values.home_page === '3' ? (values.home_item ?? '') : '',
          history_version_count: values.history_version_count,
          page_quota: values.page_quota ?? 0,
          show_watermark: values.show_watermark ? 1 : 0,
          enable_public_square: values.enable_public_square ? 1 : 0,
          site_url: values.site_url?.trim() ?? '',
          oss_open: values.oss_open ? 1 : 0,
          ...(chinese
            ? {
                beian: values.beian?.trim() ?? '',
                open_ai_key: values.open_ai_key ?? '',
                open_ai_host: values.open_ai_host?.trim() ?? '',
                ai_model_name: values.ai_model_name?.trim() ?? '',
              }
            : {}),
        },
        values.oss_open ? values.oss : undefined,
      );
      message.success(t('common.saved'));
      loadSiteConfig().then(setConfig, () => undefined);
    } catch {
      // alerted
    } finally {
      setBusy(false);
    }
  }

  const oss = config.oss_setting ?? {};
  return (
    <Form<Values>
      form={form}
      name="adminSettings"
      layout="vertical"
      style={{ maxWidth: 560 }}
      onFinish={submit}
      initialValues={{
        register_open: config.register_open !== '0',
        user_directory_open: config.user_directory_open === '1',
        home_page: ['2', '3'].includes(config.home_page) ? config.home_page : '1',
        home_item: config.home_item || undefined,
        beian: config.beian,
        history_version_count: Number(config.history_version_count) || 20,
        page_quota: Number(config.page_quota) || 0,
        show_watermark: config.show_watermark === '1',
        enable_public_square: config.enable_public_square === '1',
        site_url: config.site_url,
        open_ai_key: '',
        open_ai_host: config.open_ai_host,
        ai_model_name: config.ai_model_name,
        oss_open: config.oss_open === '1',
        oss: { ...oss, secret: '', secretKey: '', oss_type: oss.oss_type || 's3_storage' },
      }}
    >
      <Form.Item
        name="register_open"
        label={t('admin.settings.registerOpen')}
        valuePropName="checked"
      >
        <Switch />
      </Form.Item>
      <Form.Item
        name="user_directory_open"
        label={t('admin.userDirectoryOpen')}
        extra={t('admin.userDirectoryOpenHint')}
        valuePropName="checked"
      >
        <Switch data-testid="admin-user-directory-open" />
      </Form.Item>
      <Form.Item name="home_page" label={t('admin.settings.homePage')}>
        <Radio.Group>
          <Radio value="1">{t('admin.settings.homeFull')}</Radio>
          <Radio value="2">{t('admin.settings.homeLogin')}</Radio>
          <Radio value="3">{t('admin.settings.homeItem')}</Radio>
        </Radio.Group>
      </Form.Item>
      <Form.Item noStyle dependencies={['home_page']}>
        {({ getFieldValue }) =>
          getFieldValue('home_page') === '3' && (
            <Form.Item
              name="home_item"
              label={t('admin.settings.homeItemChoose')}
              rules={[{ required: true, message: t('admin.settings.homeItemChoose') }]}
            >
              <Select
                showSearch
                optionFilterProp="label"
                aria-label={t('admin.settings.homeItemChoose')}
                options={items.map((item) => ({ value: item.item_id, label: item.item_name }))}
              />
            </Form.Item>
          )
        }
      </Form.Item>
      {chinese && (
        <Form.Item name="beian" label={t('admin.settings.beian')}>
          <Input maxLength={200} />
        </Form.Item>
      )}
      <Form.Item
        name="history_version_count"
        label={t('admin.settings.historyCount')}
        extra={t('admin.settings.historyCountHint')}
      >
        <InputNumber min={1} max={1000} precision={0} />
      </Form.Item>
      <Form.Item
        name="page_quota"
        label={t('admin.settings.pageQuota')}
        extra={t('admin.settings.pageQuotaHint')}
      >
        <InputNumber
          min={0}
          max={1_000_000}
          precision={0}
          aria-label={t('admin.settings.pageQuota')}
          data-testid="admin-page-quota"
        />
      </Form.Item>
      <Form.Item
        name="show_watermark"
        label={t('admin.settings.watermark')}
        valuePropName="checked"
      >
        <Switch />
      </Form.Item>
      <Form.Item
        name="enable_public_square"
        label={t('publicSquare.adminSetting')}
        extra={t('publicSquare.adminSettingHint')}
        valuePropName="checked"
      >
        <Switch data-testid="admin-public-square" />
      </Form.Item>
      <Form.Item
        name="site_url"
        label={t('admin.settings.siteUrl')}
        extra={t('admin.settings.siteUrlHint')}
      >
        <Input placeholder="https://docs.example.com" maxLength={300} />
      </Form.Item>
      {chinese && (
        <>
          <Form.Item
            name="open_ai_key"
            label={t('admin.settings.aiKey')}
            extra={config.open_ai_key_set ? t('admin.secretKept') : undefined}
          >
            <Input.Password autoComplete="new-password" maxLength={500} />
          </Form.Item>
          <Form.Item name="open_ai_host" label={t('admin.settings.aiHost')}>
            <Input maxLength={300} placeholder="https://api.openai.com" />
          </Form.Item>
          <Form.Item name="ai_model_name" label={t('admin.settings.aiModel')}>
            <Input maxLength={200} placeholder="gpt-4o" />
          </Form.Item>
        </>
      )}
      <Form.Item name="oss_open" label={t('admin.settings.ossOpen')} valuePropName="checked">
        <Switch />
      </Form.Item>
      <Form.Item noStyle dependencies={['oss_open']}>
        {({ getFieldValue }) =>
          getFieldValue('oss_open') && (
            <>
              <Form.Item name={['oss', 'oss_type']} label={t('admin.settings.ossType')}>
                <Select
                  options={[
                    { value: 's3_storage', label: 'S3' },
                    { value: 'aliyun', label: 'Aliyun OSS' },
                    { value: 'qcloud', label: 'Tencent COS' },
                    { value: 'qiniu', label: 'Qiniu' },
                  ]}
                />
              </Form.Item>
              <Form.Item name={['oss', 'endpoint']} label={t('admin.settings.ossEndpoint')}>
                <Input maxLength={300} />
              </Form.Item>
              <Form.Item name={['oss', 'region']} label={t('admin.settings.ossRegion')}>
                <Input maxLength={100} />
              </Form.Item>
              <Form.Item
                name={['oss', 'bucket']}
                label={t('admin.settings.ossBucket')}
                rules={[{ required: true, message: t('admin.settings.ossBucket') }]}
              >
                <Input maxLength={200} />
              </Form.Item>
              <Form.Item name={['oss', 'key']} label={t('admin.settings.ossKey')}>
                <Input maxLength={300} autoComplete="off" />
              </Form.Item>
              <Form.Item
                name={['oss', 'secret']}
                label={t('admin.settings.ossSecret')}
                extra={oss.secret_set ? t('admin.secretKept') : undefined}
              >
                <Input.Password maxLength={300} autoComplete="new-password" />
              </Form.Item>
              <Form.Item name={['oss', 'protocol']} label={t('admin.settings.ossProtocol')}>
                <Radio.Group options={['https', 'http']} />
              </Form.Item>
              <Form.Item name={['oss', 'domain']} label={t('admin.settings.ossDomain')}>
                <Input maxLength={300} />
              </Form.Item>
            </>
          )
        }
      </Form.Item>
      <Button type="primary" htmlType="submit" loading={busy}>
        {t('common.save')}
      </Button>
      <LoadingOverlay
        active={busy}
        limitMs={CONFIG_SAVE_OVERLAY_MS}
        label={t('admin.settings.saving')}
      />
    </Form>
  );
}
