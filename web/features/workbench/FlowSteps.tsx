/**
 * A flow's steps: dragged into order by their handle (a mouse once it moves 6 px, the keyboard
 * with Space, arrows, Space), or moved with the up/down buttons; each enabled or not, with
 * its JSONPath extractions. The new order is saved at once (`flow/saveSort`).
 */
import {
  ArrowDownOutlined,
  ArrowUpOutlined,
  DeleteOutlined,
  HolderOutlined,
} from '@ant-design/icons';
import { Button, Checkbox, Empty, Input, Space, Tag } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { SortableList, type DragBindings } from '../../components/SortableList';
import { type FlowStep, setStepExtract } from './workbenchApi';

function rulesOf(step: FlowStep): { var: string; path: string }[] {
  try {
    const list: unknown = JSON.parse(String((step as { extract?: string }).extract || '[]'));
    return Array.isArray(list) ? (list as { var: string; path: string }[]) : [];
  } catch {
    return [];
  }
}

function ExtractEditor({ step, onSaved }: { step: FlowStep; onSaved: () => void }) {
  const { t } = useTranslation();
  const rules = rulesOf(step);
  const [name, setName] = useState('');
  const [path, setPath] = useState('');
  const save = async (next: { var: string; path: string }[]) => {
    await setStepExtract(step.id, next);
    onSaved();
  };
  return (
    <Space direction="vertical" size={4} style={{ width: '100%' }}>
      <Space wrap size={4}>
        {rules.map((rule) => (
          <Tag
            key={rule.var}
            closable
            data-testid="workbench-flow-rule"
            onClose={() => save(rules.filter((r) => r.var !== rule.var))}
          >
            {`{{${rule.var}}} ← ${rule.path}`}
          </Tag>
        ))}
      </Space>
      <Space.Compact size="small">
        <Input
          data-testid="workbench-flow-extract-var"
          aria-label={t('workbench.flow.extractVar')}
          placeholder={t('workbench.flow.extractVar')}
          value={name}
          onChange={(e) => setName(e.target.value)}
          style={{ width: 120 }}
        />
        <Input
          data-testid="workbench-flow-extract-path"
          aria-label={t('workbench.flow.extractPath')}
          placeholder="$.data.token"
          value={path}
          onChange={(e) => setPath(e.target.value)}
          style={{ width: 180 }}
        />
        <Button
          data-testid="workbench-flow-extract-add"
          onClick={async () => {
            if (!name.trim() || !path.trim()) return;
            await save([
              ...rules.filter((r) => r.var !== name.trim()),
              { var: name.trim(), path: path.trim() },
            ]);
            setName('');
            setPath('');
          }}
        >
          {t('workbench.flow.extractAdd')}
        </Button>
      </Space.Compact>
    </Space>
  );
}

function StepRow({
  step,
  index,
  count,
  drag,
  onMove,
  onToggle,
  onRemove,
  onSaved,
}: {
  step: FlowStep;
  index: number;
  count: number;
  drag: DragBindings;
  onMove: (index: number, delta: number) => void;
  onToggle: (step: FlowStep, enabled: boolean) => void;
  onRemove: (step: FlowStep) => void;
  onSaved: () => void;
}) {
  const { t } = useTranslation();
  const title = step.page_title || `#${step.page_id}`;
  // Only the handle drags: a row holds inputs whose text a mouse selects by dragging.
  const { ref, style, ...pointer } = drag.rowProps;
  return (
    <div
      ref={ref}
      role="listitem"
      data-testid={`workbench-flow-step-${step.page_id}`}
      style={{
        ...style,
        display: 'flex',
        alignItems: 'flex-start',
        gap: 8,
        padding: '6px 8px',
        marginBottom: 4,
        background: drag.dragging ? '#eef4ff' : '#fff',
        border: '1px solid #edf0f3',
        borderRadius: 6,
      }}
    >
      <span
        {...pointer}
        {...drag.handleProps}
        data-testid="workbench-flow-drag"
        aria-label={t('workbench.flowMore.drag', { title })}
        style={{ color: '#98a2b3', cursor: 'grab', padding: 4 }}
      >
        <HolderOutlined />
      </span>
      <Checkbox
        aria-label={t('workbench.flow.enabled')}
        checked={Boolean(step.enabled)}
        onChange={(e) => onToggle(step, e.target.checked)}
      />
      <span style={{ minWidth: 140, flex: '0 0 auto' }}>{title}</span>
      <div style={{ flex: 1 }}>
        <ExtractEditor step={step} onSaved={onSaved} />
      </div>
      <Space size={2}>
        <Button
          size="small"
          icon={<ArrowUpOutlined />}
          aria-label={t('workbench.flow.up')}
          disabled={index === 0}
          onClick={() => onMove(index, -1)}
        />
        <Button
          size="small"
          icon={<ArrowDownOutlined />}
          aria-label={t('workbench.flow.down')}
          disabled={index === count - 1}
          onClick={() => onMove(index, 1)}
        />
        <Button
          size="small"
          danger
          icon={<DeleteOutlined />}
          aria-label={t('workbench.flow.remove')}
          onClick={() => onRemove(step)}
        />
      </Space>
    </div>
  );
}

export function FlowSteps({
  steps,
  onReorder,
  onToggle,
  onRemove,
  onSaved,
}: {
  steps: FlowStep[];
  /** The steps' ids in their new order. */
  onReorder: (order: number[]) => void;
  onToggle: (step: FlowStep, enabled: boolean) => void;
  onRemove: (step: FlowStep) => void;
  onSaved: () => void;
}) {
  const { t } = useTranslation();
  if (steps.length === 0)
    return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('workbench.flow.noSteps')} />;
  const move = (index: number, delta: number) => {
    const order = steps.map((s) => s.id);
    const [moved] = order.splice(index, 1);
    order.splice(index + delta, 0, moved);
    onReorder(order);
  };
  return (
    <div role="list" data-testid="workbench-flow-steps">
      <SortableList
        items={steps}
        getId={(step) => String(step.id)}
        getLabel={(step) => step.page_title || `#${step.page_id}`}
        onReorder={(next) => onReorder(next.map((s) => s.id))}
      >
        {(step, drag) => (
          <StepRow
            step={step}
            index={steps.indexOf(step)}
            count={steps.length}
            drag={drag}
            onMove={move}
            onToggle={onToggle}
            onRemove={onRemove}
            onSaved={onSaved}
          />
        )}
      </SortableList>
    </div>
  );
}
