/**
 * The editor's top bar (spec 001 §2 "Page editor"): back, the title (click to edit it and the page
 * ID), the catalog chooser, who else is here, the save state, 'save and notify', and the split
 * Save button whose menu saves to a template, locks or releases the page. Presentational: the
 * screen owns every action.
 */
import {
  ArrowLeftOutlined,
  DownOutlined,
  EditOutlined,
  FolderOpenOutlined,
  LockOutlined,
  NotificationOutlined,
  RobotOutlined,
  SaveOutlined,
  SnippetsOutlined,
  UnlockOutlined,
} from '@ant-design/icons';
import { Avatar, Button, Space, Tag, Tooltip, TreeSelect, Typography } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { LazyDropdown } from '../../components/LazyDropdown';
import type { MenuCatalog } from '../reader/types';
import type { CoEditor } from './useCoEditors';

export type SaveState = 'saved' | 'dirty' | 'saving' | 'offline' | 'watching';

/** What the header says of the text: a save under way, no connection, watching, unsaved, saved. */
export function saveStateOf(s: {
  saving: boolean;
  online: boolean;
  watching: boolean;
  dirty: boolean;
}): SaveState {
  if (s.saving) return 'saving';
  if (!s.online) return 'offline';
  if (s.watching) return 'watching';
  return s.dirty ? 'dirty' : 'saved';
}

interface CatalogOption {
  value: number;
  title: string;
  children: CatalogOption[];
}

function catalogOptions(catalogs: MenuCatalog[] | undefined): CatalogOption[] {
  return (catalogs ?? []).map((c) => ({
    value: Number(c.cat_id),
    title: c.cat_name,
    children: catalogOptions(c.catalogs),
  }));
}

export interface EditorHeaderProps {
  title: string;
  catalogs: MenuCatalog[] | undefined;
  catId: number;
  coEditors: CoEditor[];
  state: SaveState;
  writable: boolean;
  /** Lock actions apply (simultaneous editing off and the page exists). */
  lockable: boolean;
  lockHeld: boolean;
  onBack(): void;
  onTitle(): void;
  onCatalog(catId: number): void;
  /** Opens the catalog manager over the editor (the chooser reloads when it closes). */
  onManageCatalogs(): void;
  onSave(): void;
  onSaveNotify(): void;
  onSaveTemplate(): void;
  onLock(): void;
  onUnlock(): void;
}

export function EditorHeader(props: EditorHeaderProps) {
  const { t } = useTranslation();
  const people = props.coEditors.filter((person) => !person.agent);
  const agents = props.coEditors.filter((person) => person.agent);
  const treeData = useMemo(
    () => [{ value: 0, title: t('editor.rootCatalog'), children: catalogOptions(props.catalogs) }],
    [props.catalogs, t],
  );
  const stateTag = {
    saved: <Tag color="green">{t('editor.state.saved')}</Tag>,
    dirty: <Tag color="orange">{t('editor.state.dirty')}</Tag>,
    saving: <Tag color="blue">{t('editor.state.saving')}</Tag>,
    offline: <Tag color="red">{t('editor.state.offline')}</Tag>,
    watching: <Tag color="purple">{t('editor.state.watching')}</Tag>,
  }[props.state];

  const menu = [
    { key: 'template', icon: <SnippetsOutlined />, label: t('editor.saveTemplate') },
    ...(props.lockable
      ? [
          {
            key: 'lock',
            icon: <LockOutlined />,
            label: t('editor.lock.lockEdit'),
            disabled: props.lockHeld,
          },
          {
            key: 'unlock',
            icon: <UnlockOutlined />,
            label: t('editor.lock.cancelLock'),
            disabled: !props.lockHeld,
          },
        ]
      : []),
  ];

  return (
    <div
      style={{
        display: 'flex',
        alignItems: 'center',
        gap: 12,
        padding: '8px 16px',
        flexWrap: 'wrap',
        borderBottom: '1px solid #eceef2',
        background: '#fff',
      }}
    >
      <Tooltip title={t('editor.back')}>
        <Button
          type="text"
          icon={<ArrowLeftOutlined />}
          aria-label={t('editor.back')}
          onClick={props.onBack}
          data-testid="editor-back"
        />
      </Tooltip>
      <Typography.Text
        strong
        ellipsis
        style={{ fontSize: 16, maxWidth: 360, cursor: props.writable ? 'pointer' : 'default' }}
        onClick={props.writable ? props.onTitle : undefined}
        data-testid="editor-title"
        title={props.writable ? t('editor.editTitle') : undefined}
      >
        {props.title || t('editor.untitled')}
        {props.writable && <EditOutlined style={{ marginLeft: 6, color: '#99a' }} />}
      </Typography.Text>
      <TreeSelect
        style={{ minWidth: 200 }}
        value={props.catId}
        treeData={treeData}
        treeDefaultExpandAll
        disabled={!props.writable}
        onChange={(value: number) => props.onCatalog(Number(value))}
        aria-label={t('editor.catalog')}
        data-testid="editor-catalog"
        popupMatchSelectWidth={false}
      />
      {props.writable && (
        <Tooltip title={t('editor.manageCatalogs')}>
          <Button
            type="text"
            size="small"
            icon={<FolderOpenOutlined />}
            aria-label={t('editor.manageCatalogs')}
            onClick={props.onManageCatalogs}
            data-testid="editor-manage-catalogs"
          />
        </Tooltip>
      )}
      <div style={{ flex: 1 }} />
      {agents.map((agent) => (
        <Tooltip key={agent.id} title={t('aiTokens.agentWriting', { label: agent.name })}>
          <Tag
            icon={<RobotOutlined />}
            color={agent.color}
            data-testid="editor-agent"
            style={{ maxWidth: 260, overflow: 'hidden', textOverflow: 'ellipsis' }}
          >
            {agent.name}
          </Tag>
        </Tooltip>
      ))}
      {people.length > 0 && (
        <span data-testid="editor-coeditors" aria-label={t('editor.coEditors')}>
          <Avatar.Group max={{ count: 4 }}>
            {people.map((person) => (
              <Tooltip key={person.id} title={person.name}>
                <Avatar size="small" style={{ background: person.color }}>
                  {person.name.slice(0, 1).toUpperCase()}
                </Avatar>
              </Tooltip>
            ))}
          </Avatar.Group>
        </span>
      )}
      <span data-testid="editor-state" data-state={props.state}>
        {stateTag}
      </span>
      <Space>
        <Button
          icon={<NotificationOutlined />}
          onClick={props.onSaveNotify}
          disabled={!props.writable}
          data-testid="editor-save-notify"
        >
          {t('editor.saveNotify')}
        </Button>
        <Space.Compact>
          <Button
            type="primary"
            icon={<SaveOutlined />}
            onClick={props.onSave}
            loading={props.state === 'saving'}
            disabled={!props.writable}
            data-testid="editor-save"
          >
            {t('common.save')}
          </Button>
          <LazyDropdown
            trigger={['click']}
            menu={{
              items: menu,
              onClick: ({ key }) =>
                key === 'template'
                  ? props.onSaveTemplate()
                  : key === 'lock'
                    ? props.onLock()
                    : props.onUnlock(),
            }}
          >
            <Button
              type="primary"
              icon={<DownOutlined />}
              aria-label={t('editor.moreSave')}
              data-testid="editor-save-menu"
            />
          </LazyDropdown>
        </Space.Compact>
      </Space>
    </div>
  );
}
