/**
 * Who is reminded when the page is saved with "save and notify" (spec 001 §2, reference pages
 * §6): the page's subscribers, added from the item's people and removed one by one.
 */
import { DeleteOutlined, UserAddOutlined } from '@ant-design/icons';
import { App, Button, List, Modal, Select, Space, Typography } from 'antd';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { EditorPageContext } from '../contract';
import {
  itemPeople,
  pageSubscribers,
  subscribeToPage,
  unsubscribeFromPage,
  type ItemPerson,
  type Subscriber,
} from './api';

/** "name (username)" when the person has a display name of their own. */
function personLabel(username: string, name: string | undefined): string {
  return name && name !== username ? `${name} (${username})` : username;
}

export function NotifyDialog({ page, onClose }: { page: EditorPageContext; onClose: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [subscribers, setSubscribers] = useState<Subscriber[] | null>(null);
  const [people, setPeople] = useState<ItemPerson[]>([]);
  const [chosen, setChosen] = useState<number[]>([]);
  const [busy, setBusy] = useState(false);

  const load = useCallback(() => {
    pageSubscribers(page.pageId).then(setSubscribers, () => setSubscribers([]));
  }, [page.pageId]);
  useEffect(load, [load]);
  useEffect(() => {
    itemPeople(page.itemId).then(setPeople, () => setPeople([]));
  }, [page.itemId]);

  // Only people not subscribed yet can be added.
  const candidates = useMemo(() => {
    const subscribed = new Set((subscribers ?? []).map((s) => Number(s.uid)));
    return people
      .filter((person) => !subscribed.has(Number(person.uid)))
      .map((person) => ({
        value: Number(person.uid),
        label: personLabel(person.username, person.username_name),
      }));
  }, [people, subscribers]);

  async function change(action: () => Promise<unknown>, done: string) {
    setBusy(true);
    try {
      await action();
      message.success(done);
      load();
    } catch {
      // alerted
    } finally {
      setBusy(false);
    }
  }

  const add = () =>
    change(async () => {
      await subscribeToPage(page.pageId, chosen);
      setChosen([]);
    }, t('editAssets.notify.added'));

  const remove = (subscriber: Subscriber) =>
    change(
      () => unsubscribeFromPage(page.pageId, [Number(subscriber.uid)]),
      t('editAssets.notify.removed'),
    );

  return (
    <Modal
      open
      title={t('editAssets.notify.title')}
      footer={null}
      onCancel={onClose}
      width={600}
      destroyOnHidden
    >
      <div data-testid="notify-dialog">
        <Typography.Paragraph type="secondary">{t('editAssets.notify.help')}</Typography.Paragraph>
        {/* Only the item's people can be chosen: the places to add someone, in a new tab so this
            dialog and the editor stay as they are (seed 001 §2). */}
        <Typography.Paragraph type="secondary" data-testid="notify-people-links">
          {t('notices.notifyPeopleHint')}{' '}
          <Typography.Link
            href={`/item/setting/${page.itemId}?tab=members`}
            target="_blank"
            rel="noopener"
            data-testid="notify-item-members"
          >
            {t('notices.notifyItemMembers')}
          </Typography.Link>
          {' · '}
          <Typography.Link
            href="/team/index"
            target="_blank"
            rel="noopener"
            data-testid="notify-teams"
          >
            {t('notices.notifyTeams')}
          </Typography.Link>
        </Typography.Paragraph>
        <Space.Compact style={{ width: '100%', marginBottom: 16 }}>
          <Select<number[]>
            mode="multiple"
            value={chosen}
            onChange={setChosen}
            options={candidates}
            optionFilterProp="label"
            placeholder={t('editAssets.notify.choose')}
            aria-label={t('editAssets.notify.choose')}
            style={{ flex: 1 }}
            data-testid="notify-member-select"
          />
          <Button
            type="primary"
            icon={<UserAddOutlined />}
            disabled={chosen.length === 0}
            loading={busy}
            onClick={add}
            data-testid="notify-add"
          >
            {t('editAssets.notify.add')}
          </Button>
        </Space.Compact>
        <List<Subscriber>
          loading={subscribers === null}
          dataSource={subscribers ?? []}
          rowKey={(s) => s.uid}
          locale={{ emptyText: t('editAssets.notify.empty') }}
          renderItem={(subscriber) => (
            <List.Item
              data-testid="notify-subscriber"
              data-username={subscriber.username}
              actions={[
                <Button
                  key="remove"
                  type="text"
                  danger
                  icon={<DeleteOutlined />}
                  disabled={busy}
                  onClick={() => remove(subscriber)}
                  data-testid="notify-remove"
                  aria-label={t('editAssets.notify.remove', { name: subscriber.username })}
                />,
              ]}
            >
              <List.Item.Meta
                title={personLabel(subscriber.username, subscriber.name)}
                description={t('editAssets.notify.since', { time: subscriber.sub_time })}
              />
            </List.Item>
          )}
        />
      </div>
    </Modal>
  );
}
