/** HTTP test and AI have no server side yet: their buttons say so instead of failing. */
import { Modal, Result } from 'antd';
import { useTranslation } from 'react-i18next';

export type LaterTool = 'http' | 'ai';

export function ComingSoonDialog({ tool, onClose }: { tool: LaterTool; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Modal
      open
      title={t(`editAssets.later.${tool}`)}
      okText={t('common.ok')}
      onOk={onClose}
      onCancel={onClose}
      cancelButtonProps={{ style: { display: 'none' } }}
      destroyOnHidden
    >
      <div data-testid="coming-soon-dialog" data-tool={tool}>
        <Result
          status="info"
          title={t('editAssets.later.title')}
          subTitle={t('editAssets.later.text')}
        />
      </div>
    </Modal>
  );
}
