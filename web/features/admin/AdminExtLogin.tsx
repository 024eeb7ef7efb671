/**
 * Back office — external login (spec 002 §2, §3): the LDAP and OAuth2 forms, and (Chinese only)
 * the generic-access login secret key with its reset. Bind password and client secret are never
 * shown: a blank field keeps the stored one.
 */
import { App, Button, Form, Input, Popconfirm, Radio, Spin, Switch, Tabs, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  getLoginSecretKey,
  loadLdapConfig,
  loadOauth2Config,
  resetLoginSecretKey,
  saveLdapConfig,
  saveOauth2Config,
  type FormValues,
} from './api';

type Loader = () => Promise<{ open: boolean; form: FormValues }>;
type Saver = (open: boolean, form: FormValues) => Promise<unknown>;

function SwitchForm({
  name,
  load,
  save,
  secret,
  fields,
}: {
  /** Prefixes the field ids (two of these forms can be on the page at once). */
  name: string;
  load: Loader;
  save: Saver;
  secret: string;
  fields: { name: string; label: string; placeholder?: string; required?: boolean }[];
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm<{ open: boolean; form: FormValues }>();
  const [loaded, setLoaded] = useState<{ open: boolean; form: FormValues } | null>(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    load().then(setLoaded, () => undefined);
  }, [load]);
  if (!loaded) return <Spin />;

  async function submit(values: { open: boolean; form: FormValues }) {
    setBusy(true);
    try {
      await save(values.open, values.form);
      message.success(t('common.saved'));
    } catch {
      // alerted
    } finally {
      setBusy(false);
    }
  }

  return (
    <Form
      form={form}
      name={name}
      layout="vertical"
      style={{ maxWidth: 560 }}
      onFinish={submit}
      initialValues={{ open: loaded.open, form: { ...loaded.form, [secret]: '' } }}
    >
      <Form.Item name="open" label={t('admin.ext.enable')} valuePropName="checked">
        <Switch />
      </Form.Item>
      {fields.map((field) =>
        field.name === 'version' ? (
          <Form.Item key={field.name} name={['form', 'version']} label={field.label}>
            <Radio.Group options={['3', '2']} />
          </Form.Item>
        ) : field.name === secret ? (
          <Form.Item
            key={field.name}
            name={['form', field.name]}
            label={field.label}
            extra={loaded.form[`${secret}_set`] ? t('admin.secretKept') : undefined}
          >
            <Input.Password autoComplete="new-password" maxLength={500} />
          </Form.Item>
        ) : (
          <Form.Item key={field.name} name={['form', field.name]} label={field.label}>
            <Input placeholder={field.placeholder} maxLength={500} />
          </Form.Item>
        ),
      )}
      <Button type="primary" htmlType="submit" loading={busy}>
        {t('common.save')}
      </Button>
    </Form>
  );
}

const loadLdap: Loader = async () => {
  const data = await loadLdapConfig();
  return { open: data.ldap_open === '1', form: data.ldap_form ?? {} };
};
const loadOauth2: Loader = async () => {
  const data = await loadOauth2Config();
  return { open: data.oauth2_open === '1', form: data.oauth2_form ?? {} };
};

function SecretKey() {
  const { t } = useTranslation();
  const [key, setKey] = useState('');
  useEffect(() => {
    getLoginSecretKey().then(
      (data) => setKey(data.login_secret_key),
      () => undefined,
    );
  }, []);
  return (
    <>
      <Typography.Paragraph type="secondary">{t('admin.ext.secretHelp')}</Typography.Paragraph>
      <Typography.Paragraph>
        <Typography.Text code copyable={!!key}>
          {key || '…'}
        </Typography.Text>
      </Typography.Paragraph>
      <Popconfirm
        title={t('admin.ext.secretResetConfirm')}
        okText={t('common.confirm')}
        cancelText={t('common.cancel')}
        onConfirm={() =>
          resetLoginSecretKey().then(
            (data) => setKey(data.login_secret_key),
            () => undefined,
          )
        }
      >
        <Button danger>{t('admin.ext.secretReset')}</Button>
      </Popconfirm>
    </>
  );
}

export function AdminExtLogin({ chinese }: { chinese: boolean }) {
  const { t } = useTranslation();
  const ldapFields = [
    { name: 'host', label: t('admin.ext.host'), placeholder: 'ldap.example.com' },
    { name: 'port', label: t('admin.ext.port'), placeholder: '389' },
    { name: 'version', label: t('admin.ext.version') },
    { name: 'base_dn', label: 'Base DN', placeholder: 'dc=example,dc=com' },
    { name: 'bind_dn', label: 'Bind DN', placeholder: 'cn=admin,dc=example,dc=com' },
    { name: 'bind_password', label: t('admin.ext.bindPassword') },
    { name: 'user_field', label: t('admin.ext.userField'), placeholder: 'cn' },
    { name: 'name_field', label: t('admin.ext.nameField'), placeholder: 'displayName' },
    { name: 'search_filter', label: t('admin.ext.filter'), placeholder: '(cn=*)' },
  ];
  const oauthFields = [
    { name: 'entrance_tips', label: t('admin.ext.entranceTips') },
    { name: 'client_id', label: 'Client ID' },
    { name: 'client_secret', label: 'Client secret' },
    { name: 'protocol', label: t('admin.ext.protocol'), placeholder: 'https' },
    { name: 'host', label: t('admin.ext.host'), placeholder: 'sso.example.com' },
    {
      name: 'authorize_path',
      label: t('admin.ext.authorizePath'),
      placeholder: '/oauth/authorize',
    },
    { name: 'token_path', label: t('admin.ext.tokenPath'), placeholder: '/oauth/token' },
    { name: 'userinfo_path', label: t('admin.ext.userinfoPath'), placeholder: '/oauth/userinfo' },
    { name: 'scope', label: 'Scope', placeholder: 'openid profile' },
    { name: 'logout_redirect_uri', label: t('admin.ext.logoutUri') },
  ];
  return (
    <Tabs
      items={[
        {
          key: 'ldap',
          label: 'LDAP',
          children: (
            <SwitchForm
              name="adminLdap"
              load={loadLdap}
              save={saveLdapConfig}
              secret="bind_password"
              fields={ldapFields}
            />
          ),
        },
        {
          key: 'oauth2',
          label: 'OAuth2',
          children: (
            <>
              <Typography.Paragraph type="secondary">
                {t('admin.ext.callback', {
                  url: `${window.location.origin}/api/ExtLogin/oauth2`,
                })}
              </Typography.Paragraph>
              <SwitchForm
                name="adminOauth2"
                load={loadOauth2}
                save={saveOauth2Config}
                secret="client_secret"
                fields={oauthFields}
              />
            </>
          ),
        },
        ...(chinese
          ? [{ key: 'secret', label: t('admin.ext.secretTab'), children: <SecretKey /> }]
          : []),
      ]}
    />
  );
}
