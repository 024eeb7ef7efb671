/**
 * The narrow-screen header (spec 001 §2 "Mobile layout"): the item's name between a button for the
 * catalog drawer and one for the language drawer. Loaded only on narrow screens (its drawers and
 * menu are not on a desktop reader's first paint).
 */
import { GlobalOutlined, MenuOutlined, ShareAltOutlined } from '@ant-design/icons';
import { Button, Drawer, Menu } from 'antd';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { LANGUAGES } from '../../i18n';
import { useSwitchLanguage } from './ReaderLanguageSwitch';
import { MOBILE_HEADER_HEIGHT } from './useViewport';

export function MobileHeader({
  title,
  catalog,
  onShare,
  catalogOpen,
  onCatalogOpenChange,
}: {
  title: string;
  /** The tree shown in the catalog drawer (none for single-page views). */
  catalog?: ReactNode;
  onShare?: () => void;
  catalogOpen: boolean;
  onCatalogOpenChange: (open: boolean) => void;
}) {
  const { t, i18n } = useTranslation();
  const switchTo = useSwitchLanguage();
  const [languagesOpen, setLanguagesOpen] = useState(false);
  return (
    <>
      <header
        data-testid="mobile-header"
        style={{
          position: 'fixed',
          top: 0,
          left: 0,
          right: 0,
          height: MOBILE_HEADER_HEIGHT,
          zIndex: 10,
          display: 'flex',
          alignItems: 'center',
          gap: 4,
          padding: '0 4px',
          background: '#fff',
          borderBottom: '1px solid #eceef2',
        }}
      >
        {catalog ? (
          <Button
            type="text"
            icon={<MenuOutlined />}
            aria-label={t('reader.catalog')}
            onClick={() => onCatalogOpenChange(true)}
            data-testid="mobile-catalog"
          />
        ) : (
          <span style={{ width: 32 }} />
        )}
        <div
          style={{
            flex: 1,
            textAlign: 'center',
            fontWeight: 600,
            overflow: 'hidden',
            textOverflow: 'ellipsis',
            whiteSpace: 'nowrap',
          }}
          data-testid="mobile-title"
        >
          {title}
        </div>
        {onShare && (
          <Button
            type="text"
            icon={<ShareAltOutlined />}
            aria-label={t('reader.share')}
            onClick={onShare}
          />
        )}
        <Button
          type="text"
          icon={<GlobalOutlined />}
          aria-label={t('language.label')}
          onClick={() => setLanguagesOpen(true)}
          data-testid="mobile-language"
        />
      </header>
      {catalog && (
        <Drawer
          placement="left"
          open={catalogOpen}
          onClose={() => onCatalogOpenChange(false)}
          title={title}
          size={300}
          styles={{ body: { padding: 12 } }}
        >
          {catalog}
        </Drawer>
      )}
      <Drawer
        placement="right"
        open={languagesOpen}
        onClose={() => setLanguagesOpen(false)}
        title={t('language.label')}
        size={240}
        styles={{ body: { padding: 0 } }}
      >
        <Menu
          selectedKeys={[i18n.language]}
          items={LANGUAGES.map((l) => ({ key: l.locale, label: l.label }))}
          onClick={({ key }) => {
            switchTo(key);
            setLanguagesOpen(false);
          }}
          data-testid="mobile-languages"
        />
      </Drawer>
    </>
  );
}

export default MobileHeader;
