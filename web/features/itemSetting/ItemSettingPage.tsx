/**
 * `/item/setting/:item_id` (spec 002 §2): an item's settings on one screen, in six tabs — base
 * info (name, description, personal domain, open/private with its password), members (personal
 * members and teams), open API (key and token), webhooks (Quire's), the assistant ("Ask the docs") and the recycle bin. The tabs reuse the item
 * dialogs' parts; only the item's managers get in (the API refuses everyone else).
 */
import { App, Button, Form, Spin, Tabs } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams, useSearchParams } from 'react-router';
import { itemDetail, updateItem } from '../../api/items';
import type { ItemDetail } from '../../api/types';
import { ItemFields, type ItemFormValues } from '../items/ItemFields';
import { OpenApiPanel } from '../items/OpenApiModal';
import { RecyclePanel } from '../items/RecycleModal';
import { ScreenCard } from '../layout/ScreenCard';
import { ItemTeams } from '../members/ItemTeams';
import { PersonalMembers } from '../members/PersonalMembers';
import { WebhooksPanel } from '../webhooks/WebhooksPanel';
import { AssistantSettings } from '../askDocs/AssistantSettings';
import { SuggestModeSetting } from '../suggest/SuggestModeSetting';

const TABS = ['base', 'members', 'openApi', 'webhooks', 'assistant', 'recycle'] as const;

function BaseInfo({ detail, onSaved }: { detail: ItemDetail; onSaved: () => void }) {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const [form] = Form.useForm<ItemFormValues>();
  const [busy, setBusy] = useState(false);
  const hasPassword = !!Number(detail.is_private);

  async function submit(values: ItemFormValues) {
    const isPrivate = values.visibility === 'private';
    const password = isPrivate ? (values.password ?? '') : '';
    if (isPrivate && !password && !hasPassword) {
      modal.warning({ content: t('items.form.privateNeedsPassword'), okText: t('common.ok') });
      return;
    }
    setBusy(true);
    try {
      await updateItem({
        item_id: Number(detail.item_id),
        item_name: values.item_name.trim(),
        item_description: values.item_description ?? '',
        item_domain: values.item_domain?.trim() ?? '',
        password,
        is_private: isPrivate ? 1 : 0,
      });
      message.success(t('itemSetting.saved'));
      onSaved();
    } catch {
      // alerted
    } finally {
      setBusy(false);
    }
  }

  return (
    <Form
      form={form}
      name="itemSettingBase"
      layout="vertical"
      style={{ maxWidth: 560 }}
      onFinish={submit}
      initialValues={{
        item_name: detail.item_name,
        item_description: detail.item_description,
        item_domain: detail.item_domain,
        visibility: hasPassword ? 'private' : 'open',
        password: '',
      }}
    >
      <ItemFields creating={false} editDomain groups={[]} hasPassword={hasPassword} />
      <Button type="primary" htmlType="submit" loading={busy}>
        {t('itemSetting.submit')}
      </Button>
      <SuggestModeSetting detail={detail} onSaved={onSaved} />
    </Form>
  );
}

export default function ItemSettingPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const itemId = Number(useParams().item_id);
  const [params, setParams] = useSearchParams();
  const [detail, setDetail] = useState<ItemDetail | null>(null);
  const requested = params.get('tab') as (typeof TABS)[number] | null;
  const tab = requested && TABS.includes(requested) ? requested : 'base';

  useEffect(() => {
    itemDetail(itemId).then(setDetail, () => void navigate('/item/index', { replace: true }));
  }, [itemId, navigate]);

  return (
    <ScreenCard
      title={detail ? t('itemSetting.title', { name: detail.item_name }) : t('itemSetting.base')}
      back="/item/index"
    >
      {!detail ? (
        <Spin />
      ) : (
        <Tabs
          activeKey={tab}
          onChange={(key) => setParams({ tab: key }, { replace: true })}
          destroyOnHidden
          items={[
            {
              key: 'base',
              label: t('itemSetting.base'),
              children: (
                <BaseInfo
                  detail={detail}
                  onSaved={() => itemDetail(itemId).then(setDetail, () => undefined)}
                />
              ),
            },
            {
              key: 'members',
              label: t('itemSetting.members'),
              children: (
                <>
                  <PersonalMembers itemId={itemId} />
                  <ItemTeams itemId={itemId} />
                </>
              ),
            },
            {
              key: 'openApi',
              label: t('itemSetting.openApi'),
              children: <OpenApiPanel itemId={itemId} />,
            },
            {
              key: 'webhooks',
              label: t('webhooks.tab'),
              children: <WebhooksPanel itemId={itemId} />,
            },
            {
              key: 'assistant',
              label: t('askDocs.tab'),
              children: (
                <AssistantSettings itemId={itemId} isPrivate={!!Number(detail.is_private)} />
              ),
            },
            {
              key: 'recycle',
              label: t('itemSetting.recycle'),
              children: <RecyclePanel itemId={itemId} />,
            },
          ]}
        />
      )}
    </ScreenCard>
  );
}
