/**
 * The fields of the create and update dialogs: type and custom id (creation only), name,
 * description, open/private with the visit password, groups.
 */
import { Form, Input, Radio, Select, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { ItemGroup, ItemType } from '../../api/types';
import { ITEM_TYPES } from './itemTypes';

export interface ItemFormValues {
  item_type: ItemType;
  item_name: string;
  item_description: string;
  item_domain: string;
  visibility: 'open' | 'private';
  password: string;
  group_ids: number[];
}

/** Letters and digits, not only digits (a number would read as an item id). */
const CUSTOM_ID = /^(?=.*[A-Za-z])[A-Za-z0-9]+$/;

export function ItemFields({
  creating,
  groups,
  hasPassword,
  editDomain = false,
}: {
  creating: boolean;
  /** The item setting screen: the custom id stays editable after creation. */
  editDomain?: boolean;
  groups: ItemGroup[];
  /** Update of an item that already has a password: a blank field keeps it. */
  hasPassword?: boolean;
}) {
  const { t } = useTranslation();
  return (
    <>
      {creating && (
        <Form.Item name="item_type" label={t('items.form.type')}>
          <Radio.Group style={{ width: '100%' }}>
            <Space orientation="vertical" style={{ width: '100%' }}>
              {ITEM_TYPES.map((type) => (
                <Radio key={type.value} value={type.value}>
                  <Space>
                    {type.icon}
                    <span>{t(type.label)}</span>
                    <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                      {t(type.hint)}
                    </Typography.Text>
                  </Space>
                </Radio>
              ))}
            </Space>
          </Radio.Group>
        </Form.Item>
      )}
      <Form.Item
        name="item_name"
        label={t('items.form.name')}
        rules={[{ required: true, whitespace: true, message: t('items.form.nameRequired') }]}
      >
        <Input maxLength={100} placeholder={t('items.form.namePlaceholder')} />
      </Form.Item>
      <Form.Item name="item_description" label={t('items.form.description')}>
        <Input.TextArea maxLength={500} autoSize={{ minRows: 2, maxRows: 4 }} />
      </Form.Item>
      {(creating || editDomain) && (
        <Form.Item
          name="item_domain"
          label={t('items.form.customId')}
          extra={editDomain ? t('itemSetting.domainHint') : t('items.form.customIdHint')}
          rules={[
            {
              validator: (_rule, value: string) =>
                !value || CUSTOM_ID.test(value)
                  ? Promise.resolve()
                  : Promise.reject(new Error(t('items.form.customIdRule'))),
            },
          ]}
        >
          <Input maxLength={50} prefix={`${window.location.host}/`} />
        </Form.Item>
      )}
      <Form.Item name="visibility" label={t('items.form.visibility')}>
        <Radio.Group>
          <Radio value="open">{t('items.form.open')}</Radio>
          <Radio value="private">{t('items.form.private')}</Radio>
        </Radio.Group>
      </Form.Item>
      <Form.Item noStyle dependencies={['visibility']}>
        {({ getFieldValue }) =>
          getFieldValue('visibility') === 'private' && (
            <Form.Item
              name="password"
              label={t('items.form.password')}
              extra={hasPassword ? t('items.form.passwordKeep') : t('items.form.passwordHint')}
            >
              <Input.Password maxLength={100} autoComplete="new-password" />
            </Form.Item>
          )
        }
      </Form.Item>
      {groups.length > 0 && (
        <Form.Item name="group_ids" label={t('items.form.groups')}>
          <Select
            mode="multiple"
            allowClear
            placeholder={t('items.form.groupsPlaceholder')}
            options={groups.map((g) => ({ value: Number(g.id), label: g.group_name }))}
          />
        </Form.Item>
      )}
    </>
  );
}
