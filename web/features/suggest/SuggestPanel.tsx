/**
 * The editor's suggestion pieces: the "Suggesting" switch in the tool row, and the side panel
 * listing the page's open suggestions (with Accept / Reject for those who may edit).
 */
import { Empty, Switch, Tooltip, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { SuggestionList as List } from './api';
import { SuggestionList } from './SuggestionList';

export function SuggestSwitch(props: {
  suggesting: boolean;
  forced: boolean;
  onChange(on: boolean): void;
}) {
  const { t } = useTranslation();
  return (
    <Tooltip title={t(props.forced ? 'suggest.forced' : 'suggest.switchHelp')}>
      <span style={{ display: 'inline-flex', alignItems: 'center', gap: 6, marginRight: 8 }}>
        <Switch
          size="small"
          checked={props.suggesting}
          disabled={props.forced}
          onChange={props.onChange}
          data-testid="suggest-switch"
        />
        <Typography.Text>{t('suggest.switch')}</Typography.Text>
      </span>
    </Tooltip>
  );
}

export function SuggestPanel(props: { pageId: number; list: List | null; onReviewed(): void }) {
  const { t } = useTranslation();
  const { list } = props;
  return (
    <div
      data-testid="suggest-panel"
      style={{
        width: 300,
        flexShrink: 0,
        overflowY: 'auto',
        background: '#fff',
        borderLeft: '1px solid #eceef2',
        padding: '8px 12px',
      }}
    >
      <Typography.Title level={5} style={{ marginTop: 0 }}>
        {t('suggest.title')}
      </Typography.Title>
      {list && list.suggestions.length > 0 ? (
        <SuggestionList pageId={props.pageId} list={list} onReviewed={props.onReviewed} />
      ) : (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('suggest.none')} />
      )}
    </div>
  );
}
